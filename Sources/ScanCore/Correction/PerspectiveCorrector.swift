/// Warps the page inside a quad to an upright rectangle.
///
/// The output size follows the page's edge lengths (the longer of each pair of opposite edges),
/// so the flat page has at least as many pixels as the photo offers. Sampling is bilinear and
/// vectorised over eight output pixels at a time.
public struct PerspectiveCorrector: Sendable {
    /// Refuses outputs larger than this many pixels.
    public var maxOutputPixels: Int

    /// The value written where the map falls outside the source (white paper).
    public var background: UInt8

    public init(maxOutputPixels: Int = 400_000_000, background: UInt8 = 255) {
        self.maxOutputPixels = maxOutputPixels
        self.background = background
    }

    /// The corrected page and the map from source pixels to its pixels.
    public struct Result: Sendable {
        public var image: PixelBuffer
        /// Source pixel coordinates → corrected page coordinates.
        public var homography: Homography
    }

    /// The upright size for a quad: the longer of the two horizontal edges by the longer of the
    /// two vertical edges, rounded. Edges beyond `1 << 30` pixels (or not finite) count as that:
    /// far over any limit, and still an `Int`.
    public static func outputSize(for quad: Quad) -> (width: Int, height: Int) {
        let w = max(quad.topLeft.distance(to: quad.topRight), quad.bottomLeft.distance(to: quad.bottomRight))
        let h = max(quad.topLeft.distance(to: quad.bottomLeft), quad.topRight.distance(to: quad.bottomRight))
        func pixels(_ length: Double) -> Int { length.isFinite && length < Double(1 << 30) ? Int(length.rounded()) : 1 << 30 }
        return (pixels(w), pixels(h))
    }

    /// Checks that a quad can be rectified: convex, with area, and with no corner collapsed.
    public static func validate(_ quad: Quad) throws(ScanCoreError) {
        let c = quad.corners
        guard c.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw ScanCoreError(.degenerateQuad, "the quad has a non-finite corner")
        }
        let (w, h) = outputSize(for: quad)
        guard w >= 2, h >= 2, quad.area >= 4 else {
            throw ScanCoreError(.degenerateQuad, "the quad \(quad) encloses no area")
        }
        guard quad.isConvex, quad.signedArea > 0 else {
            throw ScanCoreError(.degenerateQuad, "the quad \(quad) is not convex in TL, TR, BR, BL order")
        }
    }

    public func correct(_ image: PixelBuffer, quad: Quad) throws(ScanCoreError) -> Result {
        try Self.validate(quad)
        let (w, h) = Self.outputSize(for: quad)
        guard w.multipliedReportingOverflow(by: h).partialValue <= maxOutputPixels, w < 1 << 20, h < 1 << 20 else {
            throw ScanCoreError(.outputTooLarge, "the corrected page would be \(w)×\(h) pixels, over the limit of \(maxOutputPixels)")
        }
        let target = Quad(width: w, height: h)
        let forward = try Homography(mapping: quad.corners, to: target.corners)
        let inverse = try forward.inverted()
        let out = Self.warp(image, outputWidth: w, outputHeight: h, outputToSource: inverse, background: background)
        return Result(image: out, homography: forward)
    }

    /// Samples `source` at `outputToSource(x + ½, y + ½)` for every output pixel (pixel centres),
    /// bilinearly, with the border replicated half a pixel out and `background` beyond.
    public static func warp(
        _ source: PixelBuffer, outputWidth w: Int, outputHeight h: Int,
        outputToSource m: Homography, background: UInt8 = 255
    ) -> PixelBuffer {
        let c = source.format.channels
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * c) { dst, initialized in
            source.pixels.withUnsafeBufferPointer { src in
                let kernel = WarpKernel(
                    src: src, sw: source.width, sh: source.height, channels: c,
                    m: m, background: Float(background))
                for y in 0..<h { kernel.row(y, width: w, into: dst.baseAddress! + y * w * c) }
            }
            initialized = w * h * c
        }
        return PixelBuffer(unchecked: w, h, source.format, pixels)
    }
}

/// The inner loop of the warp. Each output row is processed eight pixels at a time: the source
/// coordinates come from the homography with per-row constants precomputed, so a lane costs two
/// fused multiply-adds and a divide; the four neighbours are gathered and blended in SIMD.
private struct WarpKernel {
    typealias V = SIMD8<Float>
    let src: UnsafeBufferPointer<UInt8>
    let sw: Int, sh: Int, channels: Int
    let m: Homography
    let background: Float

    static let lanes = V(0, 1, 2, 3, 4, 5, 6, 7)

