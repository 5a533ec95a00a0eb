import Foundation

// The rest of a sheet past a crease or a shadow's edge, lying in shade at about the desk's
// level.
//
// There its edges step by a grey level or two, under what the level checks of
// `ShadeExtension` can tell from the desk's own shading. But along a straight edge, however
// faint, the gradient points across it at every point, the same way round; on a plain or
// speckled desk it points that way only by chance, at one point in eight. So the part past the
// crease is taken where the points of its three edges (the two sides carried on and the far
// edge) line up so well that chance would line up as many once in ten thousand searches at
// most: the a contrario test of a line segment detector, which asks no step size. What lies
// inside it must be as plain as paper, and what lies past it the desk beside it.

extension GradientField {
    /// A point lines up with an edge where its gradient points within this angle of the edge's
    /// normal, one way round: by chance, at one point in `alignedChance`.
    static let alignedAngle = Double.pi / 8
    static let alignedChance = 1.0 / 8
    /// Points read along an edge this many pixels apart: the smoothing and the Sobel kernel tie
    /// the gradients of nearer points together, and chance counts them as independent.
    static let alignmentSpacing = 3.0
    /// A point on an edge is a peak of the gradient across it: this far either side, the
    /// gradient has fallen to `ridgeFall` of it, as across a step blurred by the working copy's
    /// smoothing. Across a ramp of shading it stays nearly level: that points one way
    /// everywhere, but is no edge.
    static let ridgeReach = 3.0
    static let ridgeFall: Float = 0.8
    /// Under this gradient (grey levels a pixel), a point is on no edge: the gradient of the
    /// light falling off across a desk, which points one way over a whole stretch of it. A step
    /// of a grey level and a half, blurred as the working copy blurs it, reaches it.
    static let leastEdgeGradient: Float = 0.5
    /// The far edge turns from the crease by at most this much (it runs parallel to the crease on
    /// the sheet; perspective turns it a little), and each side by this much at the crease.
    static let maximumFarTurn = 20.0 * Double.pi / 180
    static let maximumSideTurn = 12.0 * Double.pi / 180
    /// How many times as rough as the part in light the part past the crease may be, in the
    /// mean gradient over its inside with the print wiped out: both are paper, smooth in any
    /// light, where a speckled desk or things lying on it are rough.
    static let flapRoughness = 2.0
    /// A mean gradient this low is plain anywhere (noise under a grey level): below it, paper's
    /// is no measure of how rough the part past the crease may be.
    static let plainGradient = 0.25
    /// log10 of the most false alarms allowed a search: one in ten thousand. A photo runs a
    /// dozen searches (each side of each outline read), and a wrong crop is worse than none.
    static let leastMeaning = -4.0

    /// `outline` grown across the side past which the sheet goes on in shade at the desk's
    /// level, to that part's far edge (`faintSheet`, in the view with the print wiped out); nil
    /// where no side has such a part past it.
    func extendedOverFaintSheet(_ outline: ScoredQuad, textless: GradientField) -> ScoredQuad? {
        guard !outline.isFrame else { return nil }
        var best: (quad: Quad, meaning: Double)?
        for k in 0..<4 {
            guard let grown = textless.faintSheet(beyond: k, of: outline.quad), grown.meaning < best?.meaning ?? 0 else { continue }
            best = grown
        }
        return best.map { ScoredQuad(quad: $0.quad, confidence: outline.confidence, isFrame: false, backing: outline.backing) }
    }

