import Foundation

// Corners of pages whose sides bend.
//
// A curled or folded page's sides are not straight: the line fitted to a whole side is a chord
// of its bend, and two such lines cross away from the page's corner. The corner is where the
// parts of its two sides nearest it meet. Where a side bends further than a fit along its line
// looks, that part is found by following the side's edge from its middle (`bentCorners`).

extension GradientField {
    /// Working pixels left out next to a corner, which the working copy's smoothing rounds ...
    static let cornerClearance = 3.0
    /// ... and the share of a side, from the corner, whose edge is fitted there.
    static let cornerReach = 0.3
    /// Of those steps, at least this share must show the edge.
    static let minimumCornerEdge = 0.5
    /// The part near a corner may turn from the whole side's line by this much: a page's edge
    /// bends by a few degrees; more is something crossing the corner (a pen, a cable, a hand).
    static let maximumBend = 8.0 * .pi / 180
    /// A corner moves only this far or further, in working pixels.
    static let minimumCornerShift = 0.5

    /// `q` with each corner where the parts of its two sides nearest it meet. A corner keeps
    /// its place where either part shows too little edge or turns too far, or where it would
    /// hardly move; a side along the frame keeps its line.
    func cornersFromEnds(_ q: Quad, borders: [Bool], polarity: Double) -> Quad {
        func part(_ k: Int, atStart: Bool) -> Line? { endPart(k, of: q, atStart: atStart, borders: borders, polarity: polarity) }
        var corners = q.corners
        for i in 0..<4 {
            let leaving = i, arriving = (i + 3) % 4
            guard !(borders[leaving] && borders[arriving]),
                  let a = part(leaving, atStart: true), let b = part(arriving, atStart: false),
                  let corner = a.intersection(b) else { continue }
            // A smaller shift is the short fit's own noise: edge pixels lie on whole pixels.
            if corner.distance(to: q.corners[i]) >= Self.minimumCornerShift { corners[i] = corner }
        }
        let fitted = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        return fitted.isConvex ? fitted : q
    }

    /// Side `k` of `q` runs from corner k to corner k + 1: the line of its part near its start,
    /// or near its end, fitted to its edge; nil where that shows too little edge or turns too far.
    func endPart(_ k: Int, of q: Quad, atStart: Bool, borders: [Bool], polarity: Double) -> Line? {
        let side = sidesOf(q)[k], whole = Line(through: side.0, side.1)
        if borders[k] { return whole }
        let length = side.0.distance(to: side.1)
        guard length > 0 else { return nil }
        let near = Self.cornerClearance / length, far = Self.cornerReach
        guard far > near else { return nil }
        let span = atStart ? near...far : (1 - far)...(1 - near)
        guard let line = fit(side.0, side.1, polarity: polarity, span: span, minimumShare: Self.minimumCornerEdge),
              line.angle(to: whole) <= Self.maximumBend else { return nil }
        return line
    }

    /// `q` with each corner where a side meeting it bends near it moved to where the parts of
    /// the two sides nearest it meet (`bentCorner`), judged against the levels of its paper and
    /// what it lies on. A side along the frame (within a pixel) is the frame's, and straight.
    func bentCorners(_ q: Quad, textless: GradientField?) -> Quad {
        guard let levels = interior(q) else { return q }
        let w = Double(width), h = Double(height)
        let borders = sidesOf(q).map { a, b in
            [a.x, b.x].allSatisfy { $0 < 1 } || [a.y, b.y].allSatisfy { $0 < 1 } || [a.x, b.x].allSatisfy { $0 > w - 1 } || [a.y, b.y].allSatisfy { $0 > h - 1 }
        }
        var corners = q.corners
        for i in 0..<4 where !(borders[i] && borders[(i + 3) % 4]) {
            if let corner = bentCorner(i, of: q, borders: borders, textless: textless, paper: (levels.inside + levels.outside) / 2) {
                corners[i] = corner
            }
        }
        let bent = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        return bent.isConvex ? bent : q
    }

