import Foundation

// Pages folded with the part beyond the crease in shade darker than the desk.
//
// A part of a sheet turned from the light is dimmer paper. On a desk darker still, its outline
// is the page's own (`CornerExtension` follows it); on a desk as dark, only its print shows it
// (`CreaseExtension`). On a lighter desk it is a band darker than what lies round it, between
// the two sides that meet the crease carried on, and its edges step down inwards: the other
// way from the part in light, so the line search does not back them. The outline grows over
// that band to its far edge. A part in light too small to be a page alone is part of a sheet
// for sure, and there the band may also be lighter than the desk where the desk's light falls
// off: each of its edges steps whichever way the desk beside it lies, and one of the sides carried
// on may show no step at all, where the desk beside it lies at the band's own level (its other
// side and its far edge still show the band, and the grown outline's other sides are well backed).

extension GradientField {
    /// The part in shade is paper turned from the light: at least this share of the part in
    /// light's level (a dark object beside the page is far darker) ...
    static let shadeFloor: Float = 0.5
    /// ... darker than what lies round it by at least this many grey levels, the mean across
    /// each of its edges ...
    static let minimumShadeStep: Float = 3
    /// ... and at most this deep across the crease, as a share of the part in light's depth (a
    /// fold near one end leaves a narrow strip in light).
    static let maximumShadeDepth = 4.0
    /// The band's level is read this many rows past the crease: clear of the crease's blur.
    static let shadeLead = 3...5
    /// How far past the crease, as a share of the part in light's depth, the band is first
    /// compared with what lies beside it: near enough that a side turned at the fold has not
    /// moved off its line by more than the bands read.
    static let besideShare = 0.3
    /// Its far edge is read in these parts of each row, clear of the sides (which a fold
    /// bends), and must be straight through them to within this many working pixels.
    static let shadePortions: [ClosedRange<Double>] = [0.15...0.29, 0.29...0.43, 0.43...0.57, 0.57...0.71, 0.71...0.85]
    static let shadeEdgeStraightness = 2.0
    /// The far edge may step by less than the band's sides (`minimumShadeStep`): each side of
    /// it is read as a mean over rows of medians along a part of a row, where a pixel's noise
    /// is averaged out ...
    static let minimumFarStep: Float = 2
    /// ... and by at most this many times the band's step against the desk beside it: past it
    /// lies that desk.
    static let farStepRatio: Float = 3
    /// A part in light can be this small a share of the frame: the rest of the page is in shade.
    static let smallestLitShare = 0.25
    /// A side may turn at the fold by up to this much: the part standing up is seen at another
    /// angle, but its sides still run on from the part in light's.
    static let maximumShadeTurn = 12.0 * Double.pi / 180
    /// The gradient that backs an edge of the part in shade. Its step is faint and already shown
    /// by the levels either side; what backs it is a gradient pointing across it all along.
    static let shadeEdgeFloor: Float = 1
    /// Where one side carried on shows no step, how well each of the grown outline's other sides
    /// must be backed: as a side backed all along is (`confidence` counts this as full).
    static let levelSideBacking = 0.8

    /// `outline` grown across the side beyond which the sheet goes on in shade darker than the
    /// desk (or, with `eitherWay`, lighter than it in places), to that part's far edge; nil where
    /// no side has such a part beyond it, backed at least `minimumConfidence` by edges.
    func extendedOverShade(_ outline: ScoredQuad, minimumConfidence: Double, eitherWay: Bool = false, levelSide: Bool = false,
                           textless: GradientField) -> ScoredQuad? {
        guard !outline.isFrame, let paper = interior(outline.quad)?.inside else { return nil }
        var best: ScoredQuad?
        for k in 0..<4 {
            guard let grown = shade(beyond: k, of: outline.quad, paper: paper, eitherWay: eitherWay, levelSide: levelSide, textless: textless),
                  grown.confidence >= minimumConfidence, grown.confidence > best?.confidence ?? 0 else { continue }
            best = grown
        }
        return best
    }

