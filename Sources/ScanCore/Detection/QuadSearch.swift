import Foundation

extension GradientField {
    /// Text lines and clutter make many strong lines; the page's own edges must still be among
    /// the candidates.
    static let candidatesPerOrientation = 18
    /// Lines within this angle of the diagonal are candidates for either orientation.
    static let diagonalBand = 15 * Double.pi / 180
    /// At most this many lines of each orientation join from the textless view: a phone, a
    /// note and a mug on the desk each leave two or more there, besides the page's own sides.
    static let extraCandidatesPerOrientation = 8

    /// `extraLines` (from the textless view) join the candidates where they are new; where
    /// `textless` is given, a side's step must also be there. Outlines backed less than
    /// `minimumConfidence` would be dropped by the caller.
    /// With `within`, only outlines nested in it count (`nestedCorners`).
    func bestQuad(minimumAreaFraction: Double, minimumConfidence: Double, extraLines: [Line] = [], textless: GradientField? = nil,
                  within outer: Quad? = nil) -> ScoredQuad? {
        answer(among: rankedQuads(minimumAreaFraction: minimumAreaFraction, extraLines: extraLines, textless: textless, within: outer),
               minimumConfidence: minimumConfidence, textless: textless)
    }

    /// The outlines `bestQuad` chooses among, best-scored first. `exhaustive` measures every
    /// side of every quad, where the search drops a quad once it cannot win (the same ranking).
    func rankedQuads(minimumAreaFraction: Double, extraLines: [Line] = [], textless: GradientField? = nil,
                     within outer: Quad? = nil, exhaustive: Bool = false) -> [RankedCandidate] {
        let lines = houghLines(maxLines: 64)
        let w = Double(width), h = Double(height)
        // A page turned near 45° can have a pair of opposite sides on either side of the
        // diagonal (perspective spreads them apart), so a line near the diagonal serves as either.
        func leansHorizontal(_ line: Line) -> Bool { abs(line.theta - .pi / 2) < .pi / 4 + Self.diagonalBand }
        func leansVertical(_ line: Line) -> Bool { abs(line.theta - .pi / 2) > .pi / 4 - Self.diagonalBand }
        var horizontal = Array(lines.filter(leansHorizontal).prefix(Self.candidatesPerOrientation))
        var vertical = Array(lines.filter(leansVertical).prefix(Self.candidatesPerOrientation))
        let limit = Self.extraCandidatesPerOrientation
        horizontal += admitted(extraLines.filter(leansHorizontal), besides: horizontal, textless: textless, limit: limit)
        vertical += admitted(extraLines.filter(leansVertical), besides: vertical, textless: textless, limit: limit)
        horizontal.append(Line(theta: .pi / 2, rho: 0.5, isBorder: true))
        horizontal.append(Line(theta: .pi / 2, rho: h - 0.5, isBorder: true))
        vertical.append(Line(theta: 0, rho: 0.5, isBorder: true))
        vertical.append(Line(theta: 0, rho: w - 0.5, isBorder: true))

        let imageArea = w * h
        let outerSides = outer.map(sideLines) ?? [], nestingDistance = nestingDistance
        let nh = horizontal.count, nv = vertical.count
        // Everything that depends on one line or one pair is computed once: the corners (each
        // horizontal cut by each vertical) and where each line crosses the middle, for order.
        var corners = [Point?](repeating: nil, count: nh * nv)
        for a in 0..<nh { for c in 0..<nv { corners[a * nv + c] = horizontal[a].intersection(vertical[c]) } }
        // A corner far outside the frame rules out every quad it is in (`inBounds`).
        let usable = corners.map { $0.map(inBounds) ?? false }
        // How far each line leans from horizontal (0) to vertical (1). Four lines near the
        // diagonal make the same quad twice, with top and left swapped; only the labelling whose
        // top and bottom lean less than its left and right is kept, as it always is away from it.
        let horizontalLean = horizontal.map { abs($0.cosTheta) }, verticalLean = vertical.map { abs($0.cosTheta) }
        let midX = w / 2, midY = h / 2
        let yMid = horizontal.map { ($0.rho - midX * $0.cosTheta) / max($0.sinTheta, 1e-6) }
        let xMid = vertical.map { ($0.rho - midY * $0.sinTheta) / (abs($0.cosTheta) > 1e-6 ? $0.cosTheta : 1e-6) }
        // A side is one line cut by two of the other orientation, run one way or the other;
        // many quads share it, so its support is cached (NaN: not yet computed; negative: the
        // support of a side darker inside than out, `side`'s sign).
        var horizontalSides = [Double](repeating: .nan, count: nh * nv * nv * 2)
        var verticalSides = [Double](repeating: .nan, count: nv * nh * nh * 2)
        func side(_ line: Line, _ from: Point, _ to: Point, _ cache: inout [Double], _ key: Int) -> Double {
            if line.isBorder { return Self.borderSupport }
            let cached = cache[key]
            if !cached.isNaN { return cached }
            let value = sideSupport(from, to, textless: textless)
            cache[key] = value
            return value
        }

        let perimeter = 2 * (w + h)
        var ranked: [Candidate] = [], bled: [Candidate] = []
        for a in 0..<nh {
            for b in (a + 1)..<nh {
                let (top, bottom) = yMid[a] < yMid[b] ? (a, b) : (b, a)
                for c in 0..<nv {
                    for d in (c + 1)..<nv {
                        guard horizontalLean[a] + horizontalLean[b] < verticalLean[c] + verticalLean[d] else { continue }
                        let (left, right) = xMid[c] < xMid[d] ? (c, d) : (d, c)
                        guard usable[top * nv + left], usable[top * nv + right], usable[bottom * nv + right], usable[bottom * nv + left],
                              let tl = corners[top * nv + left], let tr = corners[top * nv + right],
                              let br = corners[bottom * nv + right], let bl = corners[bottom * nv + left] else { continue }
                        let quad = Quad(topLeft: tl, topRight: tr, bottomRight: br, bottomLeft: bl)
                        if !outerSides.isEmpty, !Self.nestedCorners(quad, in: outerSides, margin: nestingDistance) { continue }
                        // Lines that cross inside the frame give a quad turned inside out (negative
                        // area), its sides' "inside" outside it.
                        let area = quad.signedArea / imageArea
                        guard area >= minimumAreaFraction, area <= 1.02, quad.isConvex else { continue }
                        // A quad leaning on two sides of the frame that meet would crop the
                        // image with the evidence of two sides; the whole frame means "flat
                        // scan". On two opposite sides it is a page running off the frame at
                        // both ends (held close, or larger than the view), its own two sides
                        // whole from edge to edge.
                        let horizontalBorders = (horizontal[a].isBorder ? 1 : 0) + (horizontal[b].isBorder ? 1 : 0)
                        let verticalBorders = (vertical[c].isBorder ? 1 : 0) + (vertical[d].isBorder ? 1 : 0)
                        let borders = horizontalBorders + verticalBorders
                        guard borders <= 1 || borders == 4 || horizontalBorders == 2 && verticalBorders == 0 || verticalBorders == 2 && horizontalBorders == 0 else { continue }
                        // Sides run clockwise (top, right, bottom, left), so "inside" is on the
                        // normal's side; bottom and left run against their cache key's order.
                        let lengths = SIMD4(tl.distance(to: tr), tr.distance(to: br), br.distance(to: bl), bl.distance(to: tl))
                        // A side adds at most its length to the score and an unbacked one takes it
                        // away, so once the ranking is full, a quad that cannot beat its last entry
                        // even with its remaining sides fully backed is dropped before they are
                        // measured. The ranking is the same as measuring every side.
                        let bar = ranked.count == Self.rankedCandidates ? ranked[ranked.count - 1].score * perimeter - 1e-9 : -Double.infinity
                        let dropBelow = exhaustive ? -Double.infinity : bar
                        var bound = lengths[0] + lengths[1] + lengths[2] + lengths[3]
                        guard bound > dropBelow else { continue }
                        // Each side's line and cache key, and whether it costs nothing to read:
                        // along the frame, or already measured for another quad.
                        let keys = SIMD4(((top * nv + c) * nv + d) * 2, ((right * nh + a) * nh + b) * 2,
                                         ((bottom * nv + c) * nv + d) * 2 + 1, ((left * nh + a) * nh + b) * 2 + 1)
                        let quadLines = (horizontal[top], vertical[right], horizontal[bottom], vertical[left])
                        func measured(_ k: Int) -> Bool {
                            switch k {
                            case 0: quadLines.0.isBorder || !horizontalSides[keys[0]].isNaN
                            case 1: quadLines.1.isBorder || !verticalSides[keys[1]].isNaN
                            case 2: quadLines.2.isBorder || !horizontalSides[keys[2]].isNaN
                            default: quadLines.3.isBorder || !verticalSides[keys[3]].isNaN
                            }
                        }
                        // A page is paper along most of its outline, but one side may run along
                        // a photo bled off it, darker inside than out. Such a side counts only
                        // for the outline's place among `bled`, a ranking of its own, so its
                        // near-copies (one with each line beside it) cannot push the page out
                        // where that side is shade on it. A dark figure's own outline is darker
                        // inside all round: a second such side counts for nothing.
                        var supports = SIMD4<Double>(repeating: 0)
                        // Each side's support where it is darker inside; the most one of them can
                        // add back to the bled ranking's score.
                        var darker = SIMD4<Double>(repeating: 0)
                        var addBack = 0.0
                        var beaten = false
                        // Sides already measured go first: they lower the bound at no cost, so a quad
                        // that cannot win is dropped before its other sides are measured. (The
                        // bound holds in any order, so the ranking is the same.)
                        sides: for pass in 0..<2 {
                            for k in 0..<4 where measured(k) == (pass == 0) {
                                let signed = switch k {
                                case 0: side(quadLines.0, tl, tr, &horizontalSides, keys[0])
                                case 1: side(quadLines.1, tr, br, &verticalSides, keys[1])
                                case 2: side(quadLines.2, br, bl, &horizontalSides, keys[2])
                                default: side(quadLines.3, bl, tl, &verticalSides, keys[3])
                                }
                                if signed < 0 {
                                    darker[k] = -signed
                                    addBack = max(addBack, 2 * darker[k] * lengths[k])
                                }
                                supports[k] = max(signed, 0)
                                bound -= 2 * (1 - supports[k]) * lengths[k]
                                if bound + addBack <= dropBelow { beaten = true; break sides }
                            }
                        }
                        if beaten { continue }
                        let bledSide = (0..<4).first { darker[$0] > 0 }.map { (index: $0, support: darker[$0]) }
                        let sides = [quadLines.0, quadLines.1, quadLines.2, quadLines.3]
                        let score = Self.score(supports: supports, lengths: lengths, perimeter: perimeter)
                        if ranked.count < Self.rankedCandidates || score > ranked[ranked.count - 1].score {
                            Self.rank(Candidate(score: score, quad: quad, sides: sides), into: &ranked, keeping: Self.rankedCandidates)
                        }
                        if let bledSide {
                            supports[bledSide.index] = bledSide.support
                            let bledScore = Self.score(supports: supports, lengths: lengths, perimeter: perimeter)
                            if bledScore * perimeter > bar {
                                Self.rank(Candidate(score: bledScore, quad: quad, sides: sides), into: &bled, keeping: Self.bledCandidates)
                            }
                        }
                    }
                }
            }
        }
        // Checked best-scored first, each in its place: an outline with a bled side is an extra
        // reading, kept only where well backed (as from the later places) and where its refined
        // outline still has a side clearly darker inside, which the paper checks have judged.
        var merged = ranked.enumerated().map { RankedCandidate(candidate: $1, place: $0, bled: false) }
        for (place, candidate) in bled.enumerated() {
            let at = merged.firstIndex { $0.candidate.score < candidate.score } ?? merged.count
            merged.insert(RankedCandidate(candidate: candidate, place: Self.firstPlaces + place, bled: true), at: at)
        }
        return merged
    }

