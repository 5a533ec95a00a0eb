import Foundation

// The outline placed on the source's own pixels.
//
// The search runs on a working copy where one pixel is 3 to 10 source pixels and an edge is
// found on whole pixels, so a corner found there can be several source pixels off. Each side's
// edge is found again in the source, across the side, to a fraction of a pixel; each corner
// moves to where the parts of its two sides nearest it meet, as `CornerFit` does at working
// size, so a curled page's corners stay on its ends.

extension PixelBuffer {
    /// How far across a side its edge is looked for, in working pixels: the working outline
    /// is within one of the edge on a page it found.
    static let refinementReach = 2.0
    /// A corner found again further than this from where it was, in working pixels, is not
    /// the same corner (a pen, a shadow or a row of print took the place of the edge).
    static let maximumRefinementShift = 1.5
    /// Of the profiles across a side's part nearest a corner, this share must find the same
    /// straight edge.
    static let minimumRefinedShare = 0.5
    /// A refitted side may turn from the working side by this much.
    static let maximumRefinementTurn = 2.0 * .pi / 180
    /// The mean step, in grey levels, an edge must show across a profile: above JPEG noise.
    static let minimumProfileStep = 3.0
    /// How far, in working pixels, the points of one straight edge may lie from its line: an
    /// edge bends a little near a curled corner, and noise scatters across the whole reach.
    static let maximumScatter = 0.5

    struct EdgeProfile {
        var steps: [Double]
        var t: Double
        var base: Point
    }

    /// `quad` (source pixels, found on a copy `scale` times smaller) with each corner where the
    /// edges of its two sides, found again in these pixels, meet near it. A corner keeps its
    /// place where neither side shows one straight edge or where the new place is too far off;
    /// a side along the frame keeps its line.
    func refinedOutline(_ quad: Quad, scale: Double) -> Quad {
        guard scale > 1 else { return quad }
        let c = quad.corners
        // Side k runs from corner k to corner k + 1: the line of its part nearest its start, and
        // nearest its end (`cornerReach` of it, as in `CornerFit`).
        var parts: [[Line?]] = []
        for k in 0..<4 {
            let a = c[k], b = c[(k + 1) % 4]
            guard !alongFrame(a, b, within: scale) else {
                parts.append([nil, nil])
                continue
            }
            let profiles = edgeProfiles(from: a, to: b, scale: scale)
            let whole = Line(through: a, b)
            let inward = whole.normal
            let reach = GradientField.cornerReach
            parts.append([0...reach, (1 - reach)...1].map { span in
                let near = profiles.filter { span.contains($0.t) }
                guard let fit = Self.robustLine(Self.edgePoints(near, inward: inward), tolerance: Self.maximumScatter * scale),
                      Double(fit.kept) >= Self.minimumRefinedShare * Double(near.count),
                      fit.line.angle(to: whole) <= Self.maximumRefinementTurn else { return nil }
                return fit.line
            })
        }
        var corners = c
        for i in 0..<4 {
            let leaving = i, arriving = (i + 3) % 4
            let a = parts[leaving][0] ?? Line(through: c[leaving], c[(leaving + 1) % 4])
            let b = parts[arriving][1] ?? Line(through: c[arriving], c[(arriving + 1) % 4])
            guard parts[leaving][0] != nil || parts[arriving][1] != nil, let corner = a.intersection(b),
                  corner.distance(to: c[i]) <= Self.maximumRefinementShift * scale else { continue }
            corners[i] = corner
        }
        let refined = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        return refined.isConvex ? refined : quad
    }

    /// Whether the side a → b lies along one edge of the frame, within `tolerance` pixels.
    private func alongFrame(_ a: Point, _ b: Point, within tolerance: Double) -> Bool {
        let w = Double(width), h = Double(height)
        return (a.x < tolerance && b.x < tolerance) || (a.y < tolerance && b.y < tolerance)
            || (a.x > w - tolerance && b.x > w - tolerance) || (a.y > h - tolerance && b.y > h - tolerance)
    }

