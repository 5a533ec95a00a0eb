import Foundation

// A page held up before a room with its face turned from the light is darker than the wall
// behind it, though the wall is no light source: the paper checks, which take paper to be
// brighter than what it lies on except against a light, refuse it. Where no page is found,
// the photo is read again with "brighter than paper" judged against each outline's own paper.

extension PageDetector {
    /// The page outline read from the first reading's views (`field`, and `textless` with the
    /// print wiped out) as a page held up before something brighter than its paper, and the
    /// views it was judged in; nil unless one is found, well backed.
    ///
    /// Every side's polarity is read from its own step, so the search ranks outlines whichever
    /// way their sides step. Each is then checked as `verified` checks a page against a light,
    /// with the light's level set by that outline: what lies beyond its sides where they step
    /// down into it is the light it must not reach, and what is brighter than its own paper
    /// is left out of the ring round it. It must step down into something brighter along some
    /// of its outline (else the first reading has judged it already), keep clear of the frame
    /// (beyond a side along it too little shows to tell which way it steps), be brighter than
    /// what lies beyond one of its own sides (a door, the room's shade: a figure printed on a
    /// flat scan's white paper is darker than the paper all round), carry print, as a page
    /// does and a pale door or a window pane in its frame does not, and be smooth paper with
    /// the print wiped out, where only light varies: a photo printed on a flat scan's page
    /// keeps its texture there (`wipedEdgeShare`), and a side cut across it, its dark ground
    /// beyond, makes it pass the rest as a page before the white paper's light. The hand
    /// holding it may cover much of a side: that stretch counts neither for the side nor
    /// against it (`occludedSteps`); and it may lie over the paper as bright as the wall
    /// (`verified`).
    ///
    /// A page held up in shade before a sunlit garden or a white wall is darker than all
    /// round it. So is a photo printed on a flat scan's white page, which its texture tells
    /// apart. And a box shaded grey on a flat scan has the same paper beyond each of its
    /// sides, where a page held up has a room, lit unevenly: with the print wiped out, what
    /// lies beyond its sides must differ by a step (`spreadBeyond`).
    func heldUpReading(from firstField: GradientField, textless firstTextless: GradientField) -> (outline: ScoredQuad, field: GradientField, textless: GradientField)? {
        var field = firstField, textless = firstTextless
        field.light = [UInt8](repeating: 1, count: field.luma.count)
        textless.light = field.light
        for ranked in field.rankedQuads(minimumAreaFraction: minimumAreaFraction, extraLines: textless.outlineLines(), textless: textless) {
            let quad = ranked.candidate.quad
            var beyond = field.brighterBeyond(quad)
            // Its paper's brightest, clear of a spot of glare and of the hand holding it where
            // that is at the light's level: the 95th percentile inside it below the light.
            let inside = textless.ringSample(quad, quad, stride: 2).inside
            guard beyond.count >= GradientField.litSamples, inside.count >= GradientField.litSamples,
                  let light = beyond.selectKth(beyond.count / 2) else { continue }
            var paper = inside.filter { $0 < light }
            guard paper.count >= GradientField.litSamples, let brightest = paper.selectKth(paper.count * 19 / 20) else { continue }
            let ceiling = min(light, brightest + GradientField.minimumPaperStep)
            let own = field.judged(lightBeyond: light, brighterThanPaper: ceiling)
            let ownTextless = textless.judged(lightBeyond: light, brighterThanPaper: ceiling)
            // Well backed, clear of the frame, printed, and smooth paper with the print wiped out.
            func stands(_ outline: ScoredQuad) -> Bool {
                outline.confidence >= GradientField.laterPlaceConfidence
                    && !own.ownSideHugsFrame(outline.quad, sides: ranked.candidate.sides)
                    && own.printShare(inside: outline.quad, textless: ownTextless) >= GradientField.printedPage
                    && ownTextless.wipedEdgeShare(inside: outline.quad) < GradientField.smoothPaper
            }
            // An outline that passes as a page lit on at most three sides cannot be darker than
            // all round it: it is judged so only when refused.
            if let outline = own.verified(ranked, textless: ownTextless, heldUp: true) {
                let sides = own.sidesOf(outline.quad)
                if stands(outline), sides.indices.contains(where: {
                    !ranked.candidate.sides[$0].isBorder && own.stepContrast(sides[$0].0, sides[$0].1, paper: false).lit < 0.5
                }) { return (outline, own, ownTextless) }
            } else if let outline = own.verified(ranked, textless: ownTextless, heldUp: true, darkerAllRound: true), stands(outline),
                      ownTextless.spreadBeyond(outline.quad) >= GradientField.minimumStep {
                return (outline, own, ownTextless)
            }
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

    /// Points 5 px inside and outside side a → b, at 24 points along its middle 80%; none on
    /// a side under 4 px long.
    func probes(across a: Point, _ b: Point) -> [(inside: Point, outside: Point)] {
        let length = a.distance(to: b)
        guard length >= 4 else { return [] }
        let along = (b - a) * (1 / length), inward = Point(-along.y, along.x)
        return (0..<Self.contrastSamples).map { k in
            let p = a + along * (length * (0.1 + 0.8 * Double(k) / Double(Self.contrastSamples - 1)))
            return (p + inward * Self.lightProbe, p - inward * Self.lightProbe)
        }
    }

    /// Brightness 5 px beyond the sides of `q` (`probes`) where it is brighter than 5 px inside
    /// by a paper step: what the page is the darker side of.
    func brighterBeyond(_ q: Quad) -> [Float] {
        sidesOf(q).flatMap { a, b in
            probes(across: a, b).compactMap { probe -> Float? in
                guard let inside = level(at: probe.inside), let outside = level(at: probe.outside),
                      outside >= inside + Self.minimumPaperStep else { return nil }
                return outside
            }
        }
    }

    /// How far apart the levels beyond `q`'s sides lie: of the median brightness 5 px beyond
    /// each side (`probes`, those in view, at least half), the brightest less the darkest.
    func spreadBeyond(_ q: Quad) -> Float {
        let levels = sidesOf(q).compactMap { a, b -> Float? in
            var beyond = probes(across: a, b).compactMap { level(at: $0.outside) }
            return beyond.count >= Self.contrastSamples / 2 ? beyond.selectKth(beyond.count / 2) : nil
        }
        return (levels.max() ?? 0) - (levels.min() ?? 0)
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

    /// The share of `q`'s inside, clear of its outline, on an edge in this view (the print
    /// wiped out): a page's paper is smooth there, with only its light varying (under 0.02),
    /// where a photo's ground keeps its texture (0.15–0.5 on photos printed on a page).
    func wipedEdgeShare(inside q: Quad) -> Double {
        let sample = ringSample(q, q, stride: 2, clearance: 3)
        return Double(sample.insideEdges) / Double(max(sample.inside.count, 1))
    }

    /// The most of a page's paper that may lie on an edge with its print wiped out.
    static let smoothPaper = 0.05

    /// Points beyond an outline's sides, and inside it, that it must have to be judged as a page
    /// held up before something brighter (of 96 beyond: a quarter of one side).
    static let litSamples = 12
}
