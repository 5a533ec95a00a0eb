// Print past a side: rows of letters show as fine edges, edges in the working copy that the
// closing wipes out. A page's own edge has what it lies on beyond it; print running on past
// a side means the sheet goes on there (a crease, a flat scan's region). Print within an
// outline is what the closing brightens there: a page carries it, a door or a wall does not.

extension GradientField {
    /// The share of `q`'s inside (its outline shrunk by a tenth about its centre, clear of its
    /// edges) that the closing brightens by a step: the print, which it wipes out.
    func printShare(inside q: Quad, textless: GradientField) -> Double {
        let centre = (q.topLeft + q.topRight + q.bottomRight + q.bottomLeft) * 0.25
        let shrunk = q.corners.map { centre + ($0 - centre) * 0.9 }
        let inner = Quad(topLeft: shrunk[0], topRight: shrunk[1], bottomRight: shrunk[2], bottomLeft: shrunk[3])
        var printed = 0, seen = 0
        guard let box = pixelBox(around: inner.corners) else { return 0 }
        for y in box.ys {
            for x in box.xs where inner.contains(Point(Double(x) + 0.5, Double(y) + 0.5)) {
                seen += 1
                if textless.luma[y * width + x] - luma[y * width + x] >= Self.minimumPrintStep { printed += 1 }
            }
        }
        return Double(printed) / Double(max(seen, 1))
    }

    /// The share of a page its print darkens (`printShare`): 0.08–0.3 on printed pages in
    /// the working copy, under 0.01 on a blank door, pane or strip of wall. An outline with
    /// little to back it (a page held up, or running off the frame at both ends) must reach it.
    static let printedPage = 0.04
    /// The least print of a printed page: the low end of `printShare` on one.
    static let fullyPrinted = 0.08
    /// The least of it an outline cut by the frame must carry: a blank door, pane or strip of
    /// wall has less, and a page with less holds next to nothing to read.
    static let leastPrint = 0.01
    /// Grey levels by which the closing must brighten a pixel for it to count as print.
    static let minimumPrintStep: Float = 8

    /// Whether the band `within` px past side `k` of `q` holds print: at least
    /// `printPastSide` of it on fine edges (an edge in this view, none with the print wiped
    /// out). Rows of letters are dense with them; a desk's grain and a soft shadow are not.
    func printLies(beyond k: Int, of q: Quad, within band: ClosedRange<Double>, textless: GradientField) -> Bool {
        fineEdgeShare(beyond: k, of: q, from: band.lowerBound, to: band.upperBound, textless: textless) >= Self.printPastSide
    }

    /// Whether the fine edges in the band `within` px past side `k` of `q` reach over at least
    /// half its depth in `printFillsBand` of its columns (across the side's middle 80%). Rows
    /// of letters lie a line's pitch apart all through the band, and columns of letters cross
    /// it; a cable or a pen lying past a side is one stroke, a few pixels wide, which spans
    /// that depth only in the few columns where it crosses the band steeply.
    func printFills(beyond k: Int, of q: Quad, within band: ClosedRange<Double>, textless: GradientField) -> Bool {
        let (a, b) = sidesOf(q)[k]
        let length = a.distance(to: b)
        guard length >= 4 else { return false }
        let along = (b - a) * (1 / length), normal = Line(through: a, b).normal
        let depth = Int(band.upperBound - band.lowerBound) + 1
        var spanning = 0, columns = 0
        var t = 0.1 * length
        while t <= 0.9 * length {
            var first: Int?, last = 0, inFrame = 0
            for step in 0..<depth {
                guard let kind = edge(at: a + along * t - normal * (band.lowerBound + Double(step)), textless: textless) else { continue }
                inFrame += 1
                if kind == .fine {
                    if first == nil { first = step }
                    last = step
                }
            }
            if 2 * inFrame >= depth {
                columns += 1
                if let first, 2 * (last - first + 1) >= depth { spanning += 1 }
            }
            t += 1
        }
        return columns >= 10 && Double(spanning) >= Self.printFillsBand * Double(columns)
    }

