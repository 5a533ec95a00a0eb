// Corners of curled and folded pages.
//
// Four straight lines cannot follow a page whose edge curls or whose top half stands up at a
// fold. The line search then takes the straight part it can back: the crease, or the chord of a
// curled edge, and the page's real corner lies further out, at the end of one of the sides that
// meet there. Each side's paper boundary is followed past the corner while it runs on nearly
// straight; where it does, the corner moves to its end.

extension GradientField {
    /// How far across the expected boundary, in working pixels, each tracking step looks.
    static let trackingReach = 4
    /// Steps without a boundary after which tracking stops.
    static let trackingGap = 3
    /// A side's boundary must run on past the corner by this share of the side to move it ...
    static let minimumExtension = 0.04
    /// ... stray from the side's line by no more than this share of how far it ran ...
    static let maximumDrift = 0.25
    /// ... and at least this share of the triangle the move adds must be paper.
    static let minimumGainedPaper = 0.25
    /// A corner that runs on by this share of its side shows that the side through it is a
    /// crease, not the page's edge ...
    static let minimumCreaseRun = 0.1
    /// ... and the crease's other end may then follow an edge the fold bends by this much ...
    static let maximumFoldDrift = 0.5
    /// ... when it runs on about as far: both ends of a crease stand up by the same flap.
    static let minimumFoldRunRatio = 0.5
    /// A run's outside may differ from its side's by this share of the side's step, and the
    /// step across it must keep this share of its own paper's against the side's outside.
    static let maximumOutsideChange: Float = 0.5
    static let minimumStepKept: Float = 0.5
    /// ... and the paper inside it may be darker than the side's by this share of the page's
    /// contrast with what it lies on: a part turned from the light is darker, but not desk.
    static let maximumDimming: Float = 0.5
    /// Working pixels either side of a boundary at which its two levels are read: clear of its
    /// smoothing, within a pen's width.
    static let levelOffset = 3.0

    /// `quad` with each corner moved to where the paper boundary of one of its two sides ends,
    /// when that boundary runs on past the corner. `page` and `ground` are the brightness of
    /// the page and of what it lies on; paper is what is brighter than halfway between them
    /// (`excludingLight`, below `brighterThanPaper`). `textless` is the same view with the
    /// print wiped out, where known.
    func extendedCorners(_ quad: Quad, page: Float, ground: Float, excludingLight: Bool = false, textless: GradientField? = nil) -> Quad {
        let paper = paperMask(quad, threshold: (page + ground) / 2, ceiling: excludingLight ? brighterThanPaper : .infinity)
        let c = quad.corners
        let contrast = page - ground
        let runs = (0..<4).map { cornerRun(paper, c, at: $0, maximumDrift: Self.maximumDrift, contrast: contrast) }
        var moved = (0..<4).map { runs[$0]?.end ?? c[$0] }
        var followedLeaving = runs.map { $0?.followedLeaving }
        for i in 0..<4 {
            guard let run = runs[i], run.share >= Self.minimumCreaseRun else { continue }
            // Corner i ran on along one side: the other side through it was a crease, and its
            // far end lies on the same fold, so the page runs on past that end too, along an
            // edge the fold may bend.
            let k = run.followedLeaving ? (i + 3) % 4 : (i + 1) % 4
            guard runs[k] == nil, let retry = cornerRun(paper, c, at: k, maximumDrift: Self.maximumFoldDrift, contrast: contrast),
                  retry.length >= Self.minimumFoldRunRatio * run.length
            else { continue }
            moved[k] = retry.end
            followedLeaving[k] = retry.followedLeaving
        }
        let extended = Quad(topLeft: moved[0], topRight: moved[1], bottomRight: moved[2], bottomLeft: moved[3])
        guard extended.isConvex, inBounds(extended) else { return quad }
        // A corner moved along one side turns the other about its far corner, where that stays.
        // A curl's chord still runs along the page's edge, near it at least at its ends; a run
        // along the edge of what the page lies on (a pale desk up to the floor) turns the side
        // out over the desk, where no edge backs it; one along the edge of a second sheet beside
        // the page, lined up with its side, turns it across that sheet's print.
        for i in 0..<4 {
            guard let leaving = followedLeaving[i] else { continue }
            let (side, far) = leaving ? ((i + 3) % 4, (i + 3) % 4) : (i, (i + 1) % 4)
            guard moved[far] == c[far] else { continue }
            let (a, b) = (side, (side + 1) % 4)
            if sideBacking(moved[a], moved[b]) < Self.minimumTurnedBacking * sideBacking(c[a], c[b]) { return quad }
            if let textless, fineEdgeShare(along: moved[a], moved[b], from: -3, to: 3, textless: textless) >= Self.maximumTurnedPrint {
                return quad
            }
        }
        return extended
    }

