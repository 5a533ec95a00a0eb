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
        var page = image
        flatten(&page)
        return page
    }

    /// The same in place: a grey page is overwritten (no second page-sized buffer); a colour
    /// page becomes grey first.
    public func flatten(_ grey: inout PixelBuffer) {
        if grey.format != .gray { grey = grey.grayscale() }
        let w = grey.width, h = grey.height, c = max(cellSize, 4)
        guard w > 0, h > 0 else { return }
        let cw = (w + c - 1) / c, ch = (h + c - 1) / c
        var paper = [Float](repeating: 255, count: cw * ch)
        grey.pixels.withUnsafeBufferPointer { px in
            // At most 20 × 20 samples a cell, so 16-bit counts suffice.
            var counts = [UInt16](repeating: 0, count: 256)
            counts.withUnsafeMutableBufferPointer { histogram in
                for cy in 0..<ch {
                    for cx in 0..<cw {
                        histogram.update(repeating: 0)
                        let x0 = cx * c, y0 = cy * c, x1 = min(x0 + c, w), y1 = min(y0 + c, h)
                        // Every other pixel of every other row: a quarter of the work, and a
                        // percentile of hundreds of samples is as steady as one of all of them.
                        var samples = 0
                        for y in stride(from: y0, to: y1, by: 2) {
                            let row = px.baseAddress! + y * w
                            for x in stride(from: x0, to: x1, by: 2) { histogram[Int(row[x])] &+= 1 }
                            samples += (x1 - x0 + 1) / 2
                        }
                        // The 90th percentile: paper, even in a cell that is mostly text.
                        let target = samples / 10
                        var seen = 0, level = 255
                        while level > 0 { seen += Int(histogram[level]); if seen > target { break }; level -= 1 }
                        paper[cy * cw + cx] = Float(max(level, 1))
                    }
                }
            }
        }
        paper = Self.smooth(Self.fillDarkCells(paper, cw, ch), cw, ch)
        let gain = paper.map { paperLevel / $0 }

        // Each pixel is read once and written in its place, after every cell has been measured.
        grey.pixels.withUnsafeMutableBufferPointer { px in
            var cells = [Float](repeating: 0, count: cw)
            var row = [UInt32](repeating: 0, count: w)
            row.withUnsafeMutableBufferPointer { row in
                for y in 0..<h {
                    // The gain along this row at each cell centre, between cell rows...
                    let fy = min(max((Float(y) + 0.5) / Float(c) - 0.5, 0), Float(ch - 1))
                    let y0 = Int(fy), y1 = min(y0 + 1, ch - 1), ty = fy - Float(y0)
                    for cx in 0..<cw { cells[cx] = gain[y0 * cw + cx] + (gain[y1 * cw + cx] - gain[y0 * cw + cx]) * ty }
                    // ...then per pixel, linear between cell centres, in 16.16 fixed point.
                    Self.fillRow(row, cells: cells, cellSize: c)
                    // out = grey × gain, gain in 8.8 fixed point; a plain loop the compiler
                    // vectorises (no trapping conversions).
                    let p = px.baseAddress! + y * w
                    for x in 0..<w {
                        let v = (UInt32(p[x]) &* row[x] &+ 128) &>> 8
                        p[x] = UInt8(truncatingIfNeeded: Swift.min(v, 255))
                    }
                }
            }
        }
    }

    /// Fills `row` with the gain, 8.8 fixed point, interpolated linearly between the cell
    /// centres (`cells[i]` at x = (i + ½)·cellSize) and held flat beyond the first and last.
    static func fillRow(_ row: UnsafeMutableBufferPointer<UInt32>, cells: [Float], cellSize c: Int) {
        let w = row.count
        guard let base = row.baseAddress else { return }
        func fixed(_ g: Float) -> Int32 { Int32(Swift.min(g, 255) * 65536) }
        // Before the first centre.
        var x = Swift.min(c / 2, w)
        let first = UInt32(fixed(cells[0]) >> 8)
        for i in 0..<x { base[i] = first }
        let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        for i in 0..<(cells.count - 1) where x < w {
            let centre = i * c + c / 2, end = Swift.min(centre + c, w)
            let a = fixed(cells[i]), step = (fixed(cells[i + 1]) - a) / Int32(c)
            // a + k·step for each pixel k past the centre, eight pixels at a time.
            var k = x - centre
            let stop = end - centre
            while k + 8 <= stop {
                let v = (SIMD8(repeating: a) &+ (SIMD8(repeating: Int32(truncatingIfNeeded: k)) &+ lanes) &* step) &>> 8
                UnsafeMutableRawPointer(base + centre + k).storeBytes(of: SIMD8<UInt32>(truncatingIfNeeded: v), as: SIMD8<UInt32>.self)
                k += 8
            }
            while k < stop {
                base[centre + k] = UInt32(truncatingIfNeeded: (a &+ Int32(truncatingIfNeeded: k) &* step) &>> 8)
                k += 1
            }
            x = end
        }
        let last = UInt32(fixed(cells[cells.count - 1]) >> 8)
        while x < w { base[x] = last; x += 1 }
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