    /// The whole sheet where side `k` of `q` (the part in light, its paper at level `paper`) is
    /// a crease with a part in shade beyond it, darker than the desk (either way, with
    /// `eitherWay`); nil otherwise. With `levelSide`, one of the sides carried on may show no
    /// step at all (the desk beside it at the part in shade's own level) and backs none of it,
    /// where every other side of the grown outline is well backed.
    func shade(beyond k: Int, of q: Quad, paper: Float, eitherWay: Bool, levelSide: Bool = false, textless: GradientField) -> ScoredQuad? {
        let depth = depth(across: k, of: q)
        guard depth >= 8 else { return nil }
        // Past the crease, the band is darker than what lies beside it, just past each side
        // carried on (the light across a desk varies, so the desk is read there).
        let c = q.corners
        let beside = max(Double(Self.shadeLead.upperBound + 1), Self.besideShare * depth)
        let onBefore = c[k] + (c[k] - c[(k + 3) % 4]).unit * beside, onAfter = c[(k + 1) % 4] + (c[(k + 1) % 4] - c[(k + 2) % 4]).unit * beside
        let besideBefore = stepContrast(c[k], onBefore, paper: false).mean, besideAfter = stepContrast(onAfter, c[(k + 1) % 4], paper: false).mean
        // Each side carried on steps down into the band (-1) or, for a part that cannot be a page
        // alone on a desk lit unevenly, maybe up (1): the desk there is darker than the shade.
        func polarity(_ step: Float, least: Float = Self.minimumShadeStep) -> Float? {
            step <= -least ? -1 : (eitherWay && step >= least ? 1 : nil)
        }
        let polarityBefore = polarity(besideBefore), polarityAfter = polarity(besideAfter)
        // The sides with no step, by their place in the grown outline's pieces and supports
        // below (0: the side before, 2: the side after).
        let levelSides = [polarityBefore == nil ? 0 : nil, polarityAfter == nil ? 2 : nil].compactMap { $0 }
        guard levelSides.isEmpty || (levelSide && levelSides.count == 1) else { return nil }
        // The band's step against the desk beside it, which its far edge's may exceed only so much.
        let besideStep = max(abs(besideBefore), abs(besideAfter))
        var lead = Self.shadeLead.compactMap { d in bandRow(beyond: k, of: q, at: Double(d)).flatMap { textless.medianLevel(along: $0, 0.15...0.85) } }
        guard lead.count == Self.shadeLead.count, let shade = lead.selectKth(lead.count / 2),
              shade >= Self.shadeFloor * paper else { return nil }
        let first = Double(Self.shadeLead.upperBound + 1)
        let profiles = textless.bandProfiles(beyond: k, of: q, from: first, to: Self.maximumShadeDepth * depth)
        // In each part of the row, the far edge is the strongest rise in level past the crease
        // (a slow shading across the band rises too, but over many rows), to a level that
        // stays clearly above the band's just before it; or fall, either way. Then the desk's
        // level can cross the band's along the far edge, and one part of it show no step.
        // Each side of a blurred edge at row `i` is read in three rows clear of it.
        func sides(_ profile: [Float], _ i: Int) -> (before: ArraySlice<Float>, after: ArraySlice<Float>) {
            Self.rowsBeside(i, in: profile)
        }
        func changes(_ profile: [Float]) -> [(step: Float, at: Int)] { Self.levelChanges(in: profile) }
        func strength(_ change: (step: Float, at: Int)) -> Float { eitherWay ? abs(change.step) : change.step }
        // The far edge at `rise` in this part of the row, or nil where it is none.
        func end(_ portion: ClosedRange<Double>, _ profile: [Float], _ rise: (step: Float, at: Int)) -> FarEnd? {
            guard strength(rise) >= Self.minimumFarStep else { return nil }
            // Past it lies the desk that lies beside the band: a step far beyond the band's
            // against that desk goes down to something else (a laptop past a strip of desk).
            guard abs(rise.step) <= Self.farStepRatio * besideStep else { return nil }
            let (beforePart, afterPart) = sides(profile, rise.at)
            let clear = rise.step > 0 ? (afterPart.min() ?? 0) - (beforePart.max() ?? 0) : (beforePart.min() ?? 0) - (afterPart.max() ?? 0)
            // All the way to it, the band is paper: a dark object past the page is far darker.
            guard clear >= Self.minimumFarStep, let (from, to) = bandRow(beyond: k, of: q, at: first + Double(rise.at)),
                  (profile[..<max(0, rise.at - 2)].min() ?? shade) >= Self.shadeFloor * paper else { return nil }
            let middle = (portion.lowerBound + portion.upperBound) / 2
            return FarEnd(point: from + (to - from) * middle, step: rise.step)
        }
        // In each part, the end at the strongest change, and, where the band may step either
        // way, those at the next strongest changes past it (`farEdge`).
        let parts = zip(Self.shadePortions, profiles).map { portion, profile -> FarEdgePart in
            let ranked = Self.strongestChanges(changes(profile), strength: strength)
            guard let strongest = ranked.first else { return FarEdgePart(strongest: nil, past: []) }
            let past = eitherWay ? ranked.dropFirst().filter { $0.at > strongest.at }.compactMap { end(portion, profile, $0) } : []
            return FarEdgePart(strongest: end(portion, profile, strongest), past: past)
        }
        guard let ends = Self.farEdge(parts, fewest: Self.shadePortions.count - (eitherWay ? 1 : 0)),
              let rough = Self.lineFit(ends.map { ($0.point, 1) }) else { return nil }
        // The sides meeting the crease start at its ends, but a fold may turn them there: each
        // ends where, along the far edge, the line from its crease corner steps down into the
        // band most steeply: the median step along it, which rows of print crossing a line turned
        // into the band do not move as they move the mean.
        guard let (_, farBefore, farAfter) = carried(q, past: k, to: rough) else { return nil }
        let turn = tan(Self.maximumShadeTurn)
        // Clockwise, so that each normal points into the sheet: the side before the crease
        // runs out to the far edge, which runs as the crease does, and the side after comes back.
        // A side with no step keeps its line: nothing shows where it turns.
        let cornerBefore = polarityBefore.map { polarity in
            steepestDescent(to: farBefore, along: rough, within: turn * c[k].distance(to: farBefore), polarity: polarity) { (c[k], $0) }
        } ?? farBefore
        let cornerAfter = polarityAfter.map { polarity in
            steepestDescent(to: farAfter, along: rough, within: turn * c[(k + 1) % 4].distance(to: farAfter), polarity: polarity) { ($0, c[(k + 1) % 4]) }
        } ?? farAfter
        // The whole sheet with the part in shade's far corners at these, the sides in `levelSides`
        // showing no step.
        func outline(_ cornerBefore: Point, _ cornerAfter: Point, levelSides: [Int]) -> ScoredQuad? {
            var corners = c
            corners[k] = cornerBefore
            corners[(k + 1) % 4] = cornerAfter
            let grown = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
            guard grown.isConvex, grown.signedArea > 0, inBounds(grown), grown.area <= 1.02 * Double(width * height) else { return nil }
            // Every edge of the part in shade steps down into it all along, and is backed by edges
            // that do; where the part may be lighter than the desk, each half of an edge steps one
            // way or the other, as the desk's light falls along it.
            let shaded = [(c[k], cornerBefore), (cornerBefore, cornerAfter), (cornerAfter, c[(k + 1) % 4])]
            func counts(_ pieces: [(Point, Point)], least: Float) -> (hits: Int, steps: Int)? {
                var counts = (hits: 0, steps: 0)
                for (from, to) in pieces {
                    let contrast = stepContrast(from, to, paper: false)
                    guard let polarity = polarity(contrast.mean, least: least), polarity * contrast.median >= least else { return nil }
                    let count = edgeCount(from, to, polarity: Double(polarity), threshold: Self.shadeEdgeFloor)
                    counts = (counts.hits + count.hits, counts.steps + count.steps)
                }
                return counts
            }
            var shadeCounts: [(hits: Int, steps: Int)] = []
            for (i, (a, b)) in shaded.enumerated() {
                // A side with no step backs none of the outline.
                if levelSides.contains(i) {
                    shadeCounts.append((0, Int(a.distance(to: b))))
                    continue
                }
                let middle = (a + b) * 0.5
                // The far edge is held to the step its rows were read to end at.
                let least = i == 1 ? Self.minimumFarStep : Self.minimumShadeStep
                guard let edge = counts([(a, b)], least: least) ?? (eitherWay ? counts([(a, middle), (middle, b)], least: least) : nil) else { return nil }
                shadeCounts.append(edge)
            }
            // The outline's backing: the part in light's own sides, rising inwards, with the part in
            // shade's, falling; the two sides through the crease count both their parts.
            func litCount(_ a: Point, _ b: Point) -> (hits: Int, steps: Int) {
                let step = stepContrast(a, b, paper: false).mean
                let count = edgeCount(a, b, polarity: 1, threshold: Self.edgeThreshold(forStep: abs(step), threshold))
                return (count.hits, count.steps)
            }
            func share(_ parts: (hits: Int, steps: Int)...) -> Double {
                Double(parts.map(\.hits).reduce(0, +)) / Double(max(parts.map(\.steps).reduce(0, +), 1))
            }
            let litBefore = litCount(c[(k + 3) % 4], c[k]), litAfter = litCount(c[(k + 1) % 4], c[(k + 2) % 4])
            // The part in light may lean on the frame there, which counts as it does in the search.
            let (oppositeStart, oppositeEnd) = (c[(k + 2) % 4], c[(k + 3) % 4])
            let opposite = liesOnFrame(oppositeStart, oppositeEnd) ? Self.borderSupport : share(litCount(oppositeStart, oppositeEnd))
            let supports = [share(litBefore, shadeCounts[0]), share(shadeCounts[1]), share(shadeCounts[2], litAfter), opposite]
            // A side with no step is explained only where every other side stands on its own.
            if !levelSides.isEmpty, supports.indices.contains(where: { !levelSides.contains($0) && supports[$0] < Self.levelSideBacking }) { return nil }
            let confidence = Self.confidence(supports)
            return ScoredQuad(quad: grown, confidence: confidence, isFrame: false, backing: confidence)
        }
        if let whole = outline(cornerBefore, cornerAfter, levelSides: levelSides) { return whole }
        // A side that steps beside the crease may show no step further on, where the desk's
        // light falls to the band's level along it: read over its whole length, it is level,
        // and keeps its line.
        guard levelSide, levelSides.isEmpty else { return nil }
        if abs(stepContrast(c[k], farBefore, paper: false).mean) < Self.minimumShadeStep,
           let whole = outline(farBefore, cornerAfter, levelSides: [0]) {
            return whole
        }
        if abs(stepContrast(farAfter, c[(k + 1) % 4], paper: false).mean) < Self.minimumShadeStep {
            return outline(cornerBefore, farAfter, levelSides: [2])
        }
        return nil
    }