    /// The share of its backing by edges that a side a corner's move turns must keep (0.2-0.4
    /// for curled corners; about 0.06 turned over a desk).
    static let minimumTurnedBacking = 0.15
    /// The share of a turned side on print (fine edges) that shows it runs across a printed
    /// sheet (0.6-0.8) rather than along the page's edge (a curl's: 0.2 at most).
    static let maximumTurnedPrint = 0.35

    /// The share of side a → b backed by edges stepping across it either way.
    private func sideBacking(_ a: Point, _ b: Point) -> Double {
        max(support(a, b, polarity: 1), support(a, b, polarity: -1))
    }

    /// How far the paper boundary of one of corner `i`'s sides runs on past it, when it does:
    /// its end, its run as a share of the side, its run in pixels, and whether it was the side
    /// leaving the corner (clockwise) that was followed.
    private func cornerRun(_ paper: [UInt8], _ c: [Point], at i: Int, maximumDrift: Double, contrast: Float)
        -> (end: Point, share: Double, length: Double, followedLeaving: Bool)? {
        var best: (end: Point, share: Double, length: Double, followedLeaving: Bool)?
        // The side arriving at the corner (running clockwise), then the side leaving it
        // (followed backwards); `far` is the corner at the other end of the side not followed.
        for (other, far, sign) in [(c[(i + 3) % 4], c[(i + 1) % 4], 1.0), (c[(i + 1) % 4], c[(i + 3) % 4], -1.0)] {
            let length = c[i].distance(to: other)
            guard length >= 8 else { continue }
            let direction = (c[i] - other) * (1 / length)
            let inward = Point(-direction.y, direction.x) * sign
            let path = trackBoundary(paper, from: c[i], direction: direction, inward: inward, steps: Int(0.6 * length))
            guard let start = path.first, let end = path.last else { continue }
            let run = Point.dot(end - c[i], direction)
            // Straying is read from where the boundary is first found next to the corner: the
            // corner itself may lie a few pixels off it (where the lines of its sides met).
            let drift = path.map { abs(Point.dot($0 - start, inward)) }.max() ?? 0
            guard run >= Self.minimumExtension * length, drift <= maximumDrift * run,
                  paperShare(paper, c[i], end, far) >= Self.minimumGainedPaper
            else { continue }
            // The run must be the same edge going on: paper inside it as inside the side, what
            // lies outside the side outside it, and as clear a step across. On a pale desk,
            // where patches of desk pass for paper, a pen's edge or a shade of the desk itself
            // also bounds "paper". The part past a fold may be turned from the light, so its
            // step is judged against its own paper, which may be dimmer.
            let side = stride(from: 0.1, through: 0.5, by: 0.02).map { c[i] - direction * ($0 * length) }
            guard let along = levels(across: side, inward: inward), let beyond = levels(across: path, inward: inward),
                  abs(beyond.outside - along.outside) <= Self.maximumOutsideChange * along.step,
                  beyond.step >= Self.minimumStepKept * (beyond.inside - along.outside),
                  along.inside - beyond.inside <= Self.maximumDimming * contrast
            else { continue }
            if run / length > best?.share ?? 0 { best = (end, run / length, run, sign < 0) }
        }
        return best
    }

    /// Median brightness a few pixels inside and outside a boundary through `points`, and the
    /// step between them; nil when the boundary is not brighter inside.
    func levels(across points: [Point], inward: Point) -> (inside: Float, outside: Float, step: Float)? {
        var inside: [Float] = [], outside: [Float] = []
        for p in points {
            if let value = level(at: p + inward * Self.levelOffset) { inside.append(value) }
            if let value = level(at: p - inward * Self.levelOffset) { outside.append(value) }
        }
        guard let i = inside.selectKth(inside.count / 2), let o = outside.selectKth(outside.count / 2), i > o else { return nil }
        return (i, o, i - o)
    }