    /// The share of a band's columns that print past a crease spans (0.78-1 on folded pages);
    /// a stroke past a side spans at most about half (cables arcing along it).
    static let printFillsBand = 0.7

    /// Whether paper lies in the band `within` px past side `k` of `q`, in this view (the print
    /// wiped out): its median brightness comes within a paper step of the paper just inside
    /// the dimmest of `paperSides`. Past a block of print lies the rest of its page; past a
    /// page's own edge, what it lies on.
    func paperLies(beyond k: Int, of q: Quad, within band: ClosedRange<Double>, paperSides: [Int]) -> Bool {
        let sides = sidesOf(q)
        func median(_ i: Int, _ depths: ClosedRange<Double>) -> Float? {
            bandLevel(sides[i].0, sides[i].1, depths: depths, over: 0.1...0.9)
        }
        guard let beyond = median(k, -band.upperBound...(-band.lowerBound)) else { return false }
        let papers = paperSides.compactMap { median($0, 3...7) }
        guard let paper = papers.min() else { return true }
        return beyond >= paper - Self.minimumPaperStep
    }

    /// The median brightness of the band `depths` px from the segment a → b (positive: on its
    /// normal's side, the inside of a clockwise outline's side) over the share `over` of its
    /// length; nil for a segment under 4 px, or a band off the frame.
    func bandLevel(_ a: Point, _ b: Point, depths: ClosedRange<Double>, over: ClosedRange<Double>) -> Float? {
        let length = a.distance(to: b)
        guard length >= 4 else { return nil }
        let along = (b - a) * (1 / length), normal = Line(through: a, b).normal
        var values: [Float] = []
        var t = over.lowerBound * length
        while t <= over.upperBound * length {
            var d = depths.lowerBound
            while d <= depths.upperBound {
                if let value = level(at: a + along * t + normal * d) { values.append(value) }
                d += 1
            }
            t += 1
        }
        return values.selectKth(values.count / 2)
    }

    /// The share of a band on fine edges from which it holds print.
    static let printPastSide = 0.1

    /// The share of the band from `from` to `to` px outside side `k` of `q` (its middle 80%)
    /// on fine edges: an edge in this view and none with the print wiped out. 0 where too
    /// little of the band lies in the frame. With `smudges`, print smudged past its edges
    /// counts too (`edgeCounts`).
    func fineEdgeShare(beyond k: Int, of q: Quad, from: Double, to: Double, textless: GradientField, smudges: Bool = false) -> Double {
        let (a, b) = sidesOf(q)[k]
        return fineEdgeShare(along: a, b, from: from, to: to, textless: textless, smudges: smudges)
    }

    /// The share of the band from `from` to `to` px to the left of a → b (outside, for a side
    /// of a clockwise quad; negative for inside) on fine edges, as `fineEdgeShare(beyond:)`.
    func fineEdgeShare(along a: Point, _ b: Point, from: Double, to: Double, textless: GradientField, smudges: Bool = false) -> Double {
        fineEdgeShare(along: a, b, from: from, to: to, textless: textless, tooLittle: 0, smudges: smudges)
    }

    /// Whether the band `within` px outside a → b is clear of print: less than
    /// `printPastSide` of it on fine edges, with enough of it in the frame to tell.
    func clearOfPrint(along a: Point, _ b: Point, within band: ClosedRange<Double>, textless: GradientField) -> Bool {
        fineEdgeShare(along: a, b, from: band.lowerBound, to: band.upperBound, textless: textless, tooLittle: 1) < Self.printPastSide
    }

