import Foundation

// Choosing between the two cues: the outline backed by the longest straight edges, and the
// most quadrilateral bright region.

extension GradientField {
    /// The page outline, or the frame for a flat scan, or nil when neither cue is convincing.
    /// `textless` is the same view after a grey closing (`GradientField(_:closingRadius:)`);
    /// an edge outline backed less than `minimumConfidence` would be dropped, so it does not
    /// stand in the way of a region.
    func pageOutline(minimumAreaFraction: Double, minimumConfidence: Double, textless: GradientField) -> ScoredQuad? {
        let textlessLines = textless.outlineLines()
        let ranked = rankedQuads(minimumAreaFraction: minimumAreaFraction, extraLines: textlessLines, textless: textless)
        let edges = answer(among: ranked, minimumConfidence: minimumConfidence, textless: textless)
        let regions = paperRegions(textless.luma, minimumAreaFraction: minimumAreaFraction, compare: edges.map { [$0.quad] } ?? [])
        // A region's outline passes the same paper checks as an edge outline, and to stand alone
        // must be as well backed by edges: a side along a soft shadow or a shading boundary is no
        // page edge.
        let checkedRegions = regions.found.compactMap { verified(candidate(for: $0), textless: textless) }
        let verifiedRegions = checkedRegions.filter { $0.confidence >= Self.minimumRegionConfidence }
        if let frame = edges, frame.isFrame {
            // No outline beats the frame: a flat scan, or a page whose edges are too faint for
            // the line search (white on an off-white desk). Only a clean region lying on a
            // plain surface, clear of the frame, is taken for a page.
            return verifiedRegions.first { $0.regionFit >= Self.clearRegionFit && isNested($0.quad, in: frame.quad) }
                ?? foldedInShade(minimumAreaFraction: minimumAreaFraction, minimumConfidence: minimumConfidence, extraLines: textlessLines, textless: textless)
                ?? frame
        }
        guard var choice = Self.preferred(edges: edges, region: verifiedRegions.first, edgeFit: regions.fits.first ?? 0,
                                          minimumConfidence: minimumConfidence) else {
            return foldedInShade(minimumAreaFraction: minimumAreaFraction, minimumConfidence: minimumConfidence, extraLines: textlessLines, textless: textless)
        }
        // A page on a larger pale surface (a grey table): the surface's outline is longer and
        // its region as square, but the page is a brighter region inside it, clear of its
        // sides, on a ring of plain surface.
        while let inner = verifiedRegions.first(where: { $0.quad != choice.quad && isNested($0.quad, in: choice.quad) }) {
            choice = inner
        }
        // Under light falling off across the table, the page is no one level set apart from it:
        // its outline is found among the edge outlines within the surface's, well backed.
        if brighterWithin(choice.quad),
           let inner = bestQuad(minimumAreaFraction: minimumAreaFraction, minimumConfidence: minimumConfidence,
                                extraLines: textlessLines, textless: textless, within: choice.quad),
           !inner.isFrame, inner.confidence >= Self.laterPlaceConfidence, isNested(inner.quad, in: choice.quad) {
            choice = inner
        }
        // A crease or a shadow across a page splits it: the part in light has a clean outline
        // with the crease for a side, and the sheet round it is a region whose part beyond the
        // crease carries print as the part within does. Its sides bend at the fold, so it may
        // pass the paper checks yet be too poorly backed by straight edges to stand alone.
        if let whole = checkedRegions.first(where: {
            $0.quad != choice.quad && printContinues(from: choice.quad, into: $0.quad) && paperContinues(from: choice.quad, into: $0.quad)
        }) ?? wholeSheet(around: choice.quad, among: ranked, textless: textless) {
            choice = whole
        }
        // A crease whose part beyond lies in shade darker than the desk shows that part as a
        // dark band with edges of its own; in shade as dark as the desk it leaves no region
        // round the whole sheet, but its print shows where the page goes on. A shadow cast
        // across a page leaves its part in shade lighter than the desk in shade round it (and
        // a part turned from the light at a fold, on a desk lit unevenly, may be lighter than
        // the desk on one side and darker on the other): there the band may step either way,
        // so the page's sides must go on into it as edges, one with a paper step, unbroken, and
        // the grown outline be well backed; past a page's side, a pale table lies beyond a strip
        // where they show no such step, and a strip of desk in something's shade is the desk's
        // own level right past one of the page's corners. Right past the crease, the soft edge
        // of a shadow crossing one side slantwise may hide that side's step (`levelSide`): it
        // then backs none of the band, and the grown outline's other sides must each be well
        // backed.
        let outline = extendedOverShade(choice, minimumConfidence: minimumConfidence, textless: textless)
            ?? extendedOverShade(choice, minimumConfidence: Self.laterPlaceConfidence, eitherWay: true, levelSide: true, textless: textless)
                .flatMap { paperContinues(from: choice.quad, into: $0.quad, step: Self.minimumPaperStep, bothSides: true) ? $0 : nil }
            ?? extendedOverPrint(choice, textless: textless)
            ?? choice
        // An outline backed too poorly to keep is no page found: a part in light too small to
        // be a page alone, with a stretch of desk taken in for its fourth side, is one such.
        guard outline.confidence >= minimumConfidence else {
            return foldedInShade(minimumAreaFraction: minimumAreaFraction, minimumConfidence: minimumConfidence, extraLines: textlessLines, textless: textless)
                ?? outline
        }
        return outline
    }

