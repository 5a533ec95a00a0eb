import Foundation

/// Smoothed gradients of the working copy (detection passes its brightness or its whiteness;
/// of a colour copy, each pixel keeps the channel with the strongest gradient).
struct GradientField {
    let width: Int
    let height: Int
    /// Gradient components of the channel with the strongest gradient at each pixel.
    var gx: [Float]
    var gy: [Float]
    var magnitude: [Float]
    /// Smoothed brightness (mean of the channels).
    var luma: [Float]
    /// Magnitude above which a pixel counts as an edge.
    var threshold: Float = 0
    /// 1 where a light source may lie (`lightMask`); empty: none is looked for.
    var light: [UInt8] = []
    /// What lies round a page from this brightness up is something brighter than its paper,
    /// left out of the ring it is compared with (`interior`).
    var brighterThanPaper: Float = lightLevel
    /// The brightness of what a page lies against where it is the darker side of its edge:
    /// almost none of the page reaches it.
    var lightBeyond: Float = lightLevel

    /// The closing's radius as a share of the working copy's long side: wide enough to wipe
    /// out a line of print, narrow beside a page.
    static let closingShare = 0.015

    /// The view of `image` with light sources marked, and the same view with the print wiped
    /// out (a closing of `closingRadius`). Both judge a side's polarity by the same light
    /// sources, those of the first view, so a side reads the same way round in each.
    static func views(of image: PixelBuffer, closingRadius: Int) -> (field: GradientField, textless: GradientField) {
        var field = GradientField(image), textless = GradientField(image, closingRadius: closingRadius)
        field.light = lightMask(field.luma)
        textless.light = field.light
        return (field, textless)
    }

    /// `closingRadius` > 0 first wipes out dark strokes narrower than about twice that
    /// (text, pens, cables) with a grey closing of each channel.
    init(_ image: PixelBuffer, closingRadius: Int = 0) {
        width = image.width
        height = image.height
        let n = width * height
        let channels = image.format.channels
        gx = [Float](repeating: 0, count: n)
        gy = [Float](repeating: 0, count: n)
        magnitude = [Float](repeating: 0, count: n)
        luma = [Float](repeating: 0, count: n)
        for ch in 0..<channels {
            var plane = [Float](unsafeUninitializedCapacity: n) { out, initialized in
                image.pixels.withUnsafeBufferPointer { src in
                    for i in 0..<n { out[i] = Float(src[i * channels + ch]) }
                }
                initialized = n
            }
            if closingRadius > 0 { plane = Self.closing(plane, width, height, radius: closingRadius) }
            plane = Self.blur(plane, width, height)
            let share = Float(channels)
            plane.withUnsafeBufferPointer { smooth in
                luma.withUnsafeMutableBufferPointer { luma in
                    for i in 0..<n { luma[i] += smooth[i] / share }
                }
            }
            accumulateSobel(plane)
        }
        threshold = edgeThreshold()
    }

