import Foundation

extension GradientField {
    /// Refines a candidate and applies the checks that are too costly for the search; nil
    /// when it fails them. `textless` is the same view with the print wiped out. `heldUp`
    /// judges it as a page held up in a hand (`heldUpReading`): a stretch of a side under
    /// something held over it is left out of that side's backing (`occludedSteps`), unless the
    /// outline leans on the frame, a page held square to the camera is not taken for a
    /// printed box where it steps down to what lies beyond one of its sides, and the hand may
    /// lie over its paper as bright as the wall. `darkerAllRound` judges it as a page held up
    /// darker than everything round it: every side must step up into what lies beyond, its
    /// paper too, and the checks that read paper brighter than its surround give way to the
    /// caller's (`heldUpReading`). `levelPaper` skips the check that its inside is brighter than
    /// the ring round it, for the part in light of a folded page under light falling off
    /// across the desk (`foldedInShade`, which asks for more).
    func verified(_ candidate: Candidate, textless: GradientField? = nil, heldUp: Bool = false, darkerAllRound: Bool = false,
                  levelPaper: Bool = false) -> ScoredQuad? {
        let isFrame = candidate.sides.allSatisfy(\.isBorder)
        if isFrame { return ScoredQuad(quad: candidate.quad, confidence: 1, isFrame: true) }
        let refined = refine(candidate.quad, sides: candidate.sides, polarity: 1)
        let refinedSides = sidesOf(refined)
        // Running off the frame at both ends, a page shows only its two own sides, and each must
        // stand clear of the frame: along it the strip beyond is too narrow to read what the
        // page lies on, and a flat scan's paper reaches across the frame with the scanner's
        // dark lid showing past its torn ends. So little outline leaves a strip of wall or a
        // door between two edges looking the same, and the page must carry print, as they do not.
        let borders = candidate.sides.filter(\.isBorder).count
        if borders == 2 {
            guard let textless, !ownSideHugsFrame(refined, sides: candidate.sides),
                  printShare(inside: refined, textless: textless) >= Self.printedPage else { return nil }
        }
        // Cut by the frame, a page has a side fewer to back it, and a blank quad cut so (a
        // window pane, a door) is nothing to read: there some print must show.
        if borders == 1, let textless, printShare(inside: refined, textless: textless) < Self.leastPrint { return nil }
        // The winner's sides must each have paper inside and something darker than paper
        // outside; a region of a flat scan bounded by text or rules has the same paper on both.
        let contrasts = refinedSides.map { stepContrast($0.0, $0.1) }
        // A side mostly against a light source has the page darker than what lies outside, and
        // is judged by that step. A page has paper brighter than what it lies on along most of
        // its outline: a dark figure on a white flat scan is darker than its surround all round.
        let lit = contrasts.map { $0.lit >= 0.5 }
        if darkerAllRound ? !lit.allSatisfy({ $0 }) : lit.filter({ $0 }).count > Self.maximumLitSides { return nil }
        // Darker than all round it, a page is so in its paper, not only on the whole: a block
        // of print on a flat scan is darker than the paper round it until its print is wiped
        // out. (Against what lies beyond at the light's level, a step is read the other way.)
        if darkerAllRound {
            guard let textless, refinedSides.allSatisfy({ side in
                let step = textless.stepContrast(side.0, side.1, paper: false)
                return step.lit >= 0.5 && step.median >= Self.minimumPaperStep
            }) else { return nil }
        }
        // A page's sides end at its corners, along a light as anywhere. Where the sides meeting
        // an unlit side are both against something brighter and either runs on past it, still
        // darker inside than out, the outline has cut a dark figure printed on white paper short
        // (a photo on a flat scan's page, bled off it): that side is an edge within the figure.
        // (A page held up beside a dark board whose edge lies on its side's line steps the other
        // way past the corner: board below, wall above.)
        if (0..<4).contains(where: { k in
            !lit[k] && !candidate.sides[k].isBorder && lit[(k + 3) % 4] && lit[(k + 1) % 4] && sidesRunOn(past: k, of: refined, step: .light)
        }) { return nil }
        let paperSteps = contrasts.indices.map { lit[$0] ? contrasts[$0].mean : contrasts[$0].paper }
        let paperless = paperSteps.indices.filter { !candidate.sides[$0].isBorder && paperSteps[$0] < Self.minimumPaperStep }
        // A side that shows paper only with a note beside it left out (`stepContrast`) stands
        // only where every other side shows paper on its own: one excuse, not two.
        let excusedSides = contrasts.indices.filter { k in
            !lit[k] && contrasts[k].paper >= Self.minimumPaperStep && contrasts[k].unexcused < Self.minimumPaperStep
        }
        if !excusedSides.isEmpty && excusedSides.count + paperless.count > 1 { return nil }
        // Leaning on the frame, a quad has less evidence, and every other side must pass.
        let leansOnFrame = candidate.sides.contains(where: \.isBorder)
        if paperless.count >= (leansOnFrame ? 1 : Self.maximumPaperlessSides) { return nil }
        // A side may show no step (a white page on a white desk), but one clearly darker inside
        // than out, with no light beyond it, runs along print or shade seen from the paper round
        // it: the sides meeting it run on past it with the sheet (a dark thing lying past a
        // corner steps down from the desk there, and is not the sheet), or paper lies past it.
        // Else it is the page's edge with a figure printed up to it (a photo bled off a
        // magazine page), and what lies past it is the desk, however speckled. (On a desk as
        // light as paper, such a page is refused too: there the rest of a page in shade looks
        // the same.)
        if paperless.contains(where: { k in
            !lit[k] && contrasts[k].mean <= -Self.minimumStep
                && (sidesRunOn(past: k, of: refined, step: .paper) || textless.map {
                    $0.paperLies(beyond: k, of: refined, within: 3...15, paperSides: (0..<4).filter { !paperless.contains($0) && !candidate.sides[$0].isBorder })
                } ?? true)
        }) { return nil }
        // Refining can pull a side the search found unbacked onto the edge of a block of print
        // nearby (blurred to grey in the working copy, so even its brightest is darker than the
        // paper beside it). A page's own edge keeps its step with the print wiped out, unless
        // it shows only as a soft shadow on a desk as bright as the paper, a dip the closing
        // fills as it fills print: a side whose step vanishes is refused only with print past it.
        if let textless, refinedSides.indices.contains(where: { i in
            !candidate.sides[i].isBorder && !lit[i] && paperSteps[i] >= Self.minimumPaperStep && !hugsFrame(refinedSides[i].0, refinedSides[i].1)
                && textless.stepContrast(refinedSides[i].0, refinedSides[i].1, paper: false).mean < Self.vanishedStep
                && printLies(beyond: i, of: refined, within: 3...7, textless: textless)
        }) { return nil }
        let unlitOwnSides = refinedSides.indices.filter { !candidate.sides[$0].isBorder && !lit[$0] }
        // A region of a flat scan can pass every step above: bounded by the scanner's dark lid
        // on one side (the frame, or its dark edge hugging the frame along two sides) and rows
        // of print (a bold heading) on the others. Beyond a row of print lies paper again;
        // beyond a page's own edge, what it lies on goes on.
        let huggingSides = refinedSides.filter { hugsFrame($0.0, $0.1) }.count
        if leansOnFrame || huggingSides >= 2,
           unlitOwnSides.contains(where: { farPaperStep(refinedSides[$0].0, refinedSides[$0].1) < Self.minimumPaperStep }) { return nil }
        if leansOnFrame {
            // Nor does print run on past a page's own edge: there the sheet goes on (a flat scan
            // turned on its side, its lit part cut off by a shading boundary across the print;
            // a folded page's crease), or across every side it lies past (a region of a flat
            // scan's print). Fine edges past more than one side, the sheet's blank margin inside
            // some of them, are what the page lies on: a speckled desk. Past one side alone, they
            // are print only where they fill the band's depth: a cable or a pen lying there is
            // one thin stroke.
            if let textless {
                let printPast = unlitOwnSides.filter { printLies(beyond: $0, of: refined, within: 3...15, textless: textless) }
                if let side = printPast.first, printPast.count == 1 {
                    if printFills(beyond: side, of: refined, within: 3...15, textless: textless) { return nil }
                } else if !printPast.isEmpty && printPast.allSatisfy({ printLies(beyond: $0, of: refined, within: -15...(-3), textless: textless) }) {
                    return nil
                }
            }
            // A page cut by the frame runs on out of the photo: the sides that meet the frame
            // keep their step up to it. Where every one of them dies out short of the frame, the
            // page ends there, and the frame stands in for a side too faint to have been found.
            // (One alone can fade under a shadow or a hand.)
            let meeting = unlitOwnSides.compactMap { i -> (step: Float, whole: Float)? in
                let (a, b) = refinedSides[i], end = Self.frameEndShare
                let startsOnFrame = candidate.sides[(i + 3) % 4].isBorder, endsOnFrame = candidate.sides[(i + 1) % 4].isBorder
                guard startsOnFrame || endsOnFrame else { return nil }
                let (from, to) = startsOnFrame ? (a, a + (b - a) * end) : (b + (a - b) * end, b)
                return (stepContrast(from, to, paper: false).mean, contrasts[i].mean)
            }
            if !meeting.isEmpty, meeting.allSatisfy({ $0.step < 0.5 * $0.whole }) { return nil }
            // Nor does a part of a page too small to be a page alone reach the frame by taking
            // it for a side: a page cut by the frame brings its paper to it, so the strip along
            // the frame between the side's ends is not what lies along it beyond them. Running
            // off the frame at both ends, a page spans the frame between its sides, and its
            // sides along the frame may pass at either end alone (`paperReachesFrame`).
            if candidate.sides.indices.contains(where: { i in
                candidate.sides[i].isBorder
                    && !paperReachesFrame(refinedSides[i].0, refinedSides[i].1, view: textless ?? self, atEitherEnd: borders == 2)
            }) { return nil }
        }
        // Most of a page is paper, brighter than the ring of what it lies on (light sources left
        // out). Under uneven light (the page in shade, the desk in sun) only the steps along its
        // sides can show it, and a page standing out along every side, and clearly on the
        // whole, needs no more; one with a side against a light must pass the ring test, which
        // a dark figure on a white flat scan does not.
        // A side against a light shows the page darker than it; one with no step at all may be
        // a clipped page against a clipped desk, in an over-exposed photo (`clippedEnd`).
        let againstLight = contrasts.contains { $0.lit > 0 }
        let hasLitSide = lit.indices.contains { i in
            lit[i] && !(paperless.contains(i) && clippedEnd(i, of: refined, textless: textless))
        }
        // Darker than all round it, a page leaves no ring once what is brighter than it is
        // left out: only its share at the light's level is read, against the whole ring.
        let levels = interior(refined, excludingLight: againstLight && !darkerAllRound)
        let ownSides = paperSteps.indices.filter { !candidate.sides[$0].isBorder }
        let meanStep = ownSides.map { paperSteps[$0] }.reduce(0, +) / Float(max(ownSides.count, 1))
        let clearAllRound = !hasLitSide && paperless.isEmpty && meanStep >= 2 * Self.minimumPaperStep
        if hasLitSide && levels == nil { return nil }
        // A page against a light is lit less than the light: almost none of it reaches the
        // light's level. White paper on a flat scan is as bright as a window, and a block of
        // print on it, darker on the whole, still shows that white between its letters.
        // Held up, the page may have the hand holding it over it, as bright as the wall beyond.
        // There the share is read with the print wiped out, where a block of print on white
        // paper is at the light's level all over and a page keeps only the hand; and the paper
        // must be smooth, as a page's is, not an outline taking in a framed picture or a door.
        if hasLitSide, let levels, levels.lightInside > Self.maximumLightInside {
            guard heldUp, let textless, let wiped = textless.interior(refined, excludingLight: againstLight),
                  wiped.lightInside <= Self.heldOverShare, textless.wipedEdgeShare(inside: refined) < Self.smoothPaper else { return nil }
        }
        // (Against a light, the ring left is too little of what the page lies on to tell a
        // figure printed on it by: the dark ground of a slide on a white flat scan.)
        if let levels, !(levels.showsPaper || (!againstLight && levels.showsFigure)), !clearAllRound, !darkerAllRound, !levelPaper { return nil }
        // A small outline square to the frame may be a printed box: judged below, by its sides'
        // backing too.
        let squareBox = Self.axisAlignedSides(candidate.quad, toleranceDegrees: Self.squareTolerance) >= 3
            && refined.area < Self.printedBoxAreaFraction * Double(width * height)
        // `support` reads the other polarity where a light source lies outside; a side against
        // something brighter than the page that does not reach that level (a sunlit desk beside
        // a page in shade) is backed by it too. The paper checks above have already ruled out
        // a block of print. Each side is also judged on its part in view alone (`backing`): a
        // page cut by the frame has no edge to show beyond it.
        let counts = refinedSides.enumerated().map { i, side -> (all: Double, inView: Double?) in
            if candidate.sides[i].isBorder { return (Self.borderSupport, nil) }
            // An outline leaning on the frame has less evidence, and none of it is excused.
            var occluded = 0
            if heldUp, !leansOnFrame, let levels, let textless {
                occluded = textless.occludedSteps(side.0, side.1, paper: levels.inside)
            }
            let backing = sideBacking(side.0, side.1, step: contrasts[i].mean, occluded: occluded)
            return (backing.whole, backing.inView)
        }
        let supports = counts.map(\.all), ownSupports = counts.compactMap(\.inView)
        // A small outline square to the frame is a box printed on a flat scan (a slide's title,
        // a table, a figure), a true rectangle; a page photographed that square mostly fills
        // more of the frame. One that does not still shows the camera's tilt, a pair of its
        // sides converging, and each side is backed along most of its length; an outline that
        // takes in a printed box and a row of print below it converges too, but its sides run
        // on unbacked between them.
        // Held up before a room, a page may be brighter than what lies beyond one of its sides;
        // a box printed on a flat scan's white paper is darker than that paper all round.
        let brighterThanBeyond = unlitOwnSides.contains { paperSteps[$0] >= Self.minimumPaperStep }
        if squareBox, !(heldUp && brighterThanBeyond),
           Self.convergence(refined) < Self.printedBoxConvergence || supports.min() ?? 0 < Self.laterPlaceConfidence { return nil }
        // The checks above judge the sides' overall lines; the corners lie where their ends meet.
        let cornered = cornersFromEnds(refined, borders: candidate.sides.map(\.isBorder), polarity: 1)
        // A light source outside is brighter than paper too, and not part of the page.
        let quad = levels.map { extendedCorners(cornered, page: $0.inside, ground: $0.outside, excludingLight: againstLight, textless: textless) } ?? cornered
        // Leaning on the frame, a side that steps from paper to the desk along part of its
        // length and shows no step along much of the rest has strayed off the page (onto a
        // second sheet beside it, running out of the frame). A curled page's side bows in from
        // its chord, over the desk in its middle; one clear of the frame may.
        if leansOnFrame, let textless,
           (0..<4).contains(where: { !candidate.sides[$0].isBorder && textless.strays($0, of: quad) }) { return nil }
        return ScoredQuad(quad: quad, confidence: Self.confidence(supports), isFrame: false, regionFit: candidate.regionFit,
                          backing: Self.confidence(ownSupports))
    }