    /// The answer among `ranked` (`answer(scores:places:minimumConfidence:verify:)`).
    func answer(among ranked: [RankedCandidate], minimumConfidence: Double, textless: GradientField?) -> ScoredQuad? {
        Self.answer(scores: ranked.map(\.candidate.score), places: ranked.map(\.place), minimumConfidence: minimumConfidence) {
            verified(ranked[$0], textless: textless)
        }
    }

    /// `ranked`, checked for paper and refined (`verified`); an outline with a bled side is
    /// kept only where its refined outline still has a side clearly darker inside.
    func verified(_ ranked: RankedCandidate, textless: GradientField?, heldUp: Bool = false, darkerAllRound: Bool = false,
                  levelPaper: Bool = false) -> ScoredQuad? {
        guard let outline = verified(ranked.candidate, textless: textless, heldUp: heldUp, darkerAllRound: darkerAllRound, levelPaper: levelPaper) else { return nil }
        guard ranked.bled else { return outline }
        return sidesOf(outline.quad).contains { stepContrast($0.0, $0.1, paper: false).mean <= -Self.minimumStep } ? outline : nil
    }

    /// How well the side from → to of a clockwise outline is backed as a page edge, 0–1;
    /// negative for a side read darker inside than out (`bestQuad`'s bled outlines).
    ///
    /// A page edge is a step: the paper a few pixels inside is brighter than what lies a few
    /// pixels outside, along most of the side (a mug or a note over part of it takes the step
    /// there, not the side's median). A ruled line or a table border is dark on white on both
    /// sides and gets no support, however straight it is. Nor does the edge of a row of print
    /// (paper above, ink below): with the print wiped out the step is gone, while a page's own
    /// edge stays, though not always whole: the wiping lifts a speckled desk towards the top of
    /// its speckle, so a faint edge keeps only part of its step, and a pen or cable lying
    /// beside it adds to its step only until it is wiped out. A third, or half the paper step,
    /// is enough; a row of print keeps next to none. (A strip of desk narrower than the
    /// closing's square between the page and the frame is wiped out with the print: a side that
    /// close to the frame keeps its step.) On a desk as bright as the paper, the thin shadow a
    /// page casts past its edge may be all that shows of it; the wiping fills that as it fills
    /// print, but no print lies past it, and the desk beyond is the paper's level: such a side
    /// is backed on its first-view step. A photo printed to the page's edge (bled off a
    /// magazine page) makes that side darker inside than out: it is read the other way round,
    /// and its support returned negated.
    func sideSupport(_ from: Point, _ to: Point, textless: GradientField?) -> Double {
        guard let reading = meanStep(from, to, medianBeyond: Self.faintestStep) else { return 0 }
        let sign: Float = reading.darkerInside ? -1 : 1, step = sign * reading.mean
        guard !reading.darkerInside || step >= Self.darkerInsideStep else { return 0 }
        let wiped = sign * (hugsFrame(from, to) ? reading.mean : textless?.stepContrast(from, to, paper: false).mean ?? reading.mean)
        if Self.stepSurvivesWiping(step: step, wiped: wiped) {
            return Double(sign) * support(from, to, polarity: Double(sign), threshold: Self.edgeThreshold(forStep: min(step, wiped), threshold))
        }
        if !reading.darkerInside, let textless, farPaperStep(from, to) < Self.minimumPaperStep,
           clearOfPrint(along: from, to, within: 3...7, textless: textless) {
            return support(from, to, polarity: 1, threshold: Self.edgeThreshold(forStep: step, threshold))
        }
        return 0
    }

