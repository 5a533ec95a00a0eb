import Foundation

extension GradientField {
    /// Across a side, where `support` looks for its edge: on it, then 1 and 2 px either side.
    static let supportOffsets: [Double] = [0, -1, 1, -2, 2]

    /// What a side along the image frame counts for: the frame is a weak edge.
    static let borderSupport = 0.45

    /// Brightness that lit paper stays below and a light source in the photo (a window, a lamp
    /// panel), exposed for the page, clips at. Where one lies outside a side, the page is the
    /// darker side of its edge there. (A page held up with its face turned from the light is
    /// darker than a wall that is no light source: see `HeldUpReading`.)
    static let lightLevel: Float = 240
    /// How far outside a side, in working pixels, the light is looked for.
    static let lightProbe = 5.0

    /// 1 = the pixel is bright enough to be a light source (`lightLevel`).
    static func lightMask(_ luma: [Float]) -> [UInt8] {
        luma.map { $0 >= lightLevel ? 1 : 0 }
    }

    /// The polarity a page edge has at (`px`, `py`) on a side with inward normal (`nx`, `ny`):
    /// −1 where a light source lies just outside, 1 elsewhere. A light is brighter than the
    /// page beside it: in an over-exposed photo a light desk reaches the light level too, but
    /// the paper on it, clipped, is brighter still by a paper step. (Paper as bright on both
    /// sides is a flat scan's, and its light level still marks it.)
    @inline(__always)
    func edgePolarity(_ light: UnsafeBufferPointer<UInt8>, _ px: Double, _ py: Double, _ nx: Double, _ ny: Double) -> Double {
        guard !light.isEmpty else { return 1 }
        let x = Int((px - nx * Self.lightProbe).rounded(.down)), y = Int((py - ny * Self.lightProbe).rounded(.down))
        guard x >= 0, y >= 0, x < width, y < height, light[y * width + x] != 0 else { return 1 }
        let u = Int((px + nx * Self.lightProbe).rounded(.down)), v = Int((py + ny * Self.lightProbe).rounded(.down))
        guard u >= 0, v >= 0, u < width, v < height else { return -1 }
        return luma[v * width + u] >= luma[y * width + x] + Self.minimumPaperStep ? 1 : -1
    }

    /// The share of a segment backed by an edge whose gradient points across the segment, with
    /// brightness rising inwards (`polarity` 1) or outwards (−1), the other way where a light
    /// source lies outside. Corners run clockwise, so the normal (−dy, dx) points into the quad.
    /// `threshold` (default: the field's) is the gradient magnitude that counts as an edge.
    func support(_ a: Point, _ b: Point, polarity: Double, threshold: Float? = nil) -> Double {
        let count = edgeCount(a, b, polarity: polarity, threshold: threshold)
        // Parts outside the frame count as unsupported.
        return Double(count.hits) / Double(max(count.steps, 1))
    }

    /// `support`'s count: of the `steps` along the segment (`inView` of them inside the
    /// frame), the `hits` backed by an edge.
    func edgeCount(_ a: Point, _ b: Point, polarity: Double, threshold: Float? = nil) -> (hits: Int, steps: Int, inView: Int) {
        let length = a.distance(to: b)
        guard length >= 2 else { return (0, 0, 0) }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = -dy, ny = dx
        let steps = Int(length)
        let width = self.width, height = self.height, threshold = threshold ?? self.threshold
        var hits = 0, inView = 0
        let offsets = Self.supportOffsets
        magnitude.withUnsafeBufferPointer { magnitude in
            gx.withUnsafeBufferPointer { gx in
                gy.withUnsafeBufferPointer { gy in
                    light.withUnsafeBufferPointer { light in
                        for s in 0..<steps {
                            let t = (Double(s) + 0.5)
                            let px = a.x + dx * t, py = a.y + dy * t
                            let polarity = polarity * edgePolarity(light, px, py, nx, ny)
                            if px >= 1, py >= 1, px < Double(width - 1), py < Double(height - 1) { inView += 1 }
                            for o in offsets {
                                let x = Int((px + nx * o).rounded(.down)), y = Int((py + ny * o).rounded(.down))
                                guard x >= 1, y >= 1, x < width - 1, y < height - 1 else { continue }
                                let i = y * width + x
                                let m = magnitude[i]
                                guard m >= threshold else { continue }
                                let cosine = polarity * (Double(gx[i]) * nx + Double(gy[i]) * ny) / Double(m * 8)
                                if cosine > 0.85 { hits += 1; break }
                            }
                        }
                    }
                }
            }
        }
        return (hits, steps, inView)
    }