    /// Whether side `k` of `q`, with light-level brightness and no step across it, is where a
    /// clipped page ends against a clipped desk: no print just inside or past it (else it is
    /// the edge of a block of print on a flat scan's white paper), and the sides meeting it end
    /// there too (else it is a line across the paper).
    func clippedEnd(_ k: Int, of q: Quad, textless: GradientField?) -> Bool {
        guard let textless, !sidesRunOn(past: k, of: q) else { return false }
        return !printLies(beyond: k, of: q, within: -10...(-3), textless: textless)
            && !printLies(beyond: k, of: q, within: 3...15, textless: textless)
    }

    /// What a step past a corner must be for a side to run on past it (`sidesRunOn`).
    enum RunOnStep {
        /// Any step inwards, whichever side of it is a light.
        case any
        /// The sheet's: inside it, something brighter by a step than what the page lies on
        /// beside that side's nearest quarter (`paperRunsOn`).
        case paper
        /// A side against a light's: darker inside than out by a step.
        case light
    }

    /// Whether either side meeting side `k` of `q` keeps its step past the corner where they
    /// meet (over a quarter of its length), a step as `step` asks: then the page goes on past
    /// side `k`. With `inShade`, a step of a share of the side's own counts too (`shadeShare`):
    /// a shadow cast across the page dims paper and desk alike past it, and so the step between
    /// them.
    func sidesRunOn(past k: Int, of q: Quad, inShade: Bool = false, step kind: RunOnStep = .any) -> Bool {
        let c = q.corners
        // Whether the side from `start` to `end` keeps its step past `end` (`pastEnd`) or before
        // `start`, measured the way it runs, so that its inside stays on the same hand.
        func runsOn(_ start: Point, _ end: Point, pastEnd: Bool) -> Bool {
            let length = start.distance(to: end)
            guard length >= 8 else { return false }
            let d = (end - start) * (1 / length)
            let (a, b) = pastEnd ? (end + d * 3, end + d * (0.25 * length)) : (start - d * (0.25 * length), start - d * 3)
            let dimmed = inShade ? max(Self.minimumPaperStep, Self.shadeShare * stepContrast(start, end, paper: false).median) : .infinity
            guard stepContrast(a, b, paper: false).median >= min(Self.minimumStep, dimmed) else { return false }
            switch kind {
            case .any:
                return true
            case .paper:
                return paperRunsOn(start, end, past: (a, b), pastEnd: pastEnd)
            case .light:
                guard let inside = bandLevel(a, b, depths: 3...7, over: 0...1), let outside = bandLevel(a, b, depths: -7...(-3), over: 0...1) else { return true }
                return outside - inside >= Self.minimumStep
            }
        }
        return runsOn(c[(k + 3) % 4], c[k], pastEnd: true) || runsOn(c[(k + 1) % 4], c[(k + 2) % 4], pastEnd: false)
    }