    /// `q` with side `k`'s corners carried out along the sides meeting it to `farEdge`, and those
    /// corners; nil where the outline so grown is not convex or leaves the frame.
    func carried(_ q: Quad, past k: Int, to farEdge: Line) -> (quad: Quad, before: Point, after: Point)? {
        let sides = sidesOf(q)
        let before = Line(through: sides[(k + 3) % 4].0, sides[(k + 3) % 4].1)
        let after = Line(through: sides[(k + 1) % 4].0, sides[(k + 1) % 4].1)
        guard let farBefore = farEdge.intersection(before), let farAfter = farEdge.intersection(after) else { return nil }
        var corners = q.corners
        corners[k] = farBefore
        corners[(k + 1) % 4] = farAfter
        let grown = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        guard grown.isConvex, grown.signedArea > 0, inBounds(grown) else { return nil }
        return (grown, farBefore, farAfter)
    }

    /// Row `d` of the band past side `k` of `q`, between its neighbours carried on; nil where
    /// they meet far off (nearly parallel to side `k`) and bound no band.
    func bandRow(beyond k: Int, of q: Quad, at d: Double) -> (Point, Point)? {
        guard let (from, to) = row(beyond: k, of: q, at: d), from.distance(to: to) <= Double(width + height) else { return nil }
        return (from, to)
    }