    /// Inserts `entry` into `ranking` (best first), keeping at most `count`.
    static func rank(_ entry: Candidate, into ranking: inout [Candidate], keeping count: Int) {
        let at = ranking.firstIndex { $0.score < entry.score } ?? ranking.count
        guard at < count else { return }
        ranking.insert(entry, at: at)
        if ranking.count > count { ranking.removeLast() }
    }

    /// The first `limit` of `extra` (lines from the textless view, best first) that are not
    /// already among `known`: one within a few pixels of it wherever it crosses the frame is
    /// the same edge; one a little further off stands for it only where an edge at least half
    /// as long shows along it in `textless`. A row of print beside a faint page side (a heading
    /// under the top edge) is strong in the first view and gone without the print. A known line
    /// a few degrees askew stands for it too, unless it runs unbroken along `askewSideRun` of
    /// the frame, as a page's side does: a pen lying over a faint side pulls its first-view line
    /// askew, and that line parts from the side across the page; a short edge askew of a known
    /// line is more likely the corner of a block of print (a title box on a slide).
    func admitted(_ extra: [Line], besides known: [Line], textless: GradientField?, limit: Int) -> [Line] {
        let size = Double(max(width, height))
        let sameEdge = size * 0.005 + 2, nearby = size * 0.02 + 3
        var added: [Line] = []
        for line in extra where added.count < limit {
            let all = known + added
            guard !all.contains(where: { alongside($0, line, within: sameEdge) }) else { continue }
            let near = all.filter { Self.similar($0.theta, $0.rho, line.theta, line.rho, nearby) }
            if !near.isEmpty {
                guard let textless else { continue }
                let run = textless.longestRun(along: line, minimum: Self.runFloor)
                guard near.allSatisfy({ Self.parallel($0, line) }) || Double(run) >= Self.askewSideRun * size else { continue }
                guard !near.contains(where: { 2 * textless.longestRun(along: $0, minimum: Self.runFloor) >= run }) else { continue }
            }
            added.append(line)
        }
        return added
    }

