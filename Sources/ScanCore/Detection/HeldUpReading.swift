import Foundation

// A page held up before a room with its face turned from the light is darker than the wall
// behind it, though the wall is no light source: the paper checks, which take paper to be
// brighter than what it lies on except against a light, refuse it. Where no page is found,
// the photo is read again with "brighter than paper" judged against each outline's own paper.

extension PageDetector {
    /// The page outline read from the first reading's views (`field`, and `textless` with the
    /// print wiped out) as a page held up before something brighter than its paper, and the
    /// view it was judged in; nil unless one is found, well backed.
    ///
    /// Every side's polarity is read from its own step, so the search ranks outlines whichever
    /// way their sides step. Each is then checked as `verified` checks a page against a light,
    /// with the light's level set by that outline: what lies beyond its sides where they step
    /// down into it is the light it must not reach, and what is brighter than its own paper
    /// is left out of the ring round it. It must step down into something brighter along some
    /// of its outline (else the first reading has judged it already), keep clear of the frame
    /// (beyond a side along it too little shows to tell which way it steps), be brighter than
    /// what lies beyond one of its own sides (a door, the room's shade: a figure printed on a
    /// flat scan's white paper is darker than the paper all round), and carry print, as a page
    /// does and a pale door or a window pane in its frame does not. The hand holding it may
    /// cover much of a side: that stretch counts neither for the side nor against it
    /// (`occludedSteps`).
    func heldUpReading(from firstField: GradientField, textless firstTextless: GradientField) -> (outline: ScoredQuad, field: GradientField)? {
        var field = firstField, textless = firstTextless
        field.light = [UInt8](repeating: 1, count: field.luma.count)
        textless.light = field.light
        for ranked in field.rankedQuads(minimumAreaFraction: minimumAreaFraction, extraLines: textless.outlineLines(), textless: textless) {
            let quad = ranked.candidate.quad
            var beyond = field.brighterBeyond(quad)
            // Its paper's brightest, clear of a spot of glare: the 95th percentile inside it.
            var paper = textless.ringSample(quad, quad, stride: 2).inside
            guard beyond.count >= GradientField.litSamples, paper.count >= GradientField.litSamples,
                  let light = beyond.selectKth(beyond.count / 2),
                  let brightest = paper.selectKth(paper.count * 19 / 20) else { continue }
            let ceiling = min(light, brightest + GradientField.minimumPaperStep)
            let own = field.judged(lightBeyond: light, brighterThanPaper: ceiling)
            let ownTextless = textless.judged(lightBeyond: light, brighterThanPaper: ceiling)
            guard let outline = own.verified(ranked, textless: ownTextless, heldUp: true),
                  outline.confidence >= GradientField.laterPlaceConfidence else { continue }
            let sides = own.sidesOf(outline.quad), ownSides = sides.indices.filter { !ranked.candidate.sides[$0].isBorder }
            guard !own.ownSideHugsFrame(outline.quad, sides: ranked.candidate.sides),
                  ownSides.contains(where: { own.stepContrast(sides[$0].0, sides[$0].1, paper: false).lit < 0.5 }),
                  own.printShare(inside: outline.quad, textless: ownTextless) >= GradientField.printedPage else { continue }
            return (outline, own)
        }
        return nil
    }
}

extension GradientField {
    /// This view with a page's light and what is brighter than its paper read at those levels.
    func judged(lightBeyond light: Float, brighterThanPaper ceiling: Float) -> GradientField {
        var view = self
        view.lightBeyond = light
        view.brighterThanPaper = ceiling
        return view
    }

    /// Brightness 5 px beyond the sides of `q` (at 24 points along each side's middle 80%)
    /// where it is brighter than 5 px inside by a paper step: what the page is the darker side of.
    func brighterBeyond(_ q: Quad) -> [Float] {
        var levels: [Float] = []
        for (a, b) in sidesOf(q) {
            let length = a.distance(to: b)
            guard length >= 4 else { continue }
            let along = (b - a) * (1 / length), inward = Point(-along.y, along.x)
            for k in 0..<Self.contrastSamples {
                let p = a + along * (length * (0.1 + 0.8 * Double(k) / Double(Self.contrastSamples - 1)))
                guard let inside = level(at: p + inward * Self.lightProbe), let outside = level(at: p - inward * Self.lightProbe),
                      outside >= inside + Self.minimumPaperStep else { continue }
                levels.append(outside)
            }
        }
        return levels
    }

    /// How many of the points `edgeCount` reads along side a → b lie under something held over
    /// it, a hand holding the page: there the side runs through one thing, at one level on
    /// both sides of it (within a step), which is not the page's `paper`, and the side steps
    /// before and after that stretch. A side carried past the page over the desk runs on over
    /// the desk to its end, and one along no edge at all has the paper on both sides.
    func occludedSteps(_ a: Point, _ b: Point, paper: Float) -> Int {
        let length = a.distance(to: b)
        guard length >= 2 else { return 0 }
        let along = (b - a) * (1 / length), inward = Point(-along.y, along.x)
        var levels: [(inside: Float, outside: Float)] = []
        for s in 0..<Int(length) {
            let p = a + along * (Double(s) + 0.5)
            guard let inside = level(at: p + inward * Self.lightProbe), let outside = level(at: p - inward * Self.lightProbe) else { continue }
            levels.append((inside, outside))
        }
        func steps(_ l: (inside: Float, outside: Float)) -> Bool { abs(l.inside - l.outside) >= Self.minimumStep }
        guard let first = levels.firstIndex(where: steps), let last = levels.lastIndex(where: steps), first < last else { return 0 }
        return levels[first...last].filter { !steps($0) && abs($0.inside - paper) >= Self.minimumStep }.count
    }

    /// Points beyond an outline's sides, and inside it, that it must have to be judged as a page
    /// held up before something brighter (of 96 beyond: a quarter of one side).
    static let litSamples = 12
}