    /// The lines of this view (the print wiped out) that join the search's candidates. What is
    /// left are the outlines of things: a page edge there is long but may be faint beside the
    /// short, strong edge of a black phone or a mug, so its votes count length more than
    /// contrast; and only ridges vote, so a broad ramp of shading does not stand for a sheaf
    /// of parallel lines. Votes still add up along the whole line, so one that grazes a mug's
    /// rim, a phone and a note in turn can outvote a faint side; a page's side is one unbroken
    /// edge, and the lines are taken longest unbroken edge first.
    func outlineLines() -> [Line] {
        byLongestRun(houghLines(maxLines: 64, voteCap: 1.5, thin: true), minimum: Self.runFloor)
    }

    /// The whole sheet round `part`, where one of `part`'s sides is a crease or a shade boundary
    /// across the sheet and the sheet's sides run on straight past it: there the whole sheet is
    /// an edge outline of its own, ranked below the part where the edges of its part beyond
    /// (crumpled, or in shade) back less of it. It must be well backed on its own sides (one
    /// along the frame has no edge to show: a page held close runs off it), carry print and
    /// paper on past the crease (`printContinues`, `paperContinues`) as the region round a
    /// sheet must, and its sides must go on as edges past the crease (`sidesGoOn`): a page
    /// lying on a second sheet passes the first two where the sheets' edges line up along one
    /// side. Past the end of its print a sheet is blank: there its sides must go on nearly end
    /// to end.
    func wholeSheet(around part: Quad, among ranked: [RankedCandidate], textless: GradientField) -> ScoredQuad? {
        for candidate in ranked where candidate.candidate.quad.area >= Self.wholeToPart * part.area {
            guard let whole = verified(candidate, textless: textless), whole.backing >= Self.laterPlaceConfidence,
                  surrounds(whole.quad, part), paperContinues(from: part, into: whole.quad) else { continue }
            let goOn = sidesGoOn(from: part, into: whole.quad, textless: textless)
            // Print going on past the crease is read only where it is needed.
            guard goOn.allSatisfy({ $0 >= Self.blankStretch })
                || goOn.allSatisfy({ $0 >= Self.backedStretch }) && printContinues(from: part, into: whole.quad) else { continue }
            return whole
        }
        return nil
    }

    /// The share of its length along which a sheet's side past a crease must be backed.
    static let backedStretch = 0.5
    /// The same where no print goes on past the crease (the part beyond is blank).
    static let blankStretch = 0.9