    /// The median level along `row` over part `portion` of it; nil where it leaves the frame.
    func medianLevel(along row: (Point, Point), _ portion: ClosedRange<Double>) -> Float? {
        let (from, to) = row
        let length = from.distance(to: to)
        var values: [Float] = []
        var t = portion.lowerBound * length
        while t <= portion.upperBound * length {
            guard let value = level(at: from + (to - from) * (t / length)) else { return nil }
            values.append(value)
            t += 1
        }
        return values.selectKth(values.count / 2)
    }

    /// The level profile of the band past side `k` of `q` in each of `shadePortions` of its
    /// rows (`bandRow`), row by row from `first` out to `reach`: each row is cut once and read
    /// in every part of it, and a part's profile ends where it leaves the frame.
    func bandProfiles(beyond k: Int, of q: Quad, from first: Double, to reach: Double) -> [[Float]] {
        var profiles = [[Float]](repeating: [], count: Self.shadePortions.count)
        var open = [Bool](repeating: true, count: profiles.count)
        var d = first
        while d <= reach, open.contains(true), let row = bandRow(beyond: k, of: q, at: d) {
            for j in profiles.indices where open[j] {
                if let value = medianLevel(along: row, Self.shadePortions[j]) { profiles[j].append(value) } else { open[j] = false }
            }
            d += 1
        }
        return profiles
    }

    /// The three rows of `profile` either side of row `i`, clear of an edge blurred across it.
    static func rowsBeside(_ i: Int, in profile: [Float]) -> (before: ArraySlice<Float>, after: ArraySlice<Float>) {
        (profile[(i - 4)...(i - 2)], profile[(i + 2)...(i + 4)])
    }

    /// The change in level at each row of `profile` that has three rows clear either side
    /// (`rowsBeside`): the mean of those after less the mean of those before.
    static func levelChanges(in profile: [Float]) -> [(step: Float, at: Int)] {
        (4..<max(4, profile.count - 4)).map { i in
            let (before, after) = rowsBeside(i, in: profile)
            return (step: (after.reduce(0, +) - before.reduce(0, +)) / 3, at: i)
        }
    }