    /// Whether what lies inside the stretch `past` that carries side `start` → `end` on past
    /// its end (`pastEnd`) or its start is brighter by a step than what lies outside the side's
    /// quarter nearest it, the surface the page lies on there: the sheet goes on. Something dark
    /// lying past a corner steps down from that surface too, with only the surface inside.
    private func paperRunsOn(_ start: Point, _ end: Point, past: (Point, Point), pastEnd: Bool) -> Bool {
        guard let inside = bandLevel(past.0, past.1, depths: 3...7, over: 0...1),
              let beside = bandLevel(start, end, depths: -7...(-3), over: pastEnd ? 0.75...1 : 0...0.25) else { return true }
        return inside - beside >= Self.minimumStep
    }

    /// 0–1 from the refined sides' edge support: half their mean, half the weakest, so one
    /// unbacked side is not hidden by three strong ones; 0.8 and up counts as fully backed.
    static func confidence(_ supports: [Double]) -> Double {
        guard let weakest = supports.min() else { return 0 }
        let mean = supports.reduce(0, +) / Double(supports.count)
        return min(1, (mean * 0.5 + weakest * 0.5) / 0.8)
    }

    /// The confidence reported for `outline`: its backing, times `runOnShare` for each side
    /// past which the sides meeting it run on (such a side may cut a page at a crease, a
    /// shadow's edge or a rule across it, and outlines with one are less often the whole page),
    /// times the backing of its weakest side as it now lies (`weakestSideBacking`), and, where
    /// `textless` is given, times its print (`printShare`) as a share of `fullyPrinted`: a pale
    /// door, a window pane or a blank sheet holds little or nothing to read.
    func reportedConfidence(_ outline: ScoredQuad, textless: GradientField? = nil) -> Double {
        reportedConfidence(outline, printShare: textless.map { printShare(inside: outline.quad, textless: $0) })
    }