    /// Separable [1 4 6 4 1] / 16 smoothing with replicated borders. Each output is summed tap
    /// by tap from the left (top), in the same order at the borders and inside, so the interior
    /// loops can run without clamping and vectorise with the same results.
    static func blur(_ p: [Float], _ w: Int, _ h: Int) -> [Float] {
        var tmp = [Float](repeating: 0, count: p.count)
        var out = [Float](repeating: 0, count: p.count)
        p.withUnsafeBufferPointer { src in
            tmp.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let s = src.baseAddress! + y * w, d = dst.baseAddress! + y * w
                    func clamped(_ x: Int) -> Float {
                        var t: Float = 0
                        t += 1 * s[min(max(x - 2, 0), w - 1)]
                        t += 4 * s[min(max(x - 1, 0), w - 1)]
                        t += 6 * s[min(max(x, 0), w - 1)]
                        t += 4 * s[min(max(x + 1, 0), w - 1)]
                        t += 1 * s[min(max(x + 2, 0), w - 1)]
                        return t / 16
                    }
                    if w < 5 {
                        for x in 0..<w { d[x] = clamped(x) }
                        continue
                    }
                    d[0] = clamped(0)
                    d[1] = clamped(1)
                    for x in 2..<(w - 2) {
                        var t: Float = 0
                        t += 1 * s[x - 2]
                        t += 4 * s[x - 1]
                        t += 6 * s[x]
                        t += 4 * s[x + 1]
                        t += 1 * s[x + 2]
                        d[x] = t / 16
                    }
                    d[w - 2] = clamped(w - 2)
                    d[w - 1] = clamped(w - 1)
                }
            }
        }
        tmp.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let rows = (-2...2).map { src.baseAddress! + min(max(y + $0, 0), h - 1) * w }
                    let r0 = rows[0], r1 = rows[1], r2 = rows[2], r3 = rows[3], r4 = rows[4]
                    let d = dst.baseAddress! + y * w
                    for x in 0..<w {
                        var t: Float = 0
                        t += 1 * r0[x]
                        t += 4 * r1[x]
                        t += 6 * r2[x]
                        t += 4 * r3[x]
                        t += 1 * r4[x]
                        d[x] = t / 16
                    }
                }
            }
        }
        return out
    }

    /// Sobel on one channel; keeps it where it is stronger than the channels before.
    mutating func accumulateSobel(_ p: [Float]) {
        let w = width, h = height
        guard w > 2, h > 2 else { return }
        p.withUnsafeBufferPointer { src in
            magnitude.withUnsafeMutableBufferPointer { mag in
                gx.withUnsafeMutableBufferPointer { gxs in
                    gy.withUnsafeMutableBufferPointer { gys in
                        for y in 1..<(h - 1) {
                            let up = src.baseAddress! + (y - 1) * w, mid = up + w, down = mid + w
                            let m = mag.baseAddress! + y * w, ox = gxs.baseAddress! + y * w, oy = gys.baseAddress! + y * w
                            for x in 1..<(w - 1) {
                                let dx = (up[x + 1] + 2 * mid[x + 1] + down[x + 1]) - (up[x - 1] + 2 * mid[x - 1] + down[x - 1])
                                let dy = (down[x - 1] + 2 * down[x] + down[x + 1]) - (up[x - 1] + 2 * up[x] + up[x + 1])
                                let value = (dx * dx + dy * dy).squareRoot() / 8
                                let stronger = value > m[x]
                                m[x] = stronger ? value : m[x]
                                ox[x] = stronger ? dx : ox[x]
                                oy[x] = stronger ? dy : oy[x]
                            }
                        }
                    }
                }
            }
        }
    }

    /// The pixels, within the frame, whose squares meet the bounding box of `points`; nil where
    /// none do.
    func pixelBox(around points: [Point]) -> (xs: ClosedRange<Int>, ys: ClosedRange<Int>)? {
        let xs = points.map(\.x), ys = points.map(\.y)
        let x0 = max(0, Int((xs.min() ?? 0).rounded(.down))), x1 = min(width - 1, Int((xs.max() ?? -1).rounded(.up)))
        let y0 = max(0, Int((ys.min() ?? 0).rounded(.down))), y1 = min(height - 1, Int((ys.max() ?? -1).rounded(.up)))
        return x0 <= x1 && y0 <= y1 ? (x0...x1, y0...y1) : nil
    }

    /// The brightness of the pixel under `p`; nil outside the frame.
    func level(at p: Point) -> Float? {
        let x = Int(p.x.rounded(.down)), y = Int(p.y.rounded(.down))
        return x >= 0 && y >= 0 && x < width && y < height ? luma[y * width + x] : nil
    }

    /// The 85th percentile of gradient magnitude, but never below a floor that noise reaches.
    func edgeThreshold() -> Float {
        var histogram = [Int](repeating: 0, count: 256)
        for m in magnitude { histogram[min(Int(m), 255)] += 1 }
        let target = Int(Double(magnitude.count) * 0.85)
        var seen = 0
        // Text and clutter dominate the strong gradients; a pale page on a pale desk has a
        // faint edge, so the threshold never climbs above a moderate contrast.
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen >= target { return min(max(Float(value), Self.edgeFloor), 8) }
        }
        return Self.edgeFloor
    }
}