    /// The whole sheet where side `k` of `q` is a crease with the rest of the sheet past it, in
    /// this view (the print wiped out), and log10 of its false alarms (below `leastMeaning`);
    /// nil where there is none. Each side meeting the crease is carried on,
    /// turned by up to `maximumSideTurn` as its points line up best, to an end within the
    /// reach of a flap; the far edge joins the two ends. The three edges are one shape, tested
    /// at once: chance would have to line up the points of all three, in any of the shapes
    /// tried.
    func faintSheet(beyond k: Int, of q: Quad) -> (quad: Quad, meaning: Double)? {
        let c = q.corners
        let (a, b) = (c[k], c[(k + 1) % 4])
        guard !liesOnFrame(a, b) else { return nil }
        let depth = depth(across: k, of: q)
        guard depth >= 8 else { return nil }
        let reach = (Self.minimumFlap * depth)...(Self.maximumFlap * depth)
        guard let before = carriedSide(from: a, along: (a - c[(k + 3) % 4]).unit, reach: reach),
              let after = carriedSide(from: b, along: (b - c[(k + 2) % 4]).unit, reach: reach) else { return nil }
        // Every shape tried: each side's turns and ends, the far edge's and each side's polarity.
        let shapes = Double(before.turns * before.ends.count * after.turns * after.ends.count) * 8
        // Each edge must also stand on its own, among the stretches tried for it: one strong edge
        // (the boundary of a shadow on the desk) does not carry two that chance explains.
        let (sideTriesBefore, sideTriesAfter) = (log10(Double(2 * before.turns * before.ends.count)), log10(Double(2 * after.turns * after.ends.count)))
        let farTries = log10(Double(2 * before.ends.count * after.ends.count))
        var best: (from: Point, to: Point, chance: Double)?
        for i in before.ends {
            for j in after.ends {
                let span = j.end - i.end
                guard Point.dot(span.unit, (b - a).unit) >= cos(Self.maximumFarTurn), sideTriesBefore + i.tail <= 0, sideTriesAfter + j.tail <= 0 else { continue }
                let farTail = Self.logTail(alignment(i.end + span * 0.15, i.end + span * 0.85))
                guard farTries + farTail <= 0 else { continue }
                let chance = log10(shapes) + i.tail + j.tail + farTail
                if chance < best?.chance ?? Self.leastMeaning { best = (i.end, j.end, chance) }
            }
        }
        guard let far = best else { return nil }
        var corners = c
        corners[k] = far.from
        corners[(k + 1) % 4] = far.to
        let grown = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        // The far edge is seen: a part running off the frame shows none.
        guard grown.isConvex, grown.signedArea > 0, inFrame(far.from), inFrame(far.to) else { return nil }
        let flap = Quad(topLeft: a, topRight: far.from, bottomRight: far.to, bottomLeft: b)
        guard meanGradient(inside: flap) <= Self.flapRoughness * max(meanGradient(inside: q), Self.plainGradient) else { return nil }
        // Past the far edge lies the desk that lies beside the part past the crease: a far edge
        // found within something else (a printed block, a second sheet) has that beyond it.
        let outside = -7.0 ... -3.0
        guard let beyond = bandLevel(far.from, far.to, depths: outside, over: 0.15...0.85) else { return nil }
        let beside = [bandLevel(a, far.from, depths: outside, over: 0.15...0.85), bandLevel(far.to, b, depths: outside, over: 0.15...0.85)].compactMap { $0 }
        guard beside.contains(where: { abs($0 - beyond) <= Self.minimumPaperStep }) else { return nil }
        return (grown, far.chance)
    }

    /// The side from `start` carried on along `direction`, turned by up to `maximumSideTurn`
    /// (one turn per pixel at its far end) the way its points line up best: each end within
    /// `reach` of `start`, with log10 of the chance of so many of its points lining up to it; and
    /// how many turns were tried. Nil where none of its stretches lines up beyond chance.
    func carriedSide(from start: Point, along direction: Point, reach: ClosedRange<Double>) -> (ends: [(end: Point, tail: Double)], turns: Int)? {
        let spacing = Self.alignmentSpacing
        let count = Int(reach.upperBound / spacing), first = Int((reach.lowerBound / spacing).rounded(.up))
        guard count >= first, count >= 4 else { return nil }
        let normal = Point(-direction.y, direction.x)
        let turns = Int((tan(Self.maximumSideTurn) * reach.upperBound).rounded(.up))
        let tries = Double(2 * (2 * turns + 1) * (count - first + 1))
        var best: (tail: Double, ends: [(end: Point, tail: Double)])?
        for turn in -turns...turns {
            let along = (direction * reach.upperBound + normal * Double(turn)).unit
            let flags = alignedPoints(from: start, along: along, count: count)
            var up = 0, down = 0
            var ends: [(end: Point, tail: Double)] = []
            for i in 0..<count {
                if flags[i] > 0 { up += 1 } else if flags[i] < 0 { down += 1 }
                guard i + 1 >= first else { continue }
                ends.append((start + along * (spacing * Double(i + 1)), Self.logTail((max(up, down), i + 1))))
            }
            if let strongest = ends.map(\.tail).min(), strongest < best?.tail ?? .infinity { best = (strongest, ends) }
        }
        guard let best, log10(tries) + best.tail < 0 else { return nil }
        return (best.ends, 2 * turns + 1)
    }

    /// Whether `p` lies in the frame.
    func inFrame(_ p: Point) -> Bool {
        p.x >= 0 && p.y >= 0 && p.x <= Double(width) && p.y <= Double(height)
    }