    /// How well the sheet's sides are backed where they run on past each side of `part` inside
    /// `whole` (a crease): each side meeting it, carried on to `whole`'s outline, read as a page
    /// edge (`sideSupport`). Past a crease they are the sheet's own sides; where `whole` takes in
    /// a second sheet or a strip of desk, at least one runs across what lies there.
    func sidesGoOn(from part: Quad, into whole: Quad, textless: GradientField) -> [Double] {
        let wholeSides = sideLines(whole)
        let c = part.corners
        func exit(from start: Point, along direction: Point) -> Point? {
            let reach = wholeSides.compactMap { line -> Double? in
                let towards = Point.dot(direction, line.normal)
                guard towards < -1e-9 else { return nil }
                return (Point.dot(start, line.normal) - line.rho) / -towards
            }.filter { $0 > 0 }.min()
            return reach.map { start + direction * $0 }
        }
        var supports: [Double] = []
        for k in creaseSides(of: part, in: whole) {
            let before = (c[k] - c[(k + 3) % 4]).unit, after = (c[(k + 1) % 4] - c[(k + 2) % 4]).unit
            if let end = exit(from: c[k], along: before) { supports.append(sideSupport(c[k], end, textless: textless)) }
            if let end = exit(from: c[(k + 1) % 4], along: after) { supports.append(sideSupport(end, c[(k + 1) % 4], textless: textless)) }
        }
        return supports
    }

    /// The sides of `part` that run inside `whole`, their middles at least the nesting margin
    /// from each of its sides: where a crease or a shadow's edge cuts the sheet.
    func creaseSides(of part: Quad, in whole: Quad) -> [Int] {
        let margin = nestingDistance
        let wholeSides = sideLines(whole)
        let c = part.corners
        return (0..<4).filter { k in
            let middle = (c[k] + c[(k + 1) % 4]) * 0.5
            return wholeSides.allSatisfy { Point.dot(middle, $0.normal) - $0.rho >= margin }
        }
    }

    /// A page folded with the part beyond the crease in shade, darker than the desk
    /// (`extendedOverShade`) or as dark with its print showing (`extendedOverPrint`), where its
    /// part in light alone is smaller than a page must be: the search is run again for outlines
    /// down to `smallestLitShare` of that size. Under light falling off across the desk, the
    /// part in light, dense with print, may step up from the desk beside it and yet be no
    /// brighter than the desk round it on the whole: it is taken so (`levelPaper`) only where it
    /// carries print and a part in shade darker than the desk all round goes on past its crease.
    func foldedInShade(minimumAreaFraction: Double, minimumConfidence: Double, extraLines: [Line], textless: GradientField) -> ScoredQuad? {
        let ranked = rankedQuads(minimumAreaFraction: minimumAreaFraction * Self.smallestLitShare, extraLines: extraLines, textless: textless)
        let least = minimumAreaFraction * Double(width * height)
        if let part = answer(among: ranked, minimumConfidence: minimumConfidence, textless: textless),
           !part.isFrame, part.confidence >= minimumConfidence,
           let whole = extendedOverShade(part, minimumConfidence: minimumConfidence, eitherWay: true, levelSide: true, textless: textless)
            ?? extendedOverPrint(part, textless: textless),
           whole.quad.area >= least {
            return whole
        }
        // The first places alone: past them `answer` asks more backing of an outline, and these
        // have already been let off a check.
        for candidate in ranked.prefix(Self.firstPlaces) {
            guard let part = verified(candidate, textless: textless, levelPaper: true), !part.isFrame, part.confidence >= minimumConfidence,
                  printShare(inside: part.quad, textless: textless) >= Self.printedPage,
                  let whole = extendedOverShade(part, minimumConfidence: minimumConfidence, textless: textless),
                  whole.quad.area >= least else { continue }
            return whole
        }
        return nil
    }