    /// `reportedConfidence`, given the outline's `printShare` where it has been read (nil: not
    /// weighed).
    func reportedConfidence(_ outline: ScoredQuad, printShare print: Double?) -> Double {
        let cut = (0..<4).filter { sidesRunOn(past: $0, of: outline.quad, inShade: true) }.count
        let printed = print.map { 0.5 + 0.5 * min(1, $0 / Self.fullyPrinted) } ?? 1
        return outline.confidence * pow(Self.runOnShare, Double(cut)) * printed * weakestSideBacking(outline.quad)
    }

    /// The backing of the weakest of `q`'s own sides (those on the frame left out): the share of
    /// its part in view crossed by an edge rising inwards, or falling where a light lies beyond,
    /// at the threshold its own step sets, as the checks read a side. They read the outline as
    /// found; its corners may have moved since (to where sides end, past a curl, over a crease),
    /// and a side left running over the desk makes the whole outline doubtful, however well
    /// its other sides are backed.
    func weakestSideBacking(_ q: Quad) -> Double {
        let c = q.corners
        return (0..<4).reduce(1.0) { weakest, k in
            let (a, b) = (c[k], c[(k + 1) % 4])
            guard !liesOnFrame(a, b) else { return weakest }
            return min(weakest, sideBacking(a, b, step: stepContrast(a, b).mean).inView)
        }
    }

