/// An 8-bit image held in memory.
///
/// Pixels are stored row-major in one contiguous array with no row padding, origin at the top
/// left. A `.gray` buffer has one byte per pixel; an `.rgb` buffer has three interleaved bytes
/// (red, green, blue) per pixel.
public struct PixelBuffer: Sendable, Equatable {
    public enum Format: Int, Sendable, Codable {
        case gray = 1
        case rgb = 3

        public var channels: Int { rawValue }
    }

    public let width: Int
    public let height: Int
    public let format: Format
    public var pixels: [UInt8]

    /// Wraps existing pixels; throws when the element count does not match the geometry.
    public init(width: Int, height: Int, format: Format, pixels: [UInt8]) throws(ScanCoreError) {
        guard width > 0, height > 0 else {
            throw ScanCoreError(.invalidImage, "image size \(width)×\(height) is empty")
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height * format.channels)
        guard !overflow, count == pixels.count else {
            throw ScanCoreError(.invalidImage, "\(pixels.count) bytes do not make a \(width)×\(height) \(format) image")
        }
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// A buffer filled with one value in every channel.
    public init(width: Int, height: Int, format: Format, fill: UInt8) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.format = format
        self.pixels = [UInt8](repeating: fill, count: self.width * self.height * format.channels)
    }

    public var pixelCount: Int { width * height }
    public var bytesPerRow: Int { width * format.channels }

    /// Rec. 601 luma weights (the ones Leptonica and OpenCV use), fixed point, summing to 1 << 16.
    public static let lumaWeights = (red: 19595, green: 38470, blue: 7471)

    /// The buffer as grey, using the Rec. 601 luma weights (`lumaWeights`).
    public func grayscale() -> PixelBuffer {
        guard format == .rgb else { return self }
        let n = pixelCount
        let grey = [UInt8](unsafeUninitializedCapacity: n) { out, initialized in
            pixels.withUnsafeBufferPointer { src in
                let wr = UInt32(Self.lumaWeights.red), wg = UInt32(Self.lumaWeights.green), wb = UInt32(Self.lumaWeights.blue)
                for i in 0..<n {
                    let r = UInt32(src[3 * i]), g = UInt32(src[3 * i + 1]), b = UInt32(src[3 * i + 2])
                    out[i] = UInt8(truncatingIfNeeded: (wr &* r &+ wg &* g &+ wb &* b &+ 32768) >> 16)
                }
            }
            initialized = n
        }
        // The count matches by construction.
        return PixelBuffer(unchecked: width, height, .gray, grey)
    }

    /// Each pixel's brightness (`grayscale`'s) less twice its chroma, the spread of its
    /// channels, at least 0: how white it is. Paper is bright and nearly neutral, where a
    /// cream, wooden or coloured surface as bright as it lacks some colour. The spread counts
    /// twice so that every hue falls below its own least channel by at least its spread: blue
    /// weighs little in brightness, so a pale blue wall's least channel alone barely tells
    /// it from paper in shade.
    public func whiteness() -> PixelBuffer {
        guard format == .rgb else { return self }
        let n = pixelCount
        let grey = [UInt8](unsafeUninitializedCapacity: n) { out, initialized in
            pixels.withUnsafeBufferPointer { src in
                let wr = Int32(Self.lumaWeights.red), wg = Int32(Self.lumaWeights.green), wb = Int32(Self.lumaWeights.blue)
                for i in 0..<n {
                    let r = Int32(src[3 * i]), g = Int32(src[3 * i + 1]), b = Int32(src[3 * i + 2])
                    let luma = (wr &* r &+ wg &* g &+ wb &* b &+ 32768) >> 16
                    let chroma = max(r, g, b) - min(r, g, b)
                    out[i] = UInt8(clamping: luma - 2 * chroma)
                }
            }
            initialized = n
        }
        // The count matches by construction.
        return PixelBuffer(unchecked: width, height, .gray, grey)
    }

    /// The index (in pixels, not bytes) of the pixel under `p`; nil off the image.
    func pixelIndex(at p: Point) -> Int? {
        let x = Int(p.x), y = Int(p.y)
        guard p.x >= 0, p.y >= 0, x < width, y < height else { return nil }
        return y * width + x
    }

    /// Each pixel's distance from `colour` in RGB (the root of the channels' squared
    /// differences), clipped at 255, as grey (detection's surface reading; not part of the
    /// public surface). Nil for a grey buffer.
    func distance(from colour: SIMD3<Float>) -> PixelBuffer? {
        guard format == .rgb else { return nil }
        let n = pixelCount
        let out = [UInt8](unsafeUninitializedCapacity: n) { out, initialized in
            pixels.withUnsafeBufferPointer { src in
                for i in 0..<n {
                    let d = SIMD3<Float>(Float(src[3 * i]), Float(src[3 * i + 1]), Float(src[3 * i + 2])) - colour
                    out[i] = UInt8(min(255, (d * d).sum().squareRoot()).rounded())
                }
            }
            initialized = n
        }
        // The count matches by construction.
        return PixelBuffer(unchecked: width, height, .gray, out)
    }

    /// The pixels inside `x..<x+width`, `y..<y+height`, clamped to the image (at least 1×1).
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> PixelBuffer {
        let x0 = min(max(x, 0), self.width - 1), y0 = min(max(y, 0), self.height - 1)
        let w = max(1, min(width, self.width - x0)), h = max(1, min(height, self.height - y0))
        let c = format.channels
        var out = [UInt8]()
        out.reserveCapacity(w * h * c)
        for row in y0..<(y0 + h) {
            let start = (row * self.width + x0) * c
            out.append(contentsOf: pixels[start..<(start + w * c)])
        }
        return PixelBuffer(unchecked: w, h, format, out)
    }