    /// The better of the edge outline and the best verified region (neither the frame):
    /// `edgeFit` is how well the edge outline explains the bright region.
    static func preferred(edges: ScoredQuad?, region: ScoredQuad?, edgeFit: Double, minimumConfidence: Double) -> ScoredQuad? {
        guard let region else { return edges }
        // A crumpled page may give only an edge outline too poorly backed to keep, and a clean
        // region; an outline that would be dropped does not stand in the region's way.
        guard let edges, edges.confidence >= minimumConfidence else { return region }
        // Outlines that agree are one answer, the edge outline the finer. Otherwise the region
        // wins only when it explains the bright region far better than the edge outline does,
        // and is better backed by edges (a crumpled page, whose edges bend, is read as a
        // region; a page half in shade is not half a page). Where both are backed all round,
        // the edge outline stands: a shadow cast across a page leaves its part in light a
        // clean region, but the page's own edges go on round the part in shade.
        let agree = region.quad.intersectionOverUnion(edges.quad) >= agreement
        let explainsBetter = region.regionFit > edgeFit + regionMargin
        return !agree && explainsBetter && region.confidence > edges.confidence ? region : edges
    }

    /// How well edges must back a region's outline.
    static let minimumRegionConfidence = 0.7
    /// How quadrilateral a region must be to be taken for a page where the frame beat every
    /// edge outline.
    static let clearRegionFit = 0.95
    /// Outlines this close are one answer; the edge outline is the finer of the two.
    static let agreement = 0.85
    /// How much better a region must explain the page than the edge outline to replace it.
    static let regionMargin = 0.1

    /// A verification candidate for a region's quad: its sides as lines, those along the image
    /// frame marked as the frame.
    func candidate(for region: RegionQuad) -> Candidate {
        let c = region.quad.corners
        let sides = (0..<4).map { i -> Line in
            let a = c[i], b = c[(i + 1) % 4]
            return Line(through: a, b, isBorder: liesOnFrame(a, b))
        }
        return Candidate(score: region.fit, quad: region.quad, sides: sides, regionFit: region.fit)
    }

    /// Whether the side a → b runs along one edge of the frame.
    func liesOnFrame(_ a: Point, _ b: Point) -> Bool {
        (abs(a.x) < 1.5 && abs(b.x) < 1.5) || (abs(a.y) < 1.5 && abs(b.y) < 1.5)
            || (abs(a.x - Double(width)) < 1.5 && abs(b.x - Double(width)) < 1.5)
            || (abs(a.y - Double(height)) < 1.5 && abs(b.y - Double(height)) < 1.5)
    }

    /// Whether the middle of `quad` (its central 70%) holds something brighter than the band
    /// round it by a paper step (its upper quartile: a page on a surface, covering a quarter of
    /// the middle or more), which the surface's outline was taken for; not a page, whose blank
    /// margins are paper too.
    func brighterWithin(_ quad: Quad) -> Bool {
        let c = quad.corners, centre = (c[0] + c[1] + c[2] + c[3]) * 0.25
        let middle = c.map { centre + ($0 - centre) * Self.middleShare }
        var sample = ringSample(Quad(topLeft: middle[0], topRight: middle[1], bottomRight: middle[2], bottomLeft: middle[3]), quad, stride: 3)
        guard sample.inside.count >= 50, sample.ring.count >= 50,
              let inside = sample.inside.selectKth(sample.inside.count * 3 / 4), let ring = sample.ring.selectKth(sample.ring.count / 2)
        else { return false }
        return inside - ring >= Self.minimumPaperStep
    }

    /// The share of an outline's size that `brighterWithin` takes for its middle.
    static let middleShare = 0.7

