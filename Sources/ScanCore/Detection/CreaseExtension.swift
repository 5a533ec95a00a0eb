// Pages folded with their print beyond the crease.
//
// A page folded across it, one part in light and the other in shade as dark as the desk, shows
// a clean outline for the part in light with the crease for a side, and no edge at all round
// the part in shade. That part's print still shows: rows of print lie past the crease, right
// past it or past the sheet's blank margin, where no edge shows at all, and no page edge has
// print beyond it. The outline then grows across the crease to hold it. Out of focus, or too
// small for the working copy, that print is a grey smudge with no edges of its own; it is read
// where it darkens plain paper (`edgeCounts`' smudges).

extension GradientField {
    /// The share of a band beyond a side, from its first row of print, on fine edges (print,
    /// which the closing wipes out) that rows of print reach; a pen, a cable or a spiral
    /// binding beside a side covers less.
    static let printedBand = 0.4
    /// How deep that band is, as a share of the outline's depth across the side.
    static let bandDepth = 0.25
    /// A row parallel to the crease carries print where this share of it is on fine edges.
    static let printedRow = 0.1
    /// Rows without print, as a share of the outline's depth, after which the print has ended
    /// (more than the gap between two paragraphs).
    static let printGap = 0.2
    /// How far the print beyond the crease may reach, as a share of the outline's depth, and
    /// how deep it must be: the part beyond a fold is a quarter of the page or more.
    static let maximumFlap = 1.5
    static let minimumFlap = 0.25
    /// How far beyond the crease the print may start, as a share of the outline's depth: the
    /// sheet's blank margin between the fold and its print.
    static let maximumLead = 0.5
    /// The margin beyond the print, as a share of the print's depth past the crease.
    static let flapMargin = 0.1
    /// The band past the page's sides carried on over the part beyond the crease that must be
    /// clear of print: from past the few pixels where the sheet's own print may still lie,
    /// those lines being straight where a curled sheet's sides bend.
    static let flapSideBand = 8.0...20.0

    /// `outline`, grown across the side beyond which rows of print run on (the crease of a
    /// folded page) to a margin past the end of that print, its sides carried on along their
    /// lines. Nil when no side has print beyond it.
    func extendedOverPrint(_ outline: ScoredQuad, textless: GradientField) -> ScoredQuad? {
        guard !outline.isFrame else { return nil }
        let q = outline.quad
        let depths = (0..<4).map { depth(across: $0, of: q) }
        var crease: (side: Int, start: Double, share: Double)?
        for k in 0..<4 {
            guard let start = printStart(beyond: k, of: q, depth: depths[k], textless: textless) else { continue }
            let share = fineEdgeShare(beyond: k, of: q, from: start, to: start + Self.bandDepth * depths[k], textless: textless, smudges: true)
            if share >= Self.printedBand, share > (crease?.share ?? 0) { crease = (k, start, share) }
        }
        guard let (k, start, _) = crease else { return nil }
        let outlineDepth = depths[k]
        let gap = max(4, Self.printGap * outlineDepth)
        var printEnd = start, d = start, ended = false, cutOff = false
        // The print may reach as far as a flap does; the rows past it show where it ends.
        while d <= Self.maximumFlap * outlineDepth + gap, let (from, to) = row(beyond: k, of: q, at: d) {
            guard let counts = edgeCounts(along: from, to, textless: textless, smudges: true) else { cutOff = true; break }
            if counts.fineShare >= Self.printedRow { printEnd = d }
            if d - printEnd > gap { ended = true; break }
            d += 1
        }
        // The page ends a margin beyond its print: the far edge of a part in shade as dark as
        // the desk shows no more than its sides do.
        let farSide = printEnd * (1 + Self.flapMargin) + 2
        // Print ends, short of a flap's reach, and before the frame or at least that margin
        // short of it (a page reaching near the frame): rows of fine edges running on to the
        // frame are a textured desk or foliage, and a strip of them (a pen, a binding) is no
        // part of a page.
        if cutOff, d - 1 >= farSide { ended = true }
        guard ended, printEnd - start >= Self.minimumFlap * outlineDepth, printEnd <= Self.maximumFlap * outlineDepth,
              let (from, to) = row(beyond: k, of: q, at: farSide) else { return nil }
        let (creaseFrom, creaseTo) = (q.corners[k], q.corners[(k + 1) % 4])
        // The sheet beyond a crease is as wide as the page: its print ends within the lines of
        // the page's sides carried on. Print running on well past them (clear of the few pixels
        // by which those lines may stray inside a curled sheet) is something else's, a sign or a
        // poster the page lies below.
        if [(creaseFrom, from), (to, creaseTo)].contains(where: {
            fineEdgeShare(along: $0.0, $0.1, from: Self.flapSideBand.lowerBound, to: Self.flapSideBand.upperBound, textless: textless, smudges: true)
                >= Self.printPastSide
        }) { return nil }
        var corners = q.corners
        corners[k] = from
        corners[(k + 1) % 4] = to
        let grown = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        guard grown.isConvex, grown.signedArea > 0, inBounds(grown), grown.area <= 1.02 * Double(width * height) else { return nil }
        var result = outline
        result.quad = grown
        return result
    }

    /// How far beyond side `k` of `q` the first row of print lies: past the sheet's blank
    /// margin, which shows no edge at all, within `maximumLead` of the depth. Nil where an
    /// edge that the closing keeps (a desk's or another object's) comes first, or no print.
    func printStart(beyond k: Int, of q: Quad, depth: Double, textless: GradientField) -> Double? {
        var d = 3.0
        while d <= max(3, Self.maximumLead * depth) {
            guard let (from, to) = row(beyond: k, of: q, at: d), let counts = edgeCounts(along: from, to, textless: textless, smudges: true) else { return nil }
            if counts.fineShare >= Self.printedRow { return d }
            if counts.coarseShare >= Self.printedRow { return nil }
            d += 1
        }
        return nil
    }

    /// Side `k`'s line moved `d` outwards (its normal points into `q`), cut by the two sides
    /// that meet it, carried on past it.
    func row(beyond k: Int, of q: Quad, at d: Double) -> (Point, Point)? {
        let sides = sidesOf(q)
        let side = Line(through: sides[k].0, sides[k].1)
        let before = Line(through: sides[(k + 3) % 4].0, sides[(k + 3) % 4].1)
        let after = Line(through: sides[(k + 1) % 4].0, sides[(k + 1) % 4].1)
        let moved = Line(theta: side.theta, rho: side.rho - d)
        guard let from = moved.intersection(before), let to = moved.intersection(after) else { return nil }
        return (from, to)
    }

    /// How far the side opposite side `k` of `q` lies from it, at its middle.
    func depth(across k: Int, of q: Quad) -> Double {
        let sides = sidesOf(q)
        let line = Line(through: sides[k].0, sides[k].1)
        let opposite = (sides[(k + 2) % 4].0 + sides[(k + 2) % 4].1) * 0.5
        return Point.dot(opposite, line.normal) - line.rho
    }
}