    /// The share of side `a`–`b` crossed by an edge rising inwards, or falling where a light
    /// lies beyond (whichever crosses more of it), at the threshold its step across it sets:
    /// over its whole length, and over its part in view, less `occluded` steps under something
    /// held over it in each (`occludedSteps`).
    func sideBacking(_ a: Point, _ b: Point, step: Float, occluded: Int = 0) -> (whole: Double, inView: Double) {
        let edge = Self.edgeThreshold(forStep: abs(step), threshold)
        let rising = edgeCount(a, b, polarity: 1, threshold: edge), falling = edgeCount(a, b, polarity: -1, threshold: edge)
        let hits = Double(max(rising.hits, falling.hits))
        return (min(1, hits / Double(max(rising.steps - occluded, 1))), min(1, hits / Double(max(rising.inView - occluded, 1))))
    }

    /// What each side with the page's sides running on past it leaves of the confidence.
    static let runOnShare = 0.9
    /// The share of a side's step that it keeps past a shadow's edge across the page, at least:
    /// a shadow takes a half to two thirds of the light.
    static let shadeShare: Float = 1.0 / 3

    /// Degrees from the image axes within which a side counts as square to the frame.
    static let squareTolerance = 1.5
    /// Below this share of the frame, an outline square to it may be a printed box.
    static let printedBoxAreaFraction = 0.35

    /// Degrees by which a pair of opposite sides must converge for an outline square to the
    /// frame to be a page photographed, not a box printed on a flat scan.
    static let printedBoxConvergence = 1.0

    /// The larger angle, in degrees, between the quad's opposite sides.
    static func convergence(_ q: Quad) -> Double {
        let lines = [(q.topLeft, q.topRight), (q.topRight, q.bottomRight), (q.bottomRight, q.bottomLeft), (q.bottomLeft, q.topLeft)]
            .map { Line(through: $0.0, $0.1) }
        return max(lines[0].angle(to: lines[2]), lines[1].angle(to: lines[3])) * 180 / .pi
    }

    /// How many of the quad's sides run within `toleranceDegrees` of the image axes.
    static func axisAlignedSides(_ q: Quad, toleranceDegrees: Double) -> Int {
        let c = q.corners
        return (0..<4).filter { i in
            let d = c[(i + 1) % 4] - c[i]
            let angle = abs(atan2(d.y, d.x)) * 180 / .pi  // 0…180
            let offAxis = min(angle.truncatingRemainder(dividingBy: 90), 90 - angle.truncatingRemainder(dividingBy: 90))
            return offAxis <= toleranceDegrees
        }.count
    }

    /// The surround a page is compared with: its outline scaled by this about its centre.
    static let surroundScale = 1.3
    /// Grey levels by which the median inside a page must exceed the median outside it.
    static let minimumInteriorStep: Float = 3

    /// Median brightness inside the quad and in a ring round it (without what is brighter than
    /// paper, `brighterThanPaper`, when `excludingLight`), the share of the inside as bright as
    /// the light beyond its sides (`lightBeyond`), and the
    /// inside's upper and lower quartiles, on a sparse grid; nil when a page that fills the
    /// frame leaves too little outside to compare with.
    func interior(_ q: Quad, excludingLight: Bool = false) -> Interior? {
        // What the page lies on is what lies round it: under uneven light, the far side of the
        // desk may be brighter than the page and the near side darker.
        let centre = (q.topLeft + q.topRight + q.bottomRight + q.bottomLeft) * 0.25
        let grown = q.corners.map { centre + ($0 - centre) * Self.surroundScale }
        let surround = Quad(topLeft: grown[0], topRight: grown[1], bottomRight: grown[2], bottomLeft: grown[3])
        var sample = ringSample(q, surround, stride: 3, excludingLight: excludingLight)
        let count = sample.inside.count
        guard sample.ring.count >= 50, let insideMedian = sample.inside.selectKth(count / 2),
              let paper = sample.inside.selectKth(count * 3 / 4), let print = sample.inside.selectKth(count / 4),
              let outsideMedian = sample.ring.selectKth(sample.ring.count / 2) else { return nil }
        let lit = sample.inside.reduce(0) { $0 + ($1 >= lightBeyond ? 1 : 0) }
        return Interior(inside: insideMedian, outside: outsideMedian, lightInside: Double(lit) / Double(count), paper: paper, print: print)
    }