    /// Every corner of `inner` inside the quad whose sides are `outerSides`, at least `margin`
    /// from each, but for the two ends of one side of `inner`, which may lie along one of them.
    static func nestedCorners(_ inner: Quad, in outerSides: [Line], margin: Double) -> Bool {
        var touched = 0, touching = 0
        for k in 0..<4 {
            let corner = inner.corner(k)
            for j in 0..<outerSides.count {
                let depth = Point.dot(corner, outerSides[j].normal) - outerSides[j].rho
                guard depth >= -margin else { return false }
                if depth < margin {
                    touched |= 1 << j
                    touching += 1
                }
            }
        }
        return touched.nonzeroBitCount <= 1 && touching <= 2
    }

    /// `inner` lies within `outer`, clear of its sides, and the ring between them is darker
    /// than the inner page and much plainer: a surface, not the rest of a folded or shaded
    /// page, which carries print like the part inside.
    func isNested(_ inner: Quad, in outer: Quad) -> Bool {
        let margin = nestingDistance
        let outerSides = sideLines(outer)
        // Every inner corner inside `outer`, at least `margin` from each of its sides; but one
        // side of the page may lie along one of the surface's outline (the surface runs on out
        // of the frame past it, and the outline found takes the page's edge for its own).
        guard Self.nestedCorners(inner, in: outerSides, margin: margin) else { return false }
        var sample = ringSample(inner, outer, stride: 2, clearance: Self.outlineClearance)
        guard sample.inside.count >= 50, sample.ring.count >= 50,
              let inside = sample.inside.selectKth(sample.inside.count / 2), let ring = sample.ring.selectKth(sample.ring.count / 2)
        else { return false }
        let insideDensity = Double(sample.insideEdges) / Double(sample.inside.count)
        let ringDensity = Double(sample.ringEdges) / Double(sample.ring.count)
        return inside - ring >= Self.minimumPaperStep && ringDensity <= 0.5 * insideDensity
    }

    /// Whether `part` lies within `whole` (its corners at most the nesting margin outside it),
    /// which is much larger.
    func surrounds(_ whole: Quad, _ part: Quad) -> Bool {
        let margin = nestingDistance
        let sides = sideLines(whole)
        return part.corners.allSatisfy({ corner in sides.allSatisfy { Point.dot(corner, $0.normal) - $0.rho >= -margin } })
            && whole.area >= Self.wholeToPart * part.area
    }

    /// `part` lies within `whole` (`surrounds`), and the rest of `whole` carries print as
    /// densely as `part` does (at least half as many edge pixels) on a part with print.
    func printContinues(from part: Quad, into whole: Quad) -> Bool {
        guard surrounds(whole, part) else { return false }
        // Print is counted clear of both outlines: their own edges (a crease, a page's side with
        // desk beyond it, the edge of what lies round it) would pass for print in a narrow ring.
        let sample = ringSample(part, whole, stride: 2, clearance: Self.outlineClearance)
        guard sample.inside.count >= 50, sample.ring.count >= 50 else { return false }
        let within = Double(sample.insideEdges) / Double(sample.inside.count)
        let beyond = Double(sample.ringEdges) / Double(sample.ring.count)
        return within >= Self.printedShare && beyond >= 0.5 * within
    }

    /// Whether the sheet goes on past each side of `part` that runs inside `whole` (a crease or
    /// a shadow's edge across one sheet): a side meeting it keeps its step, unbroken, just past
    /// it. A second sheet beside a page, printed as it is, makes a region round both, but
    /// between them lies a strip of what they lie on, and there the page's sides show no step.
    /// A step counts from `least` grey levels. With `bothSides`, each side meeting it must also
    /// show an edge at most of those points, a step of `minimumShadeStep` either way (the
    /// desk's light may fall either side of a sheet's part in shade): a sheet's sides go on
    /// past a crease, but beside a strip of desk in something's shade, the desk goes on past
    /// the page's corner at the strip's own level. (A shadow's soft edge crossing a side
    /// slantwise hides its step over the penumbra, so the second need not be unbroken.)
    func paperContinues(from part: Quad, into whole: Quad, step least: Float = minimumShadeStep, bothSides: Bool = false) -> Bool {
        creaseSides(of: part, in: whole).allSatisfy { sheetGoesOn(past: $0, of: part, step: least, bothSides: bothSides) }
    }