    /// Whether `line` stays within `distance` of `known` wherever it crosses the frame, turned
    /// from it by under 5°. (Lines a few degrees apart with the same ρ part by 10 px or more
    /// across the frame: a pen over a faint side pulls its first-view line so far off.)
    func alongside(_ known: Line, _ line: Line, within distance: Double) -> Bool {
        guard known.angle(to: line) < 5 * .pi / 180, let (p, q) = frameCrossings(line) else { return false }
        return [p, q].allSatisfy { abs($0.x * known.cosTheta + $0.y * known.sinTheta - known.rho) < distance }
    }

    /// Where `line` enters and leaves the frame; nil where it misses it.
    func frameCrossings(_ line: Line) -> (Point, Point)? {
        guard let (low, high) = frameSpan(of: line) else { return nil }
        let along = Point(-line.sinTheta, line.cosTheta), foot = line.normal * line.rho
        return (foot + along * low, foot + along * high)
    }

    /// Whether the side a → b runs along one edge of the frame, so close that the strip of
    /// what lies beyond it is narrower than the closing's square: wiped out with the print,
    /// its step tells nothing there.
    func hugsFrame(_ a: Point, _ b: Point) -> Bool {
        let reach = Self.frameStrip * Double(max(width, height))
        let w = Double(width), h = Double(height)
        return (a.x < reach && b.x < reach) || (a.y < reach && b.y < reach)
            || (a.x > w - reach && b.x > w - reach) || (a.y > h - reach && b.y > h - reach)
    }