    /// Paper connected to the inside of `quad`: pixels at least `threshold` and below `ceiling`
    /// bright, reached from those well inside it (1 = paper).
    func paperMask(_ quad: Quad, threshold: Float, ceiling: Float = .infinity) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: width * height)
        var stack: [Int] = []
        let c = quad.corners
        let sides = (0..<4).map { i -> (Point, Point) in
            let d = (c[(i + 1) % 4] - c[i]).unit
            return (c[i], Point(-d.y, d.x))
        }
        if let box = pixelBox(around: c) {
            for y in box.ys {
                for x in box.xs {
                    let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                    let i = y * width + x
                    guard luma[i] >= threshold, luma[i] < ceiling,
                          sides.allSatisfy({ Point.dot(p - $0.0, $0.1) >= 2.5 }) else { continue }
                    mask[i] = 1
                    stack.append(i)
                }
            }
        }
        func visit(_ j: Int) {
            if mask[j] == 0 && luma[j] >= threshold && luma[j] < ceiling {
                mask[j] = 1
                stack.append(j)
            }
        }
        while let i = stack.popLast() {
            let x = i % width, y = i / width
            if x > 0 { visit(i - 1) }
            if x < width - 1 { visit(i + 1) }
            if y > 0 { visit(i - width) }
            if y < height - 1 { visit(i + width) }
        }
        return mask
    }

    /// Follows a paper boundary (paper on the `inward` side) from `start` along `direction`,
    /// re-centring on it at each step and turning with it. Empty when it reaches the frame:
    /// there the page is cut by the photo, and its corner is not in view.
    func trackBoundary(_ paper: [UInt8], from start: Point, direction: Point, inward: Point, steps: Int) -> [Point] {
        func isPaper(_ p: Point) -> Bool {
            let x = Int(p.x.rounded(.down)), y = Int(p.y.rounded(.down))
            return x >= 0 && y >= 0 && x < width && y < height && paper[y * width + x] != 0
        }
        var position = start, heading = direction, normal = inward
        var path: [Point] = []
        var gap = 0
        var offsets: [Double] = [0]
        for o in 1...Self.trackingReach { offsets += [-Double(o), Double(o)] }
        for _ in 0..<max(steps, 0) {
            position = position + heading
            var hit: Point?
            for o in offsets {
                let p = position + normal * o
                if isPaper(p + normal * 1.5) && !isPaper(p - normal * 1.5) { hit = p; break }
            }
            guard let found = hit else {
                gap += 1
                if gap >= Self.trackingGap { break }
                continue
            }
            guard found.x >= 2, found.y >= 2, found.x < Double(width - 2), found.y < Double(height - 2) else { return [] }
            gap = 0
            position = found
            path.append(found)
            if path.count >= 6 {
                // Turn with the boundary: a slow blend towards its direction over the last 5 steps.
                let local = (path[path.count - 1] - path[path.count - 6]).unit
                heading = (heading * 0.7 + local * 0.3).unit
                let turned = Point(-heading.y, heading.x)
                normal = Point.dot(turned, normal) >= 0 ? turned : turned * -1
            }
        }
        return path
    }

    /// The share of paper pixels in the triangle `a`, `b`, `c`.
    func paperShare(_ paper: [UInt8], _ a: Point, _ b: Point, _ c: Point) -> Double {
        let x0 = max(0, Int(min(a.x, b.x, c.x).rounded(.down))), x1 = min(width - 1, Int(max(a.x, b.x, c.x)))
        let y0 = max(0, Int(min(a.y, b.y, c.y).rounded(.down))), y1 = min(height - 1, Int(max(a.y, b.y, c.y)))
        guard x0 <= x1, y0 <= y1 else { return 0 }
        let orientation: Double = Point.cross(b - a, c - a) >= 0 ? 1 : -1
        var inside = 0, onPaper = 0
        for y in y0...y1 {
            for x in x0...x1 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                guard orientation * Point.cross(b - a, p - a) >= 0, orientation * Point.cross(c - b, p - b) >= 0,
                      orientation * Point.cross(a - c, p - c) >= 0 else { continue }
                inside += 1
                onPaper += Int(paper[y * width + x])
            }
        }
        return inside > 0 ? Double(onPaper) / Double(inside) : 0
    }
}