    /// Where corner `i` of `q` lies when a side meeting it bends near it, by more than `fit`
    /// looks across it: where the parts of the two sides nearest it meet, each followed from
    /// its side's middle (`tracedEnd`), or fitted (`endPart`) where it runs straight on. That is
    /// where both sides' edges end (a side followed along the rim of a mug over the corner ends
    /// where that turns away, not at the other side), and the move must give up what lies
    /// outside the page and take in paper (`keepsPaper`, against `paper`). The sides are
    /// followed both in this view and with the print wiped out (`textless`), and the two must
    /// agree: in this view a cable crossing a side can lead it off, and with the print wiped
    /// out, bright clutter touching the page can.
    func bentCorner(_ i: Int, of q: Quad, borders: [Bool], textless: GradientField?, paper: Float) -> Point? {
        let sides = sidesOf(q)
        let meeting = [(side: i, atStart: true), (side: (i + 3) % 4, atStart: false)]
        func corner(in view: GradientField) -> Point? {
            var parts: [(line: Line, end: Point?)] = [], bent = false
            for (k, atStart) in meeting {
                if borders[k] {
                    parts.append((Line(through: sides[k].0, sides[k].1), nil))
                    continue
                }
                guard let traced = view.tracedEnd(sides[k].0, sides[k].1, atStart: atStart) else { return nil }
                if traced.off > Double(Self.fitReach) {
                    bent = true
                    parts.append((traced.line, traced.end))
                } else {
                    parts.append((endPart(k, of: q, atStart: atStart, borders: borders, polarity: 1) ?? traced.line, traced.end))
                }
            }
            guard bent, let corner = parts[0].line.intersection(parts[1].line),
                  parts.allSatisfy({ $0.end.map { $0.distance(to: corner) <= Self.traceMeet } ?? true }),
                  keepsPaper(moving: i, of: q, to: corner, threshold: paper) else { return nil }
            return corner
        }
        guard let found = corner(in: self) else { return nil }
        if let textless {
            guard let wiped = corner(in: textless), wiped.distance(to: found) <= Self.viewsAgree else { return nil }
        }
        return found
    }

    /// Whether moving corner `i` of `q` to `corner` gives up what lies outside a page and takes
    /// in paper, near the corner (within the move of the two corners' midpoint; further off, a
    /// chord of a bent side cuts paper off or takes desk in whichever corner is right): most
    /// of what it gives up is darker than `threshold` (halfway between paper and ground), most
    /// of what it takes in brighter. A side followed off the page along a shadow's edge or a
    /// cable gives up paper, or takes in the desk.
    func keepsPaper(moving i: Int, of q: Quad, to corner: Point, threshold: Float) -> Bool {
        var moved = q.corners
        moved[i] = corner
        let m = Quad(topLeft: moved[0], topRight: moved[1], bottomRight: moved[2], bottomLeft: moved[3])
        let centre = (q.corners[i] + corner) * 0.5, radius = q.corners[i].distance(to: corner)
        guard let box = pixelBox(around: [centre - Point(radius, radius), centre + Point(radius, radius)]) else { return false }
        var givenUp = 0, paperGivenUp = 0, takenIn = 0, paperTakenIn = 0
        for y in box.ys {
            for x in box.xs {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                let before = q.contains(p), after = m.contains(p)
                guard before != after, p.distance(to: centre) <= radius else { continue }
                let paper = luma[y * width + x] >= threshold ? 1 : 0
                if before { givenUp += 1; paperGivenUp += paper } else { takenIn += 1; paperTakenIn += paper }
            }
        }
        return 2 * paperGivenUp <= givenUp && 2 * paperTakenIn >= takenIn
    }