    /// `tooLittle` is the share given where under 50 points of the band lie in the frame.
    private func fineEdgeShare(along a: Point, _ b: Point, from: Double, to: Double, textless: GradientField, tooLittle: Double,
                               smudges: Bool = false) -> Double {
        let normal = Line(through: a, b).normal
        var fine = 0, seen = 0
        var d = from
        while d <= to {
            if let counts = edgeCounts(along: a - normal * d, b - normal * d, textless: textless, smudges: smudges) {
                fine += counts.fine
                seen += counts.seen
            }
            d += 1
        }
        return seen >= 50 ? Double(fine) / Double(seen) : tooLittle
    }

    /// Along the middle 80% of a → b: how many points lie on fine edges, on edges the closing
    /// keeps, and in the frame. Nil where less than half of it lies in the frame.
    ///
    /// With `smudges`, where the row is plain paper with the print wiped out (`plainLevel`), a
    /// point the closing brightens by a print step counts as a fine edge too: print out of
    /// focus, or too small to resolve in the working copy (dense print on a page seen whole),
    /// is a grey smudge whose strokes show no edge at all, but it still darkens the paper.
    func edgeCounts(along a: Point, _ b: Point, textless: GradientField, smudges: Bool = false) -> EdgeCounts? {
        let length = a.distance(to: b)
        guard length >= 4 else { return nil }
        var counts = EdgeCounts()
        var total = 0
        // The row's paper level, read once a point needs it: most rows show no smudge at all.
        var paper: Float?, paperRead = false
        var t = 0.1 * length
        while t <= 0.9 * length {
            total += 1
            let p = a + (b - a) * (t / length)
            if let kind = edge(at: p, textless: textless) {
                counts.seen += 1
                switch kind {
                case .coarse: counts.coarse += 1
                case .fine: counts.fine += 1
                case .none:
                    guard smudges, let wiped = textless.level(at: p), let seen = level(at: p), wiped - seen >= Self.minimumPrintStep else { break }
                    if !paperRead { (paper, paperRead) = (textless.plainLevel(along: a, b), true) }
                    if let paper, abs(wiped - paper) < Self.minimumPrintStep { counts.fine += 1 }
                }
            }
            t += 1
        }
        return 2 * counts.seen >= total ? counts : nil
    }

    enum EdgeKind { case none, fine, coarse }

    /// The pixel under `p`: on an edge the closing keeps (coarse), on one it wipes out with the
    /// print (fine), or on none; nil outside the frame.
    func edge(at p: Point, textless: GradientField) -> EdgeKind? {
        let x = Int(p.x.rounded(.down)), y = Int(p.y.rounded(.down))
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = y * width + x
        return textless.magnitude[i] >= threshold ? .coarse : (magnitude[i] >= threshold ? .fine : EdgeKind.none)
    }

    /// The level of the row a → b (its middle 80%, in this view, the print wiped out) where it
    /// is plain paper: where `plainRow` of it lies within a print step of its median. Nil
    /// where it is not, or lies out of the frame.
    func plainLevel(along a: Point, _ b: Point) -> Float? {
        let length = a.distance(to: b)
        guard length >= 4 else { return nil }
        var levels: [Float] = []
        var t = 0.1 * length
        while t <= 0.9 * length {
            if let value = level(at: a + (b - a) * (t / length)) { levels.append(value) }
            t += 1
        }
        guard let median = levels.selectKth(levels.count / 2) else { return nil }
        let plain = levels.filter { abs($0 - median) < Self.minimumPrintStep }.count
        return Double(plain) >= Self.plainRow * Double(levels.count) ? median : nil
    }

    /// The share of a row that lies at its paper's level, with the print wiped out, for it to
    /// be plain paper: a photo, a picture or a busy surface past a side varies more, and its
    /// texture darkens it as print does.
    static let plainRow = 0.8

    struct EdgeCounts {
        var fine = 0, coarse = 0, seen = 0
        var fineShare: Double { Double(fine) / Double(max(seen, 1)) }
        var coarseShare: Double { Double(coarse) / Double(max(seen, 1)) }
    }
}
