import Foundation

// Corners of pages whose sides bend.
//
// A curled or folded page's sides are not straight: the line fitted to a whole side is a chord
// of its bend, and two such lines cross away from the page's corner. The corner is where the
// parts of its two sides nearest it meet.

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
        let sides = sidesOf(q)
        let whole = sides.map { Line(through: $0.0, $0.1) }
        // Side k runs from corner k to corner k + 1: the part near its start, and near its end.
        func part(_ k: Int, atStart: Bool) -> Line? {
            if borders[k] { return whole[k] }
            let length = sides[k].0.distance(to: sides[k].1)
            guard length > 0 else { return nil }
            let near = Self.cornerClearance / length, far = Self.cornerReach
            guard far > near else { return nil }
            let span = atStart ? near...far : (1 - far)...(1 - near)
            guard let line = fit(sides[k].0, sides[k].1, polarity: polarity, span: span, minimumShare: Self.minimumCornerEdge),
                  line.angle(to: whole[k]) <= Self.maximumBend else { return nil }
            return line
        }
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
}