    /// Whether each of `count` points, `alignmentSpacing` apart from `start` along `along`, lines
    /// up with an edge running that way: 1 rising to the left of it, -1 falling, 0 neither.
    func alignedPoints(from start: Point, along: Point, count: Int) -> [Int8] {
        let normal = Point(-along.y, along.x)
        return (0..<count).map { i in alignedPoint(start + along * (Self.alignmentSpacing * Double(i + 1)), normal: normal) }
    }

    /// Whether the gradient at `p` points along `normal` (1) or against it (-1), within
    /// `alignedAngle`, on a ridge across it; 0 otherwise, or outside the frame.
    func alignedPoint(_ p: Point, normal: Point) -> Int8 {
        let x = Int(p.x.rounded(.down)), y = Int(p.y.rounded(.down))
        guard x >= 1, y >= 1, x < width - 1, y < height - 1 else { return 0 }
        let i = y * width + x
        let m = magnitude[i]
        guard m >= Self.leastEdgeGradient else { return 0 }
        let across = (Double(gx[i]) * normal.x + Double(gy[i]) * normal.y) / Double(m * 8)
        guard abs(across) >= cos(Self.alignedAngle) else { return 0 }
        for d in [-Self.ridgeReach, Self.ridgeReach] {
            let q = p + normal * d
            let u = Int(q.x.rounded(.down)), v = Int(q.y.rounded(.down))
            guard u >= 0, v >= 0, u < width, v < height else { continue }
            if magnitude[v * width + u] > Self.ridgeFall * m { return 0 }
        }
        return across > 0 ? 1 : -1
    }

    /// Of the points every `alignmentSpacing` px along a → b (clear of its ends by one
    /// spacing), how many line up with it (`alignedPoint`), for the way round that more do; and
    /// how many there are.
    func alignment(_ a: Point, _ b: Point) -> (aligned: Int, points: Int) {
        let length = a.distance(to: b)
        let count = Int(length / Self.alignmentSpacing) - 1
        guard count >= 3 else { return (0, 0) }
        let flags = alignedPoints(from: a, along: (b - a) * (1 / length), count: count)
        let up = flags.filter { $0 > 0 }.count, down = flags.filter { $0 < 0 }.count
        return (max(up, down), count)
    }

    /// log10 of the chance that `count.aligned` of `count.points` points or more line up by
    /// chance (the binomial tail at `alignedChance`).
    static func logTail(_ count: (aligned: Int, points: Int)) -> Double {
        let n = min(count.points, maximumPoints)
        guard n > 0 else { return 0 }
        return logTails[n][min(max(count.aligned, 0), n)]
    }

    /// The most points an edge is read at: more than a working copy's diagonal holds.
    static let maximumPoints = 256
    /// log10 of the binomial tail P(X >= k), X ~ B(n, `alignedChance`), for n up to
    /// `maximumPoints`: read once, for every edge tried.
    static let logTails: [[Double]] = {
        let p = alignedChance
        var logFactorial = [0.0]
        for i in 1...maximumPoints { logFactorial.append(logFactorial[i - 1] + log(Double(i))) }
        return (0...maximumPoints).map { n in
            // From the top down, each tail adds one term to the one above it, in log space.
            var tails = [Double](repeating: 0, count: n + 1)
            var running = -Double.infinity
            for k in stride(from: n, through: 0, by: -1) {
                let term = logFactorial[n] - logFactorial[k] - logFactorial[n - k] + Double(k) * log(p) + Double(n - k) * log(1 - p)
                let high = max(running, term)
                running = high + log(exp(running - high) + exp(term - high))
                tails[k] = running / log(10)
            }
            return tails
        }
    }()

    /// The mean gradient over `q`'s inside (shrunk by a tenth about its centre, clear of its
    /// edges), in this view.
    func meanGradient(inside q: Quad) -> Double {
        let centre = (q.topLeft + q.topRight + q.bottomRight + q.bottomLeft) * 0.25
        let shrunk = q.corners.map { centre + ($0 - centre) * 0.9 }
        let inner = Quad(topLeft: shrunk[0], topRight: shrunk[1], bottomRight: shrunk[2], bottomLeft: shrunk[3])
        guard let box = pixelBox(around: inner.corners) else { return 0 }
        var sum = 0.0, seen = 0
        for y in box.ys {
            for x in box.xs where inner.contains(Point(Double(x) + 0.5, Double(y) + 0.5)) {
                seen += 1
                sum += Double(magnitude[y * width + x])
            }
        }
        return seen > 0 ? sum / Double(seen) : 0
    }
}