    /// Whether the sheet goes on past some side of `part` that runs inside `whole`: then `part`
    /// is a part of a sheet that `whole` takes in (the print above a figure, the part in light
    /// above a shadow's edge), not a small page lying within it beside a strip of desk.
    func isPartOfSheet(_ part: Quad, within whole: Quad) -> Bool {
        creaseSides(of: part, in: whole).contains { sheetGoesOn(past: $0, of: part) }
    }

    /// Whether the sheet goes on past side `k` of `part` (`paperContinues`, for one side).
    func sheetGoesOn(past k: Int, of part: Quad, step least: Float = minimumShadeStep, bothSides: Bool = false) -> Bool {
        let c = part.corners
        // The side before carried on past its end, and the side after carried back past its
        // start; each with its own normal, into the part.
        let before = (c[k] - c[(k + 3) % 4]).unit, after = (c[(k + 2) % 4] - c[(k + 1) % 4]).unit
        let steps = [stepsPast(c[k], along: before, inward: Point(-before.y, before.x)),
                     stepsPast(c[(k + 1) % 4], along: after * -1, inward: Point(-after.y, after.x))]
        // One alone may be noise: two running missed (or out of the frame) break the step.
        func kept(_ step: Float?) -> Bool { step.map { $0 >= least } ?? false }
        func unbroken(_ side: [Float?]) -> Bool { !zip(side, side.dropFirst()).contains { !kept($0) && !kept($1) } }
        func mostly(_ side: [Float?]) -> Bool { 2 * side.filter { abs($0 ?? 0) >= Self.minimumShadeStep }.count > side.count }
        return steps.contains(where: unbroken) && (!bothSides || steps.allSatisfy(mostly))
    }

    /// The step across the edge through `start`, paper on its `inward` hand, at the points
    /// `gapDepths` pixels along `direction` (nil where it leaves the frame).
    func stepsPast(_ start: Point, along direction: Point, inward: Point) -> [Float?] {
        Self.gapDepths.map { d in
            let p = start + direction * Double(d)
            var inside: Float = 0, outside: Float = 0, count: Float = 0
            for depth in 3...7 {
                guard let i = level(at: p + inward * Double(depth)), let o = level(at: p - inward * Double(depth)) else { continue }
                inside += i
                outside += o
                count += 1
            }
            return count > 0 ? (inside - outside) / count : nil
        }
    }

    /// How far past a crease, in pixels, `paperContinues` reads the sides' steps: clear of the
    /// crease's blur, across the narrowest strip of desk between two sheets.
    static let gapDepths = 2...12

    /// The gradient an unbroken edge needs in the textless view: half the first view's noise
    /// floor (`edgeThreshold`), as the closing and smoothing leave less noise, and a run must
    /// also point one way across its line all along, which noise does not.
    static let runFloor: Float = 1.5

    /// Working pixels either side of an outline that its own edge covers (the smoothing and
    /// the gradient spread a step over about this much).
    static let outlineClearance = 4.0

    /// How much larger than the part in light a whole page split by a crease must be.
    static let wholeToPart = 1.25
    /// The share of a page's pixels on edges above which it carries print.
    static let printedShare = 0.03

    /// How far, as a share of the image's long side, a page must lie inside a surface's outline.
    static let nestingMargin = 0.02
    /// `nestingMargin` in working pixels.
    var nestingDistance: Double { Self.nestingMargin * Double(max(width, height)) }
}

extension Line {
    /// The line through `a` and `b`, its normal pointing to the right of a → b (into a
    /// clockwise quad).
    init(through a: Point, _ b: Point, isBorder: Bool = false) {
        let d = (b - a).unit
        let normal = Point(-d.y, d.x)
        let theta = atan2(normal.y, normal.x)
        self.init(theta: theta, rho: Point.dot(a, normal), isBorder: isBorder)
    }
}