    /// Whether a side of `q` of its own (not along the frame: `sides` are its lines, in
    /// order) hugs the frame.
    func ownSideHugsFrame(_ q: Quad, sides: [Line]) -> Bool {
        sidesOf(q).enumerated().contains { i, side in !sides[i].isBorder && hugsFrame(side.0, side.1) }
    }

    /// The share of the long side within which a side hugs the frame: the closing's square.
    static let frameStrip = 2 * closingShare

    /// The unbroken run, as a share of the frame's long side, by which an extra line beside a
    /// known one a few degrees askew of it is a page side of its own.
    static let askewSideRun = 0.2

    /// Lines at most one Hough bin (1°) apart in direction.
    static func parallel(_ a: Line, _ b: Line) -> Bool {
        a.angle(to: b) <= 1.5 * .pi / Double(thetaBins)
    }

    /// The answer among the ranked outlines (`scores`, best first; `verify` checks one for
    /// paper and refines it, nil when it fails): the best-scored that passes, unless a later
    /// one scores more once weighed by how well its refined sides are backed. The score reads
    /// each side along its Hough line, a degree and a pixel coarse, so near-tied outlines (a
    /// page edge and a parallel edge beside it) can swap places on a turn of the photo; the
    /// weighing settles those ties on the real edges. Only outlines well enough backed to keep
    /// take part: where the best-scored one is the frame (a flat scan), it is the answer; where
    /// it is too weak to keep (print on a flat scan makes such outlines, and so does a pen taken
    /// for a faint page's side), only a well-backed outline (`laterPlaceConfidence`) may take
    /// its place, else it is the answer, to be dropped. Below the first places, only a
    /// well-backed outline is kept (`laterPlaceConfidence`). Nil when none passes.
    static func answer(scores: [Double], places: [Int]? = nil, minimumConfidence: Double, verify: (Int) -> ScoredQuad?) -> ScoredQuad? {
        var best: (value: Double, outline: ScoredQuad)?
        for (index, score) in scores.enumerated() {
            let place = places?[index] ?? index
            // Backing is at most 1: once a score cannot beat the leader's value, no later one can.
            if let leader = best, max(score, 0) <= leader.value { break }
            guard let outline = verify(index) else { continue }
            // Past the first places, the best-scored were all refused: the weaker an outline's
            // place, the likelier it passes the paper checks by chance (a block of light print
            // on a dark slide), so there it must be well backed too.
            if place >= Self.firstPlaces, !outline.isFrame, outline.confidence < Self.laterPlaceConfidence { continue }
            let value = score * outline.backing
            guard let leader = best else {
                if outline.isFrame { return outline }
                best = (value, outline)
                continue
            }
            // A leader too weak to keep gives way only to a well-backed outline.
            let needed = leader.outline.confidence < minimumConfidence ? Self.laterPlaceConfidence : minimumConfidence
            if !outline.isFrame, outline.confidence >= needed, value > leader.value { best = (value, outline) }
        }
        return best?.outline
    }