    /// Brightness, and how many edge pixels, on a grid of every `stride`th pixel inside `inner`
    /// and in the ring between it and `outer` (what is brighter than paper left out of the ring
    /// when `excludingLight`), leaving out those within `clearance` pixels of either outline.
    func ringSample(_ inner: Quad, _ outer: Quad, stride step: Int, excludingLight: Bool = false, clearance: Double = 0)
        -> (inside: [Float], ring: [Float], insideEdges: Int, ringEdges: Int) {
        var inside: [Float] = [], ring: [Float] = []
        var insideEdges = 0, ringEdges = 0
        inside.reserveCapacity(width * height / (step * step))
        ring.reserveCapacity(width * height / (step * step))
        let innerSides = clearance > 0 ? sideLines(inner) : []
        let outerSides = clearance > 0 ? sideLines(outer) : []
        // The least of the distances to a quad's sides' lines (positive inside) is, inside it,
        // the distance to its outline and, outside, at most that far out.
        func depth(_ p: Point, _ sides: [Line]) -> Double { sides.reduce(.infinity) { min($0, Point.dot(p, $1.normal) - $1.rho) } }
        for y in stride(from: 1, to: height, by: step) {
            for x in stride(from: 1, to: width, by: step) {
                let i = y * width + x
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                if clearance > 0, abs(depth(p, innerSides)) < clearance || abs(depth(p, outerSides)) < clearance { continue }
                let edge = magnitude[i] >= threshold ? 1 : 0
                if inner.contains(p) {
                    inside.append(luma[i])
                    insideEdges += edge
                } else if outer.contains(p), !excludingLight || luma[i] < brighterThanPaper {
                    ring.append(luma[i])
                    ringEdges += edge
                }
            }
        }
        return (inside, ring, insideEdges, ringEdges)
    }

    /// Corners may sit a little outside the frame (a page cut by the photo's edge).
    func inBounds(_ q: Quad) -> Bool {
        (0..<4).allSatisfy { inBounds(q.corner($0)) }
    }

    /// Whether a corner lies in the frame or at most 8 % of it outside.
    func inBounds(_ c: Point) -> Bool {
        let mx = Double(width) * 0.08, my = Double(height) * 0.08
        let w = Double(width), h = Double(height)
        return c.x >= -mx && c.x <= w + mx && c.y >= -my && c.y <= h + my
    }

    /// Sides in the order top, right, bottom, left, as point pairs.
    func sidesOf(_ q: Quad) -> [(Point, Point)] {
        [(q.topLeft, q.topRight), (q.topRight, q.bottomRight), (q.bottomRight, q.bottomLeft), (q.bottomLeft, q.topLeft)]
    }

    /// The lines of `q`'s sides in `sidesOf`'s order, each normal pointing into `q` (clockwise).
    func sideLines(_ q: Quad) -> [Line] {
        sidesOf(q).map { Line(through: $0.0, $0.1) }
    }

    // Paper is brighter than what it lies on: every side must have brightness rising inwards.
    // The other polarity is what a block of text on a white page shows (dark inside, white
    // margin outside), and taking it would crop a flat scan to its text.

    /// Grey levels by which the inside of a side must be brighter than its outside.
    static let minimumStep: Float = 10

    /// Grey levels by which paper inside a side must be brighter than the brightest of what
    /// lies outside. Beside a column of text on a flat scan the outside is the same paper, and
    /// this is near 0; a desk, even a light one, stays below the paper's white.
    static let minimumPaperStep: Float = 6
    /// Grey levels under which a step is gone: within the noise of the working copy. (Dark
    /// texture on a desk, wiped out with the print, can take most of a faint page edge's step
    /// but leaves some.)
    static let vanishedStep: Float = 1
    /// The share of a side, at its end on the frame, that must keep its step there.
    static let frameEndShare = 0.2
    /// A page whose this many sides fail the paper step is taken for a region of a flat scan
    /// (one, when it leans on the frame).
    static let maximumPaperlessSides = 2
    /// At most this many sides of a page may lie against a light source.
    static let maximumLitSides = 3
    /// Share of a page against a light that may be as bright as the light: a few spots of
    /// glare, where white paper on a flat scan shows that brightness between all its letters.
    static let maximumLightInside = 0.02
    /// Share of a page held up that the hand holding it may cover.
    static let heldOverShare = 0.25

    /// Brightness 3–7 px inside a side against 3–7 px outside, over its middle 80 %: the
    /// difference of the means, and of the 90th percentiles (paper against the brightest of
    /// the outside). Where a light source lies outside, the page is the darker side and the
    /// difference is taken the other way; `lit` is the share of the side where it does, and
    /// the percentiles are read where it does not. `median` is the middle of the steps at each
    /// point along the side: a mug, a note or a hand over part of it does not move that. Nor
    /// does one thing brighter than paper beside a stretch of the side move `paper` (see
    /// `bandContrast`); `unexcused` is that step with it counted.
    /// `paper: false` skips the percentiles (the search calls this for thousands of sides).
    func stepContrast(_ a: Point, _ b: Point, paper: Bool = true) -> (mean: Float, paper: Float, lit: Float, median: Float, unexcused: Float) {
        guard let c = bandContrast(a, b, paper: paper, depths: 3...7, outsideShift: 0) else { return (0, 0, 0, 0, 0) }
        return (c.mean, c.paperSamples > 0 ? c.paper : 0, c.lit, c.median, c.paperSamples > 0 ? c.unexcused : 0)
    }

    /// `stepContrast`'s mean where its median is at least `least` either way, and whether that
    /// way is darker inside; else nil. Most sides the search measures are no page edge; reading
    /// stops once more than half their points fall short both ways.
    func meanStep(_ a: Point, _ b: Point, medianBeyond least: Float) -> (mean: Float, darkerInside: Bool)? {
        guard let c = bandContrast(a, b, paper: false, depths: 3...7, outsideShift: 0, medianBeyond: least),
              abs(c.median) >= least else { return nil }
        return (c.mean, c.median < 0)
    }

