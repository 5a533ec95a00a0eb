import Foundation

// Whether a page stands off what lies round it is read the same way for every cue (chroma for
// the whiteness reading, distance from the surface's colour for the surface reading, brightness
// for a page the whiteness finds where the grey reading saw only the frame): in a band just
// inside its sides against one just outside.

extension PageDetector {
    /// Medians of `value` over a band just inside `quad`'s sides and one just outside, sampled
    /// along the middle 80% of every side from 1% to 3% of `longSide` away from it (`value`
    /// is nil off the image). Nil where too little of either band lies in the frame.
    static func bandMedians(across quad: Quad, longSide: Double, value: (Point) -> Float?) -> (inside: Float, outside: Float)? {
        let centre = (quad.topLeft + quad.topRight + quad.bottomRight + quad.bottomLeft) * 0.25
        let corners = quad.corners
        var inside: [Float] = [], outside: [Float] = []
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            guard a.distance(to: b) > 0 else { continue }
            var outward = Line(through: a, b).normal
            if Point.dot(centre - a, outward) > 0 { outward = outward * -1 }
            for i in 0..<60 {
                let p = a + (b - a) * (0.1 + 0.8 * Double(i) / 59)
                for j in 0..<4 {
                    let depth = (0.01 + 0.02 * Double(j) / 3) * longSide
                    if let v = value(p + outward * depth) { outside.append(v) }
                    if let v = value(p - outward * depth) { inside.append(v) }
                }
            }
        }
        guard inside.count >= leastBandSamples, outside.count >= leastBandSamples,
              let within = inside.selectKth(inside.count / 2), let beyond = outside.selectKth(outside.count / 2)
        else { return nil }
        return (within, beyond)
    }

    /// Samples each band must have in the frame for `bandMedians` to tell: a side's worth.
    static let leastBandSamples = 240

    /// How much brighter the band just inside `quad`'s sides is than the band just outside, in
    /// grey levels of `grey` (`bandMedians`). Nil where too little of either band lies in the
    /// frame.
    static func brightnessStep(across quad: Quad, grey: PixelBuffer) -> Float? {
        bandMedians(across: quad, longSide: Double(max(grey.width, grey.height))) { p in
            grey.pixelIndex(at: p).map { Float(grey.pixels[$0]) }
        }.map { $0.inside - $0.outside }
    }
}