    /// A candidate in `rankedQuads`' order, with its place among its own kind: plain outlines
    /// from 0, those with a bled side from `firstPlaces`.
    struct RankedCandidate {
        var candidate: Candidate
        var place: Int
        var bled: Bool
    }

    struct Candidate {
        var score: Double
        var quad: Quad
        var sides: [Line]
        /// For a candidate read from a bright region, how well the quad explains it.
        var regionFit: Double = 0
    }

    /// The gradient that counts as an edge along a side with a brightness step of `step`: the
    /// image's edge threshold, set by its print, or less where the step itself is faint (a
    /// white page on an off-white desk), as the smoothed Sobel of a step peaks at ~3/8 of it;
    /// never below the gradient noise reaches.
    static func edgeThreshold(forStep step: Float, _ threshold: Float) -> Float {
        max(edgeFloor, min(threshold, step * 0.25))
    }

    /// The gradient that noise in the working copy reaches.
    static let edgeFloor: Float = 3
    /// The faintest step by which the search reads a side (the median along it): the one whose
    /// smoothed gradient peaks, at 3/8 of the step, at the noise floor. A fainter step backs no
    /// edge pixel; one this faint backs about half, so a white page on an off-white desk is
    /// backed where its sides run clear of pens and shade. (The paper checks still ask a
    /// paper step of the outline found.)
    static let faintestStep: Float = edgeFloor * 8 / 3

    /// The faintest step by which the search reads a side darker inside than out: a photo bled
    /// off the page is dark, and fainter such steps are mostly the far edges of shade and desk.
    static let darkerInsideStep: Float = 2 * minimumStep
    /// How many outlines with a side backed that way are ranked.
    static let bledCandidates = 2

    /// Whether a side's step `step` keeps enough of itself, `wiped`, with the print wiped out
    /// to be a page edge, not the edge of a row of print (see `bestQuad`).
    static func stepSurvivesWiping(step: Float, wiped: Float) -> Bool {
        wiped >= min(minimumPaperStep / 2, step / 3)
    }

    /// How many of the best-scored outlines are checked for paper before giving up. One wrong
    /// side (the ragged end of the print, a pen beside the edge) makes a near-copy of its
    /// outline with each top or bottom line and can fill the first places, each refused in
    /// turn; the page's own outline comes further down. Only refusals reach the later places.
    static let rankedCandidates = 12
    /// Outlines ranked below this many must reach `laterPlaceConfidence` to be kept.
    static let firstPlaces = 6
    /// The confidence an outline needs to be kept from below the first places (1: fully backed).
    static let laterPlaceConfidence = 0.8

    /// Edge-backed length of the outline less its unbacked length, over the image perimeter.
    /// Counting length, not each side's backed share, lets a whole page beat the half below a
    /// fold: the crease is a straight step backed end to end, but the page's own outline is
    /// longer. An unbacked stretch costs as much as a backed one gains, so a large outline
    /// drawn through clutter still loses, and so does one leaning on the frame where the page
    /// itself is in view.
    static func score(supports: SIMD4<Double>, lengths: SIMD4<Double>, perimeter: Double) -> Double {
        var balance = 0.0
        for i in 0..<4 { balance += (2 * supports[i] - 1) * lengths[i] }
        return balance / perimeter
    }
}