    /// Profiles across the side a → b, clear of its corners: about one every two working
    /// pixels' worth of source, at least 16 and at most 256. Each holds the step across the
    /// side between samples d and d + 1 at `steps[d + reach]`, for d within `refinementReach`
    /// working pixels either side; where it lies along the side (0 at a, 1 at b); and the
    /// points on the side and into the page from which d is measured.
    private func edgeProfiles(from a: Point, to b: Point, scale: Double) -> [EdgeProfile] {
        let length = a.distance(to: b)
        let clearance = 3 * scale
        guard length > 4 * clearance else { return [] }
        let along = (b - a) * (1 / length)
        let inward = Point(-along.y, along.x)
        let reach = Int((Self.refinementReach * scale).rounded(.up))
        // The step is the mean of `half` samples inside less the mean of `half` outside: about
        // half a working pixel each way, which averages noise, not the edge's place.
        let half = max(1, Int((scale / 2).rounded()))
        let count = max(16, min(256, Int(length / scale * 2)))
        // Each sample averages three points along the side, half a working pixel apart.
        let spread = scale / 2
        var profiles: [EdgeProfile] = []
        var samples = [Double](repeating: 0, count: 2 * (reach + half) + 1)
        for j in 0..<count {
            let s = clearance + (length - 2 * clearance) * (Double(j) + 0.5) / Double(count)
            let base = a + along * s
            var inside = true
            for (k, d) in (-(reach + half)...(reach + half)).enumerated() {
                let p = base + inward * Double(d)
                guard let l0 = luma(at: p - along * spread), let l1 = luma(at: p), let l2 = luma(at: p + along * spread) else {
                    inside = false
                    break
                }
                samples[k] = (l0 + l1 + l2) / 3
            }
            guard inside else { continue }
            var steps = [Double](repeating: 0, count: 2 * reach + 1)
            for d in -reach...reach {
                let k = d + reach + half
                var up = 0.0, down = 0.0
                for m in 0..<half {
                    up += samples[k + 1 + m]
                    down += samples[k - m]
                }
                steps[d + reach] = (up - down) / Double(half)
            }
            profiles.append(EdgeProfile(steps: steps, t: s / length, base: base))
        }
        return profiles
    }

    /// Where the edge lies across each of `profiles`: the strongest step of the sign most of
    /// them show (brighter inside, for a page on a desk; darker, against a light behind it),
    /// inside the reach, not at its ends, placed to a fraction of a pixel.
    private static func edgePoints(_ profiles: [EdgeProfile], inward: Point) -> [Point] {
        let rising = profiles.filter { ($0.steps.max() ?? 0) >= -($0.steps.min() ?? 0) }.count
        let sign = 2 * rising >= profiles.count ? 1.0 : -1.0
        return profiles.compactMap { profile in
            let steps = profile.steps, reach = steps.count / 2
            guard let i = steps.indices.max(by: { sign * steps[$0] < sign * steps[$1] }),
                  i > 0, i < steps.count - 1, sign * steps[i] >= Self.minimumProfileStep else { return nil }
            let l = sign * steps[i - 1], m = sign * steps[i], r = sign * steps[i + 1]
            let curvature = l - 2 * m + r
            let shift = curvature < 0 ? 0.5 * (l - r) / curvature : 0
            return profile.base + inward * (Double(i - reach) + 0.5 + shift)
        }
    }

    /// The line through most of `points`: a total least-squares fit, refitted without the points
    /// further from it than three robust deviations (at least a pixel, at most `tolerance`),
    /// twice; and how many points lie that close to it. Nil where fewer than 8 are left.
    static func robustLine(_ points: [Point], tolerance: Double) -> (line: Line, kept: Int)? {
        guard points.count >= 8 else { return nil }
        var kept = points
        var line: Line?
        for _ in 0..<3 {
            guard kept.count >= 8, let fitted = GradientField.lineFit(kept.map { ($0, 1.0) }) else { return nil }
            line = fitted
            var residuals = kept.map { Float(abs(Point.dot($0, fitted.normal) - fitted.rho)) }
            guard let median = residuals.selectKth(residuals.count / 2) else { return nil }
            let limit = min(max(1, 3 * 1.4826 * Double(median)), max(1, tolerance))
            kept = kept.filter { abs(Point.dot($0, fitted.normal) - fitted.rho) <= limit }
        }
        guard let line else { return nil }
        return (line, kept.count)
    }

    /// The brightness at `p` (pixel corners at whole numbers), interpolated between the four
    /// nearest pixel centres; nil outside the image.
    @inline(__always)
    private func luma(at p: Point) -> Double? {
        let u = p.x - 0.5, v = p.y - 0.5
        guard u >= 0, v >= 0, u <= Double(width - 1), v <= Double(height - 1) else { return nil }
        let x0 = min(Int(u), max(width - 2, 0)), y0 = min(Int(v), max(height - 2, 0))
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = u - Double(x0), fy = v - Double(y0)
        let top = value(x0, y0) * (1 - fx) + value(x1, y0) * fx
        let bottom = value(x0, y1) * (1 - fx) + value(x1, y1) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// A pixel's brightness: its grey level, or its Rec. 601 luma.
    @inline(__always)
    private func value(_ x: Int, _ y: Int) -> Double {
        switch format {
        case .gray:
            return Double(pixels[y * width + x])
        case .rgb:
            let i = (y * width + x) * 3
            return 0.299 * Double(pixels[i]) + 0.587 * Double(pixels[i + 1]) + 0.114 * Double(pixels[i + 2])
        }
    }
}