    /// Every channel times `gain`, clipped at white, as a photo exposed brighter (detection's
    /// second reading; not part of the public surface).
    func brightened(by gain: Float) -> PixelBuffer {
        var out = self
        // A lookup table: one multiply per level, not per pixel.
        let levels = (0...255).map { UInt8(min(255, (Float($0) * gain).rounded())) }
        levels.withUnsafeBufferPointer { table in
            out.pixels.withUnsafeMutableBufferPointer { p in
                for i in p.indices { p[i] = table[Int(p[i])] }
            }
        }
        return out
    }

    /// Shrinks the image by an integer factor with a box filter (area average). Used to make the
    /// small working copy that page detection runs on.
    public func downsampled(by factor: Int) -> PixelBuffer {
        guard factor > 1 else { return self }
        // 16-bit column sums hold `factor` rows of 255 up to factor 257, and halve the memory
        // the sums pass moves against 32-bit ones (sixteen lanes a vector instead of eight).
        return factor * 255 <= Int(UInt16.max)
            ? downsampled(by: factor, summingIn: UInt16.self) : downsampled(by: factor, summingIn: UInt32.self)
    }

    private func downsampled<Sum: FixedWidthInteger & UnsignedInteger>(by factor: Int, summingIn _: Sum.Type) -> PixelBuffer {
        let ow = max(width / factor, 1), oh = max(height / factor, 1)
        let c = format.channels
        // An image narrower or shorter than `factor` gives one block of what there is.
        let blockWidth = min(factor, width), blockHeight = min(factor, height)
        let area = UInt32(blockWidth * blockHeight)
        let out = [UInt8](unsafeUninitializedCapacity: ow * oh * c) { dst, initialized in
            pixels.withUnsafeBufferPointer { src in
                // Column sums over `factor` rows (a contiguous loop the compiler vectorises),
                // then each group of `factor` columns summed per channel.
                let span = ow * blockWidth * c
                var columns = [Sum](repeating: 0, count: span)
                columns.withUnsafeMutableBufferPointer { col in
                    for oy in 0..<oh {
                        for i in 0..<span { col[i] = 0 }
                        for dy in 0..<blockHeight {
                            let row = src.baseAddress! + (oy * factor + dy) * width * c
                            for i in 0..<span { col[i] &+= Sum(truncatingIfNeeded: row[i]) }
                        }
                        let o = dst.baseAddress! + oy * ow * c
                        for ox in 0..<ow {
                            for ch in 0..<c {
                                var sum: UInt32 = 0
                                for dx in 0..<blockWidth { sum &+= UInt32(truncatingIfNeeded: col[(ox * factor + dx) * c + ch]) }
                                o[ox * c + ch] = UInt8(truncatingIfNeeded: (sum &+ area / 2) / area)
                            }
                        }
                    }
                }
            }
            initialized = ow * oh * c
        }
        return PixelBuffer(unchecked: ow, oh, format, out)
    }

    /// Internal initializer for kernels whose output size is correct by construction.
    init(unchecked width: Int, _ height: Int, _ format: Format, _ pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }
}

extension PixelBuffer: CustomStringConvertible, CustomDebugStringConvertible {
    /// Size and format only: test failures and logs must not print megabytes of pixels.
    public var description: String { "PixelBuffer(\(width)×\(height) \(format))" }
    public var debugDescription: String { description }
}

extension PixelBuffer {
    /// The buffer turned upright as an EXIF orientation (1–8) says: 2 mirrored, 3 half a turn,
    /// 4 upside down, 5 transposed, 6 a quarter turn clockwise, 7 transverse, 8 a quarter
    /// turn counter-clockwise. Orientations 5–8 swap width and height; other values leave it.
    public func reoriented(exif orientation: Int) -> PixelBuffer {
        guard (2...8).contains(orientation) else { return self }
        let w = width, h = height, c = format.channels
        let swaps = orientation >= 5
        let outWidth = swaps ? h : w, outHeight = swaps ? w : h
        // Source pixel index = base + X·stepX + Y·stepY for output pixel (X, Y).
        let (base, stepX, stepY): (Int, Int, Int) = switch orientation {
        case 2: (w - 1, -1, w)
        case 3: ((h - 1) * w + w - 1, -1, -w)
        case 4: ((h - 1) * w, 1, -w)
        case 5: (0, w, 1)
        case 6: ((h - 1) * w, -w, 1)
        case 7: ((h - 1) * w + w - 1, -w, -1)
        default: (w - 1, w, -1)  // 8
        }
        let out = [UInt8](unsafeUninitializedCapacity: pixels.count) { dst, initialized in
            pixels.withUnsafeBufferPointer { src in
                // In tiles, so a quarter turn's column reads stay in cache.
                let tile = 64
                for y0 in stride(from: 0, to: outHeight, by: tile) {
                    for x0 in stride(from: 0, to: outWidth, by: tile) {
                        for y in y0..<min(y0 + tile, outHeight) {
                            var s = base + x0 * stepX + y * stepY
                            var d = (y * outWidth + x0) * c
                            for _ in x0..<min(x0 + tile, outWidth) {
                                for k in 0..<c { dst[d + k] = src[s * c + k] }
                                s += stepX
                                d += c
                            }
                        }
                    }
                }
            }
            initialized = pixels.count
        }
        // Same channel count and pixel count as `self`, with width and height swapped or not.
        return PixelBuffer(unchecked: outWidth, outHeight, format, out)
    }
}