    /// Whether paper comes up to the frame along side a → b, which runs along it: the strip
    /// just inside the frame between the side's ends (`view`'s, the print wiped out) differs
    /// by a paper step from the strip along the same edge of the frame beyond them, what the
    /// page lies on, and so does its part next to each end from what lies just past that end.
    /// Far along the frame the desk may be lit otherwise (a band of shade across it), and a
    /// strip of desk taken in for a page's part cut off by the frame then steps from it as a
    /// page would; next to the ends, the desk is lit as the strip is. True where too little of
    /// that edge lies beyond the side to tell (an end too near the frame's corner is not read),
    /// or both are clipped white.
    ///
    /// With `atEitherEnd` (a page running off the frame at both ends), the side may pass at one
    /// of its ends instead: there the paper next to it against what lies just past it. The side
    /// spans the page, and the strips beyond it, as long again, reach far across the frame,
    /// where light falls off: the desk there may be lit as brightly as the paper, though it
    /// steps from it next to the page's corner.
    func paperReachesFrame(_ a: Point, _ b: Point, view: GradientField, atEitherEnd: Bool = false) -> Bool {
        let length = a.distance(to: b)
        guard length >= 8 else { return true }
        let along = (b - a) * (1 / length), inward = Point(-along.y, along.x)
        func strip(from: Double, to: Double) -> [Float] {
            var values: [Float] = []
            var t = from
            while t <= to {
                for depth in Self.frameStripDepths {
                    if let value = view.level(at: a + along * t + inward * Double(depth)) { values.append(value) }
                }
                t += 1
            }
            return values
        }
        let enough = 4 * Self.frameStripDepths.count
        // The middle of each strip, and whether it tells the paper from what lies beyond: not
        // where either is too short, or both are clipped white (an over-exposed page on a light
        // desk).
        func paperAndGround(_ inside: [Float], _ outside: [Float]) -> (paper: Float, ground: Float)? {
            var inside = inside, outside = outside
            guard inside.count >= enough, outside.count >= enough,
                  let paper = inside.selectKth(inside.count / 2), let ground = outside.selectKth(outside.count / 2),
                  min(paper, ground) < Self.lightLevel else { return nil }
            return (paper, ground)
        }
        let between = strip(from: 0.1 * length, to: 0.9 * length)
        let beyond = strip(from: -length, to: -3) + strip(from: length + 3, to: 2 * length)
        guard let whole = paperAndGround(between, beyond) else { return true }
        let reach = Self.frameEndReach * length
        let ends = [paperAndGround(strip(from: 0.1 * length, to: 0.1 * length + reach), strip(from: -reach, to: -3)),
                    paperAndGround(strip(from: 0.9 * length - reach, to: 0.9 * length), strip(from: length + 3, to: length + reach))]
        func steps(_ strips: (paper: Float, ground: Float)) -> Bool { abs(strips.paper - strips.ground) >= Self.minimumPaperStep }
        if steps(whole) { return atEitherEnd || ends.allSatisfy { $0.map(steps) ?? true } }
        guard atEitherEnd else { return false }
        return ends.contains { $0.map(steps) ?? false }
    }

    /// How far along the frame past each end of a side on it, as a share of the side,
    /// `paperReachesFrame` reads what lies there next to the page's corner.
    static let frameEndReach = 0.25

    /// How far inside the frame `paperReachesFrame` reads its strips, in working pixels.
    static let frameStripDepths = 2...5

    /// The paper step across a side a little further out: paper 3–9 px inside against what
    /// lies 10–16 px outside; infinite where too little of that lies in the frame.
    func farPaperStep(_ a: Point, _ b: Point) -> Float {
        guard let c = bandContrast(a, b, paper: true, depths: 3...9, outsideShift: 7) else { return .infinity }
        return c.paperSamples >= Self.contrastSamples ? c.paper : .infinity
    }

    /// Points along a side at which `bandContrast` compares its two sides.
    static let contrastSamples = 24
    /// The most of a side's points that one thing brighter than paper beside it may cover for
    /// its paper step to be read past it.
    static let brighterBeyondShare = 1.0 / 3