    func row(_ y: Int, width w: Int, into out: UnsafeMutablePointer<UInt8>) {
        if channels == 1 {
            greyRow(y, width: w, into: out)
            return
        }
        let map = RowMap(m, row: y)
        var x = 0
        while x + 8 <= w {
            let (u, v) = map.eight(from: x)
            if inside(u, v) {
                interior(u: u, v: v, out: out + x * channels)
            } else {
                for l in 0..<8 { edge(u: u[l], v: v[l], out: out + (x + l) * channels) }
            }
            x += 8
        }
        tail(from: x, width: w, map: map, into: out)
    }

    /// Where output row `y` samples the source: u = (a·x + a0) / (c·x + c0) and
    /// v = (b·x + b0) / (c·x + c0), with x the output pixel centre, shifted by −½ to address
    /// pixel indices.
    private struct RowMap {
        let a: Float, b: Float, c: Float, a0: Float, b0: Float, c0: Float

        init(_ m: Homography, row y: Int) {
            let yc = Double(y) + 0.5
            a = Float(m.r0.x)
            b = Float(m.r1.x)
            c = Float(m.r2.x)
            a0 = Float(m.r0.y * yc + m.r0.z + m.r0.x * 0.5)
            b0 = Float(m.r1.y * yc + m.r1.z + m.r1.x * 0.5)
            c0 = Float(m.r2.y * yc + m.r2.z + m.r2.x * 0.5)
        }

        /// The positions of output pixels x…x+7.
        @inline(__always)
        func eight(from x: Int) -> (u: V, v: V) {
            let xs = V(repeating: Float(x)) + WarpKernel.lanes
            let wInv = 1 / (xs * c + c0)
            return ((xs * a + a0) * wInv - 0.5, (xs * b + b0) * wInv - 0.5)
        }

        /// The position of output pixel x.
        @inline(__always)
        func one(_ x: Int) -> (u: Float, v: Float) {
            let xf = Float(x)
            let wInv = 1 / (xf * c + c0)
            return ((xf * a + a0) * wInv - 0.5, (xf * b + b0) * wInv - 0.5)
        }
    }

    /// Whether all eight positions have their four neighbours inside the source.
    @inline(__always)
    private func inside(_ u: V, _ v: V) -> Bool {
        all((u .>= 0) .& (u .< Float(sw - 1)) .& (v .>= 0) .& (v .< Float(sh - 1)))
    }

    /// The last pixels of a row that do not fill eight lanes.
    @inline(__always)
    private func tail(from start: Int, width w: Int, map: RowMap, into out: UnsafeMutablePointer<UInt8>) {
        for x in start..<w {
            let (u, v) = map.one(x)
            edge(u: u, v: v, out: out + x * channels)
        }
    }

    /// A grey row: everything the eight-pixel step needs is fixed before the loop (the source's
    /// base address and stride, the limits), so the loop body keeps its values in registers. Kept
    /// out of line, so that the colour path inlined beside it does not crowd those registers.
    @inline(never)
    private func greyRow(_ y: Int, width w: Int, into out: UnsafeMutablePointer<UInt8>) {
        guard let source = src.baseAddress else {  // an empty source: nothing inside it
            out.update(repeating: UInt8(background), count: w)
            return
        }
        let map = RowMap(m, row: y)
        let base = UnsafeRawPointer(source)
        var x = 0
        while x &+ 8 <= w {
            let (u, v) = map.eight(from: x)
            if inside(u, v) {
                interiorGrey(u: u, v: v, base: base, out: out + x)
            } else {
                for l in 0..<8 { edge(u: u[l], v: v[l], out: out + x + l) }
            }
            x &+= 8
        }
        tail(from: x, width: w, map: map, into: out)
    }

