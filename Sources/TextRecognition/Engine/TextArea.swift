import ScanCore

/// Where a page's text lies: the lines of its automatic layout, a line's height around them.
/// A page read as one block is read inside it, so that what the layout set aside (a photo's
/// strip of desk, a scanner's dark border) is not read as rows of `|`.
struct TextArea: Equatable {
    var minX: Int
    var minY: Int
    var maxX: Int
    var maxY: Int

    init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The area round `lines`, found on a copy reduced by `reduction`, in the pixels of the
    /// page `width` by `height`; nil when there are no lines.
    init?(around lines: [LayoutLine], reduction: Int, width: Int, height: Int) {
        guard !lines.isEmpty else { return nil }
        let heights = lines.map { $0.maxY - $0.minY }.sorted()
        let margin = heights[heights.count / 2]
        minX = max(0, ((lines.map(\.minX).min() ?? 0) - margin) * reduction)
        minY = max(0, ((lines.map(\.minY).min() ?? 0) - margin) * reduction)
        maxX = min(width, ((lines.map(\.maxX).max() ?? 0) + margin) * reduction)
        maxY = min(height, ((lines.map(\.maxY).max() ?? 0) + margin) * reduction)
    }

    /// Whether the area leaves any of the page out.
    func isSmaller(thanWidth width: Int, height: Int) -> Bool {
        minX > 0 || minY > 0 || maxX < width || maxY < height
    }

    /// A copy of `image` with everything outside the area painted in the paper the text is on
    /// (the area's median, channel by channel). A fill lighter than that paper, such as white,
    /// would pull Tesseract's global threshold between paper and fill and turn the paper to ink.
    func isolated(in image: PixelBuffer) -> PixelBuffer {
        let c = image.format.channels
        let fill = paper(of: image)
        var pixels = image.pixels
        pixels.withUnsafeMutableBufferPointer { px in
            // Runs of whole pixels: rows above and below the area, and each row's ends beside it.
            func paint(_ start: Int, _ end: Int) {
                guard end > start else { return }
                if c == 1 {
                    px[start..<end].update(repeating: fill[0])
                } else {
                    for i in stride(from: start, to: end, by: c) { for ch in 0..<c { px[i + ch] = fill[ch] } }
                }
            }
            let rowBytes = image.width * c
            paint(0, minY * rowBytes)
            for y in minY..<maxY {
                paint(y * rowBytes, y * rowBytes + minX * c)
                paint(y * rowBytes + maxX * c, (y + 1) * rowBytes)
            }
            paint(maxY * rowBytes, image.height * rowBytes)
        }
        return (try? PixelBuffer(width: image.width, height: image.height, format: image.format, pixels: pixels)) ?? image
    }

    /// The median of each channel over a sparse grid of the area.
    func paper(of image: PixelBuffer) -> [UInt8] {
        let c = image.format.channels
        let step = max(1, min(maxX - minX, maxY - minY) / 64)
        return (0..<c).map { ch in
            var histogram = LevelHistogram()
            for y in stride(from: minY, to: maxY, by: step) {
                for x in stride(from: minX, to: maxX, by: step) { histogram.add(Int(image.pixels[(y * image.width + x) * c + ch])) }
            }
            return UInt8(histogram.level(passing: 0.5))
        }
    }
}