    /// `stepContrast` over bands `depths` px inside and `depths + outsideShift` px outside; nil
    /// once the median step can reach `least` neither way.
    private func bandContrast(_ a: Point, _ b: Point, paper: Bool, depths: ClosedRange<Int>, outsideShift: Int,
                              medianBeyond least: Float = -.infinity)
        -> (mean: Float, paper: Float, lit: Float, paperSamples: Int, median: Float, unexcused: Float)? {
        let length = a.distance(to: b)
        guard length >= 4 else { return (0, 0, 0, 0, 0, 0) }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = -dy, ny = dx
        var inside: [Float] = [], outside: [Float] = []
        // The paper samples at points where something brighter than the paper lies outside (a
        // note beside a page's side), how many points those are of all, and in how many runs.
        var brighterBeyond: (inside: [Float], outside: [Float], points: Int, runs: Int) = ([], [], 0, 0)
        var paperPoints = 0, lastBrighter = false
        // Points whose step falls short of `least` upwards, and downwards.
        var sum: Float = 0, count: Float = 0, litSamples = 0, shortUp = 0, shortDown = 0
        let samples = Self.contrastSamples
        // Each point's own step, for the median along the side.
        var steps: [Float] = []
        steps.reserveCapacity(samples)
        if paper {
            inside.reserveCapacity(samples * depths.count)
            outside.reserveCapacity(samples * depths.count)
        }
        // The search's hottest loops (with `support`): read through buffers, every index
        // being checked against the frame just above.
        let width = self.width, height = self.height
        let reached = luma.withUnsafeBufferPointer { luma in
            light.withUnsafeBufferPointer { light in
                for k in 0..<samples {
                    let t = length * (0.1 + 0.8 * Double(k) / Double(samples - 1))
                    let px = a.x + dx * t, py = a.y + dy * t
                    let sign = Float(edgePolarity(light, px, py, nx, ny))
                    if sign < 0 { litSamples += 1 }
                    var pointSum: Float = 0, pointCount: Float = 0
                    let mark = inside.count
                    for step in depths {
                        let d = Double(step), e = Double(step + outsideShift)
                        let xi = Int((px + nx * d).rounded(.down)), yi = Int((py + ny * d).rounded(.down))
                        let xo = Int((px - nx * e).rounded(.down)), yo = Int((py - ny * e).rounded(.down))
                        guard xi >= 0, yi >= 0, xi < width, yi < height, xo >= 0, yo >= 0, xo < width, yo < height else { continue }
                        let i = luma[yi * width + xi], o = luma[yo * width + xo]
                        pointSum += sign * (i - o)
                        pointCount += 1
                        if paper && sign > 0 {
                            inside.append(i)
                            outside.append(o)
                        }
                    }
                    if paper && sign > 0 && pointCount > 0 {
                        paperPoints += 1
                        let brighter = pointSum / pointCount <= -Self.minimumStep
                        if brighter && !lastBrighter { brighterBeyond.runs += 1 }
                        lastBrighter = brighter
                        if brighter {
                            brighterBeyond.inside += inside[mark...]
                            brighterBeyond.outside += outside[mark...]
                            brighterBeyond.points += 1
                            inside.removeSubrange(mark...)
                            outside.removeSubrange(mark...)
                        }
                    }
                    if pointCount > 0 {
                        steps.append(pointSum / pointCount)
                        sum += pointSum
                        count += pointCount
                        if pointSum / pointCount < least { shortUp += 1 }
                        if pointSum / pointCount > -least { shortDown += 1 }
                    }
                    // The median is the element at index n / 2 of the n steps sorted: it falls
                    // short once more than n / 2 do, n being at most those read and those left.
                    let most = (steps.count + samples - 1 - k) / 2
                    if shortUp > most && shortDown > most { return false }
                }
                return true
            }
        }
        guard reached else { return nil }
        guard count > 0 else { return (0, 0, 0, 0, 0, 0) }
        let mean = sum / count, lit = Float(litSamples) / Float(samples)
        let median = steps.selectKth(steps.count / 2) ?? 0
        guard paper, !inside.isEmpty || !brighterBeyond.inside.isEmpty else { return (mean, 0, lit, 0, median, 0) }
        // The 90th percentiles, selected in place: the search reads thousands of sides.
        func step(_ inside: [Float], _ outside: [Float]) -> Float {
            var inside = inside, outside = outside
            let p90 = min(inside.count - 1, inside.count * 9 / 10)
            return (inside.selectKth(p90) ?? 0) - (outside.selectKth(p90) ?? 0)
        }
        let total = inside.count + brighterBeyond.inside.count
        let unexcused = step(inside + brighterBeyond.inside, outside + brighterBeyond.outside)
        // The paper step is read where the side has paper against what the page lies on: one
        // thing brighter than paper lying beside a stretch of it (a note) is left out, where the
        // same paper runs on inside along that stretch; bright patches here and there (a
        // picture the side runs through) are not. A flat scan's paper is the brightest thing on
        // it: there this leaves nothing out.
        guard brighterBeyond.runs == 1, !inside.isEmpty,
              Double(brighterBeyond.points) <= Self.brighterBeyondShare * Double(paperPoints),
              let besideNote = brighterBeyond.inside.selectKth(brighterBeyond.inside.count / 2),
              let elsewhere = inside.selectKth(inside.count / 2),
              abs(besideNote - elsewhere) < Self.minimumStep else { return (mean, unexcused, lit, total, median, unexcused) }
        return (mean, step(inside, outside), lit, total, median, unexcused)
    }
}

/// Brightness inside a quad and in a ring round it (`GradientField.interior`).
struct Interior {
    /// Medians inside and in the ring.
    var inside: Float
    var outside: Float
    /// The share of the inside as bright as the light beyond its sides.
    var lightInside: Double
    /// The inside's upper and lower quartiles.
    var paper: Float
    var print: Float

    /// Whether the inside reads as a page on what lies round it: mostly paper brighter than
    /// that.
    var showsPaper: Bool { inside - outside >= GradientField.minimumInteriorStep }

    /// Whether it reads as a page with a photo or a chart printed over most of it: its paper
    /// brighter than what lies round it (the margins alone are over a quarter of a page) and
    /// its print clearly darker. An outline that strays over the desk has the desk's level
    /// inside there, not print.
    var showsFigure: Bool {
        paper - outside >= GradientField.minimumInteriorStep && outside - print >= GradientField.minimumStep
    }
}