    /// Refits each non-border side to the edge pixels near it (weighted total least squares).
    func refine(_ q: Quad, sides: [Line], polarity: Double) -> Quad {
        var fitted: [Line] = []
        for (i, (a, b)) in sidesOf(q).enumerated() {
            guard !sides[i].isBorder, let line = fit(a, b, polarity: polarity) else {
                fitted.append(sides[i])
                continue
            }
            fitted.append(line)
        }
        guard let tl = fitted[0].intersection(fitted[3]), let tr = fitted[0].intersection(fitted[1]),
              let br = fitted[2].intersection(fitted[1]), let bl = fitted[2].intersection(fitted[3])
        else { return q }
        let refined = Quad(topLeft: tl, topRight: tr, bottomRight: br, bottomLeft: bl)
        // Keep the refinement only when it stays close to the Hough answer.
        let moved = zip(refined.corners, q.corners).map { $0.distance(to: $1) }.max() ?? 0
        return refined.isConvex && moved < Double(max(width, height)) * 0.03 ? refined : q
    }

    /// The line through the edge pixels along `span` of the side from `a` to `b` (default: all
    /// but its ends, where the neighbouring side's edge lies); nil where fewer than
    /// `minimumShare` of its steps show one.
    func fit(_ a: Point, _ b: Point, polarity: Double, span: ClosedRange<Double> = 0.08...0.92, minimumShare: Double = 0) -> Line? {
        let length = a.distance(to: b)
        guard length >= 8 else { return nil }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = -dy, ny = dx
        let start = Int(length * span.lowerBound), end = Int(length * span.upperBound)
        guard end > start + 2 else { return nil }
        var points: [(Point, Double)] = []
        points.reserveCapacity(end - start)
        for s in start..<end {
            let px = a.x + dx * Double(s), py = a.y + dy * Double(s)
            let polarity = polarity * light.withUnsafeBufferPointer { edgePolarity($0, px, py, nx, ny) }
            // The strongest aligned edge pixel across the side within ±3 px.
            var bestM: Float = 0, bestPoint = Point(0, 0)
            for o in -3...3 {
                let x = Int((px + nx * Double(o)).rounded(.down)), y = Int((py + ny * Double(o)).rounded(.down))
                guard x >= 1, y >= 1, x < width - 1, y < height - 1 else { continue }
                let i = y * width + x
                let m = magnitude[i]
                guard m >= threshold, m > bestM else { continue }
                let cosine = polarity * (Double(gx[i]) * nx + Double(gy[i]) * ny) / Double(m * 8)
                guard cosine > 0.9 else { continue }
                bestM = m
                bestPoint = Point(Double(x) + 0.5, Double(y) + 0.5)
            }
            if bestM > 0 { points.append((bestPoint, Double(bestM))) }
        }
        guard !points.isEmpty, Double(points.count) >= minimumShare * Double(end - start) else { return nil }
        return Self.lineFit(points)
    }

    /// Weighted total least squares: the line through the weighted mean along the covariance's
    /// major axis.
    static func lineFit(_ points: [(Point, Double)]) -> Line? {
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
        for (p, w) in points {
            sw += w
            sx += w * p.x
            sy += w * p.y
            sxx += w * p.x * p.x
            syy += w * p.y * p.y
            sxy += w * p.x * p.y
        }
        guard sw > 0 else { return nil }
        let mx = sx / sw, my = sy / sw
        let cxx = sxx / sw - mx * mx, cyy = syy / sw - my * my, cxy = sxy / sw - mx * my
        // The normal is the eigenvector of the smaller eigenvalue of the covariance.
        let angle = 0.5 * atan2(2 * cxy, cxx - cyy)  // direction of the line
        let theta = angle + .pi / 2
        return Line(theta: theta, rho: mx * cos(theta) + my * sin(theta))
    }
}
