/// Evens out uneven light and shadows on a photographed page, so Tesseract's global threshold
/// sees paper as paper everywhere.
///
/// The paper's brightness is estimated per cell (a high percentile, which text cannot pull
/// down), spread over neighbouring cells and smoothed; every pixel is then divided by the
/// paper brightness at its position, interpolated bilinearly, and rescaled so paper is near
/// white. The result is grey.
public struct IlluminationCorrector: Sendable {
    /// Cell side in pixels.
    public var cellSize: Int
    /// The grey level paper is mapped to.
    public var paperLevel: Float

    public init(cellSize: Int = 40, paperLevel: Float = 240) {
        self.cellSize = cellSize
        self.paperLevel = paperLevel
    }

    public func flatten(_ image: PixelBuffer) -> PixelBuffer {
        let grey = image.grayscale()
        let w = grey.width, h = grey.height, c = max(cellSize, 4)
        let cw = (w + c - 1) / c, ch = (h + c - 1) / c
        var paper = [Float](repeating: 255, count: cw * ch)
        grey.pixels.withUnsafeBufferPointer { px in
            var histogram = [Int](repeating: 0, count: 256)
            for cy in 0..<ch {
                for cx in 0..<cw {
                    for i in 0..<256 { histogram[i] = 0 }
                    let x0 = cx * c, y0 = cy * c, x1 = min(x0 + c, w), y1 = min(y0 + c, h)
                    for y in y0..<y1 { for x in x0..<x1 { histogram[Int(px[y * w + x])] += 1 } }
                    // The 90th percentile: paper, even in a cell that is mostly text.
                    let target = (x1 - x0) * (y1 - y0) / 10
                    var seen = 0, level = 255
                    while level > 0 { seen += histogram[level]; if seen > target { break }; level -= 1 }
                    paper[cy * cw + cx] = Float(max(level, 1))
                }
            }
        }
        paper = Self.smooth(Self.fillDarkCells(paper, cw, ch), cw, ch)

        let out = [UInt8](unsafeUninitializedCapacity: w * h) { dst, initialized in
            grey.pixels.withUnsafeBufferPointer { px in
                var row = [Float](repeating: 0, count: w)
                for y in 0..<h {
                    // Paper brightness along this row, interpolated between cell centres.
                    let fy = min(max((Float(y) + 0.5) / Float(c) - 0.5, 0), Float(ch - 1))
                    let y0 = Int(fy), y1 = min(y0 + 1, ch - 1), ty = fy - Float(y0)
                    for x in 0..<w {
                        let fx = min(max((Float(x) + 0.5) / Float(c) - 0.5, 0), Float(cw - 1))
                        let x0 = Int(fx), x1 = min(x0 + 1, cw - 1), tx = fx - Float(x0)
                        let top = paper[y0 * cw + x0] + (paper[y0 * cw + x1] - paper[y0 * cw + x0]) * tx
                        let bottom = paper[y1 * cw + x0] + (paper[y1 * cw + x1] - paper[y1 * cw + x0]) * tx
                        row[x] = paperLevel / (top + (bottom - top) * ty)
                    }
                    var x = 0
                    while x + 8 <= w {
                        var v = SIMD8<Float>()
                        var g = SIMD8<Float>()
                        for l in 0..<8 { v[l] = row[x + l]; g[l] = Float(px[y * w + x + l]) }
                        let r = (g * v).clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 255))
                        for l in 0..<8 { dst[y * w + x + l] = UInt8(r[l] + 0.5 > 255 ? 255 : r[l] + 0.5) }
                        x += 8
                    }
                    while x < w {
                        dst[y * w + x] = UInt8(min(255, Float(px[y * w + x]) * row[x] + 0.5))
                        x += 1
                    }
                }
            }
            initialized = w * h
        }
        return PixelBuffer(unchecked: w, h, .gray, out)
    }

    /// A cell much darker than the median of its 3×3 neighbourhood is mostly ink (a heading,
    /// a picture); it takes the median instead. Plain gradients of light pass unchanged.
    static func fillDarkCells(_ p: [Float], _ w: Int, _ h: Int) -> [Float] {
        var out = p
        for y in 0..<h {
            for x in 0..<w {
                var around: [Float] = []
                for dy in -1...1 { for dx in -1...1 {
                    around.append(p[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)])
                } }
                around.sort()
                let median = around[4]
                if p[y * w + x] < 0.75 * median { out[y * w + x] = median }
            }
        }
        return out
    }

    /// 3×3 mean.
    static func smooth(_ p: [Float], _ w: Int, _ h: Int) -> [Float] {
        var out = p
        for y in 0..<h {
            for x in 0..<w {
                var s: Float = 0
                for dy in -1...1 { for dx in -1...1 {
                    s += p[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)]
                } }
                out[y * w + x] = s / 9
            }
        }
        return out
    }
}