    /// A place on a band's far edge, read in one part of a row, and the level's change there.
    struct FarEnd {
        var point: Point
        var step: Float
    }

    /// The far edge's ends read in one part of the band's rows: at its strongest change (nil
    /// where that is no far edge), and at the next strongest past that.
    struct FarEdgePart {
        var strongest: FarEnd?
        var past: [FarEnd]
    }

    /// How many of the strongest changes in level along a part of the band's rows are read.
    static let farEdgeChoices = 3

    /// The strongest changes in `changes` (a level's change at each row), strongest first, at
    /// most `farEdgeChoices`, each the strongest within the rows its sides read (two rows either
    /// way), so a blurred edge offers itself once. Ties keep their rows' order.
    static func strongestChanges(_ changes: [(step: Float, at: Int)], strength: ((step: Float, at: Int)) -> Float) -> [(step: Float, at: Int)] {
        let peaks = changes.indices.filter { i in
            changes[max(0, i - 2)...min(changes.count - 1, i + 2)].allSatisfy { strength($0) <= strength(changes[i]) }
        }
        let ranked = peaks.enumerated().sorted { a, b in
            let (sa, sb) = (strength(changes[a.element]), strength(changes[b.element]))
            return sa != sb ? sa > sb : a.offset < b.offset
        }
        return ranked.prefix(farEdgeChoices).map { changes[$0.element] }
    }

    /// The band's far edge read across its parts: the ends at the strongest change in at least
    /// `fewest` parts, where they lie on a line, as a far edge does. Else, where a shadow's
    /// curved edge crosses the band before its far edge, that curve is the strongest change in
    /// some parts and the far edge the next strongest past it: then one end in each of at least
    /// `fewest` parts, the strongest or one past it, each the next strongest it can be, that lie
    /// on a line and step the same way by much the same step, as one edge all along does (a
    /// speckled desk past a page's side offers changes that line up by chance, each its own way).
    static func farEdge(_ parts: [FarEdgePart], fewest: Int) -> [FarEnd]? {
        func straight(_ ends: [FarEnd]) -> Bool {
            guard let line = lineFit(ends.map { ($0.point, 1) }) else { return false }
            return ends.allSatisfy { abs(Point.dot($0.point, line.normal) - line.rho) <= shadeEdgeStraightness }
        }
        let strongest = parts.compactMap(\.strongest)
        if strongest.count >= fewest, straight(strongest) { return strongest }
        guard parts.contains(where: { !$0.past.isEmpty }) else { return nil }
        func alike(_ ends: [FarEnd]) -> Bool {
            let steps = ends.map { abs($0.step) }
            return ends.allSatisfy { ($0.step > 0) == (ends[0].step > 0) } && (steps.max() ?? 0) <= farEdgeStepSpread * (steps.min() ?? 0)
        }
        // The most parts' ends, then those ranked highest: by how far down their parts' lists
        // the ends chosen lie.
        var best: (ends: [FarEnd], rank: Int)?
        func choose(_ part: Int, _ chosen: [FarEnd], _ rank: Int) {
            guard chosen.count + parts.count - part >= max(fewest, best?.ends.count ?? 0) else { return }
            guard part < parts.count else {
                // Here as many as the best's, or more (the guard above).
                let better = best.map { chosen.count > $0.ends.count || rank < $0.rank } ?? true
                if better, alike(chosen), straight(chosen) { best = (chosen, rank) }
                return
            }
            let choices = (parts[part].strongest.map { [$0] } ?? []) + parts[part].past
            for (i, end) in choices.enumerated() { choose(part + 1, chosen + [end], rank + i) }
            choose(part + 1, chosen, rank)
        }
        choose(0, [], 0)
        return best?.ends
    }

    /// How many times the least step along a far edge read past a shadow's curve its greatest
    /// may be.
    static let farEdgeStepSpread: Float = 2

    /// The point within `span` of `guess` along `line` where the segment `segment(point)` steps
    /// into the sheet most the way `polarity` gives (-1: down, its median step the most negative).
    func steepestDescent(to guess: Point, along line: Line, within span: Double, polarity: Float, segment: (Point) -> (Point, Point)) -> Point {
        let direction = Point(-line.sinTheta, line.cosTheta)
        var best = (step: Float.infinity, point: guess)
        var u = -span
        while u <= span {
            let p = guess + direction * u
            let (a, b) = segment(p)
            let step = -polarity * stepContrast(a, b, paper: false).median
            if step < best.step { best = (step, p) }
            u += 1
        }
        return best.point
    }
}