    /// Grey fast path in 5-bit fixed point, as OpenCV's INTER_LINEAR does. Coordinates, their
    /// rounding, the source offsets and the four bilinear weights are computed for eight pixels
    /// at once in SIMD. Rounding uses the float trick
    /// `x + 1.5·2²³`, whose low mantissa bits are then the integer: the standard library's
    /// SIMD float-to-integer conversion is not vectorised and would cost more than the sample.
    /// Exact while `32·u` stays below 2²², i.e. for sources under 131 072 pixels a side. Only
    /// the loads are per lane; the blend is SIMD.
    @inline(__always)
    private func interiorGrey(u: V, v: V, base: UnsafeRawPointer, out: UnsafeMutablePointer<UInt8>) {
        let magic = V(repeating: 12_582_912)
        let uq = unsafeBitCast(u * 32 + magic, to: SIMD8<Int32>.self) &- 0x4B40_0000
        let vq = unsafeBitCast(v * 32 + magic, to: SIMD8<Int32>.self) &- 0x4B40_0000
        let fx = uq & 31, fy = vq & 31
        let index = (vq &>> 5) &* Int32(truncatingIfNeeded: sw) &+ (uq &>> 5)
        let w00 = (32 &- fx) &* (32 &- fy), w01 = fx &* (32 &- fy)
        let w10 = (32 &- fx) &* fy, w11 = fx &* fy
        let stride = sw, last = src.count - 1
        // Only the loads are per lane: two neighbouring bytes per load (little-endian: the
        // left one is the low byte), above and below. The blend is SIMD.
        var top = SIMD8<Int32>(), bottom = SIMD8<Int32>()
        if Int((index &+ Int32(truncatingIfNeeded: stride &+ 1)).max()) <= last {
            for l in 0..<8 {
                let i = Int(index[l])
                top[l] = Int32(base.loadUnaligned(fromByteOffset: i, as: UInt16.self))
                bottom[l] = Int32(base.loadUnaligned(fromByteOffset: i &+ stride, as: UInt16.self))
            }
        } else {
            // Rounding puts a position within 1/64 px of the last row or column on it, with
            // weight 0 for the neighbour past it; the loads still stay inside the buffer.
            for l in 0..<8 {
                let i = Int(index[l])
                let j = i &+ stride <= last ? i &+ stride : i
                top[l] = i < last ? Int32(base.loadUnaligned(fromByteOffset: i, as: UInt16.self)) : Int32(base.load(fromByteOffset: i, as: UInt8.self))
                bottom[l] = j < last ? Int32(base.loadUnaligned(fromByteOffset: j, as: UInt16.self)) : Int32(base.load(fromByteOffset: j, as: UInt8.self))
            }
        }
        let sum = (top & 255) &* w00 &+ (top &>> 8) &* w01 &+ (bottom & 255) &* w10 &+ (bottom &>> 8) &* w11
        let result = SIMD8<UInt8>(truncatingIfNeeded: (sum &+ 512) &>> 10)
        UnsafeMutableRawPointer(out).storeBytes(of: result, as: SIMD8<UInt8>.self)
    }

    /// The same for interleaved colour: one coordinate per lane, then every channel.
    @inline(__always)
    private func interior(u: V, v: V, out: UnsafeMutablePointer<UInt8>) {
        let us = u * 1024, vs = v * 1024
        let base = src.baseAddress!
        let stride = sw * channels
        for l in 0..<8 {
            let uq = Int32(us[l]), vq = Int32(vs[l])
            let ax = uq & 1023, ay = vq & 1023
            let i = Int(vq &>> 10) * stride + Int(uq &>> 10) * channels
            for ch in 0..<channels {
                let p00 = Int32(base[i + ch]), p01 = Int32(base[i + channels + ch])
                let p10 = Int32(base[i + stride + ch]), p11 = Int32(base[i + stride + channels + ch])
                let top = p00 &* (1024 &- ax) &+ p01 &* ax
                let bottom = p10 &* (1024 &- ax) &+ p11 &* ax
                out[l * channels + ch] = UInt8(truncatingIfNeeded: (top &* (1024 &- ay) &+ bottom &* ay &+ (1 << 19)) &>> 20)
            }
        }
    }

    /// One sample near or beyond the border.
    @inline(__always)
    private func edge(u: Float, v: Float, out: UnsafeMutablePointer<UInt8>) {
        guard u.isFinite, v.isFinite, u >= -0.5, v >= -0.5, u <= Float(sw) - 0.5, v <= Float(sh) - 0.5 else {
            for ch in 0..<channels { out[ch] = UInt8(background) }
            return
        }
        let uc = min(max(u, 0), Float(sw - 1)), vc = min(max(v, 0), Float(sh - 1))
        let x0 = Int(uc), y0 = Int(vc)
        let x1 = min(x0 + 1, sw - 1), y1 = min(y0 + 1, sh - 1)
        let fx = uc - Float(x0), fy = vc - Float(y0)
        for ch in 0..<channels {
            let p00 = Float(src[(y0 * sw + x0) * channels + ch]), p01 = Float(src[(y0 * sw + x1) * channels + ch])
            let p10 = Float(src[(y1 * sw + x0) * channels + ch]), p11 = Float(src[(y1 * sw + x1) * channels + ch])
            let top = p00 + (p01 - p00) * fx, bottom = p10 + (p11 - p10) * fx
            out[ch] = UInt8(min(max(top + (bottom - top) * fy + 0.5, 0), 255))
        }
    }
}