    /// The line of the part of side a → b nearest one end (`cornerReach` of it, clear of the
    /// corner), found by following its edge from the side's middle: where a fold or a curl bends
    /// the side, its end part leaves the whole side's line by more than `fit` looks across it.
    /// The edge is followed one pixel at a time, looked for within `traceWindow` of where its
    /// last stretch heads; nil where it breaks off for more than `traceGap` before that part, or
    /// where the part found turns from the whole side by over `maximumFoldBend`.
    func tracedEnd(_ a: Point, _ b: Point, atStart: Bool) -> (line: Line, end: Point, off: Double)? {
        let length = a.distance(to: b)
        guard length >= 16 else { return nil }
        let d = (b - a) * (1 / length), inward = Point(-d.y, d.x)
        var heading = atStart ? d * -1 : d
        // The inside stays on the same hand whichever way the side is followed.
        func inwardOf(_ h: Point) -> Point { atStart ? Point(h.y, -h.x) : Point(-h.y, h.x) }
        func edgePoint(near p: Point, across n: Point) -> Point? {
            let local = light.withUnsafeBufferPointer { edgePolarity($0, p.x, p.y, n.x, n.y) }
            var best: Float = 0, found: Point?
            for o in -Self.traceWindow...Self.traceWindow {
                let x = Int((p.x + n.x * Double(o)).rounded(.down)), y = Int((p.y + n.y * Double(o)).rounded(.down))
                guard x >= 1, y >= 1, x < width - 1, y < height - 1 else { continue }
                let i = y * width + x, m = magnitude[i]
                guard m >= threshold, m > best,
                      local * (Double(gx[i]) * n.x + Double(gy[i]) * n.y) / Double(m * 8) > 0.9 else { continue }
                // A page's edge steps from paper to what lies past it; a speckled desk's grain
                // has edges every way, with no step across them a few pixels out.
                let at = Point(Double(x) + 0.5, Double(y) + 0.5)
                guard let inside = level(at: at + n * Self.traceProbe), let outside = level(at: at - n * Self.traceProbe),
                      Float(local) * (inside - outside) >= Self.minimumPaperStep else { continue }
                best = m
                found = at
            }
            return found
        }
        // It starts from the side's middle, or, where a fold there bends the side off the line
        // through its ends, the nearest point along it where the edge lies on that line.
        guard let (start, p0) = Self.traceStarts.lazy.compactMap({ t in edgePoint(near: a + d * (length * t), across: inward).map { (t, $0) } }).first
        else { return nil }
        var p = p0
        var trail = [p]
        var gap = 0
        // Far enough to pass the corner where the side bends outward, as a lifted flap's does.
        for _ in 0..<Int(length * ((atStart ? start : 1 - start) + 0.1)) {
            if let next = edgePoint(near: p + heading, across: inwardOf(heading)) {
                p = next
                trail.append(p)
                gap = 0
            } else {
                p = p + heading
                gap += 1
                if gap > Self.traceGap { break }
            }
            if trail.count > Self.traceStretch {
                let back = trail[trail.count - 1 - Self.traceStretch]
                let run = trail[trail.count - 1] - back
                let norm = run.distance(to: Point(0, 0))
                if norm > 0 { heading = run * (1 / norm) }
            }
        }
        // The part nearest the end the trail reached, clear of the corner its smoothing rounds.
        let reach = Int(Self.cornerReach * length), clear = Int(Self.cornerClearance)
        guard trail.count > reach / 2 + clear else { return nil }
        let part = trail[max(trail.count / 2, trail.count - clear - reach)..<(trail.count - clear)]
        let whole = Line(through: a, b)
        guard part.count >= 8, let line = Self.lineFit(part.map { ($0, 1.0) }), line.angle(to: whole) <= Self.maximumFoldBend,
              let end = part.last else { return nil }
        return (line, trail[trail.count - 1], abs(end.x * whole.cosTheta + end.y * whole.sinTheta - whole.rho))
    }

    /// Where along a side (as a share of it) a followed edge may start, nearest the middle first.
    static let traceStarts = [0.5, 0.4, 0.6, 0.3, 0.7]
    /// How far across the heading of its last `traceStretch` px an edge is looked for ...
    static let traceWindow = 2
    /// How far across a side `fit` looks for its edge.
    static let fitReach = 3
    static let traceStretch = 8
    /// ... how many steps it may break off for ...
    static let traceGap = 3
    /// How far either side of a followed edge its step is read.
    static let traceProbe = 3.0
    /// A bent side's corner lies within this of where both sides' edges were followed to.
    static let traceMeet = 4.0
    /// A bent side's corner found in both views lies within this of itself.
    static let viewsAgree = 2.0
    /// ... and how far its end part may turn from the whole side.
    static let maximumFoldBend = 20.0 * .pi / 180
}
