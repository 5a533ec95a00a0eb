import CTesseract
import ImageInput
import ScanCore

/// Reads a page's text geometry: the line direction from where each character's nearest
/// neighbour lies (with Leptonica's skew sweep along each axis as the fallback), the tilt from
/// that sweep, and the way up from Leptonica's ascender/descender count. It works on a
/// thresholded copy, reduced so that the page is quick to read but the characters stay large
/// enough for the up-down count.
public struct TextGeometryAnalyzer: Sendable {
    /// The longer side of the copy the line direction and tilt are read on.
    var sweepSide = 1800
    /// Character height the up-down count is made at: Leptonica's ascender and descender
    /// patterns are sized for text scanned at 150–300 ppi, and the low end of that halves the
    /// count's cost on a 300 dpi page. Weaker evidence there is settled by reading.
    var uprightCharacterHeight = 11.0
    /// Fewer character-sized blobs than this and there is no text to judge by.
    var minimumCharacters = 20

    public init() {}

    /// The text geometry of a grey page, or nil when it has too little text to tell.
    public func analyze(_ grey: PixelBuffer) -> TextGeometry? {
        guard grey.format == .gray, grey.width >= 16, grey.height >= 16 else { return nil }
        _ = Leptonica.configured
        let reduction = max(1, (max(grey.width, grey.height) + sweepSide - 1) / sweepSide)
        let small = grey.downsampled(by: reduction)
        guard let split = Self.otsuThreshold(of: small),
              let binary = LeptonicaImage.binary(from: small, threshold: split.threshold, lightInk: split.lightInk),
              let blobs = characterBlobs(in: binary)
        else { return nil }
        let height = blobs.height
        let neighbourRatio = blobs.neighbours
        let scale = Double(reduction)
        let bounds = TextGeometry.Bounds(minX: blobs.bounds.minX * scale, minY: blobs.bounds.minY * scale,
                                         maxX: blobs.bounds.maxX * scale, maxY: blobs.bounds.maxY * scale)

        // Nearest neighbours decide the direction when they lean clearly one way, and only
        // that axis is swept for the tilt. Otherwise both are swept, and the lines run along
        // the one that scores higher: its projection alternates text and gaps.
        let sweepReduction: Int32 = height >= 16 ? 4 : height >= 8 ? 2 : 1
        let across = { Self.sweep(binary.pix, reduction: sweepReduction) }
        let down = { LeptonicaImage(taking: pixRotateOrth(binary.pix, 1)).map { Self.sweep($0.pix, reduction: sweepReduction) } }
        let lean = max(neighbourRatio, 1 / neighbourRatio)
        let vertical: Bool, best: (angle: Double, confidence: Double, score: Double), ratio: Double
        if lean >= 1.5 {
            vertical = neighbourRatio < 1
            guard let sweep = vertical ? down() : across() else { return nil }
            best = sweep
            ratio = lean
        } else {
            guard let downSweep = down() else { return nil }
            let acrossSweep = across()
            vertical = downSweep.score > acrossSweep.score
            best = vertical ? downSweep : acrossSweep
            let worse = vertical ? acrossSweep : downSweep
            ratio = worse.score > 0 ? best.score / worse.score : (best.score > 0 ? .infinity : 1)
        }

        // The up-down count, on lines levelled and at a character height it is made for.
        let fullHeight = height * Double(reduction)
        let countReduction = max(1, Int(fullHeight / uprightCharacterHeight))
        var counted: LeptonicaImage? = countReduction == reduction ? binary : nil
        if counted == nil {
            let copy = grey.downsampled(by: countReduction)
            counted = Self.otsuThreshold(of: copy).flatMap { LeptonicaImage.binary(from: copy, threshold: $0.threshold, lightInk: $0.lightInk) }
        }
        var evidence: Float = 0
        if var level = counted {
            if vertical, let t = LeptonicaImage(taking: pixRotateOrth(level.pix, 1)) { level = t }
            // Leptonica's rotation is clockwise for a positive angle; the tilt is counter-clockwise.
            if abs(best.angle) >= 1,
               let r = LeptonicaImage(taking: pixRotate(level.pix, Float(best.angle * .pi / 180), Int32(L_ROTATE_SAMPLING),
                                                        Int32(L_BRING_IN_WHITE), 0, 0)) {
                level = r
            }
            if pixUpDownDetect(level.pix, &evidence, 0, 0, 0) != 0 { evidence = 0 }
        }
        return TextGeometry(
            characterHeight: fullHeight, linesRunVertically: vertical, directionRatio: ratio,
            neighbourRatio: neighbourRatio, skewDegrees: best.angle, skewConfidence: best.confidence,
            uprightEvidence: Double(evidence), textBounds: bounds)
    }

    /// The best tilt within ±15° of the horizontal, its confidence and its line score.
    private static func sweep(_ pix: UnsafeMutablePointer<PIX>, reduction: Int32) -> (angle: Double, confidence: Double, score: Double) {
        var angle: Float = 0, confidence: Float = 0, score: Float = 0
        let failed = pixFindSkewSweepAndSearchScore(pix, &angle, &confidence, &score, reduction, min(reduction, 2), 0, 15, 0.5, 0.01)
        guard failed == 0, angle.isFinite, score.isFinite else { return (0, 0, 0) }
        return (Double(angle), Double(confidence), Double(score))
    }

    /// Median height of the blobs shaped like characters and the box they lie in (5th to 95th
    /// percentile of their edges, so a stray speck does not widen it), or nil when there are
    /// too few.
    private func characterBlobs(in binary: LeptonicaImage) -> (height: Double, bounds: TextGeometry.Bounds, neighbours: Double)? {
        var boxes: UnsafeMutablePointer<BOXA>? = pixConnCompBB(binary.pix, 8)
        guard boxes != nil else { return nil }
        defer { boxaDestroy(&boxes) }
        let limit = max(binary.height, binary.width) / 8
        var heights: [Int32] = [], lefts: [Int32] = [], tops: [Int32] = [], rights: [Int32] = [], bottoms: [Int32] = []
        for i in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            guard boxaGetBoxGeometry(boxes, i, &x, &y, &w, &h) == 0 else { continue }
            // Specks (and textured grounds), rules and pictures are not characters.
            // The same test across and down, so that the blobs lean neither way.
            if max(w, h) >= 5, min(w, h) >= 2, max(w, h) <= limit, w <= 3 * h, h <= 3 * w {
                heights.append(h)
                lefts.append(x)
                tops.append(y)
                rights.append(x + w)
                bottoms.append(y + h)
            }
        }
        guard heights.count >= minimumCharacters else { return nil }
        func percentile(_ values: [Int32], _ p: Double) -> Double {
            let sorted = values.sorted()
            return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
        }
        var centres: [SIMD2<Double>] = []
        centres.reserveCapacity(heights.count)
        for i in heights.indices {
            let x = Double(lefts[i] + rights[i]) / 2, y = Double(tops[i] + bottoms[i]) / 2
            centres.append(SIMD2(x, y))
        }
        return (percentile(heights, 0.5), TextGeometry.Bounds(
            minX: percentile(lefts, 0.05), minY: percentile(tops, 0.05),
            maxX: percentile(rights, 0.95), maxY: percentile(bottoms, 0.95)),
                Self.acrossNeighbourRatio(centres, cell: max(8, percentile(heights, 0.5) * 2)))
    }

    /// How many more characters have their nearest neighbour beside them than above or below
    /// (as a ratio; O'Gorman's docstrum): letters in a line sit closer than lines do, in any
    /// font, while a sweep's line scores can be fooled by the columns of a monospaced receipt.
    static func acrossNeighbourRatio(_ centres: [SIMD2<Double>], cell: Double) -> Double {
        // Centres bucketed in square cells, so each looks only at its own and adjacent cells.
        var grid: [SIMD2<Int>: [Int]] = [:]
        for (i, c) in centres.enumerated() { grid[SIMD2(Int(c.x / cell), Int(c.y / cell)), default: []].append(i) }
        var across = 0, upDown = 0
        for (i, c) in centres.enumerated() {
            let key = SIMD2(Int(c.x / cell), Int(c.y / cell))
            var best = Double.infinity, offset = SIMD2<Double>(0, 0)
            for dy in -1...1 {
                for dx in -1...1 {
                    for j in grid[key &+ SIMD2(dx, dy)] ?? [] where j != i {
                        let d = centres[j] - c
                        let distance = (d * d).sum()
                        if distance < best { best = distance; offset = d }
                    }
                }
            }
            guard best.isFinite else { continue }
            if abs(offset.x) > abs(offset.y) { across += 1 } else { upDown += 1 }
        }
        return Double(across + 1) / Double(upDown + 1)
    }

    /// Otsu's threshold over the grey histogram, and whether the ink is the light side (a
    /// slide's light text on a dark ground: more than half the page is dark); nil for a page of
    /// one shade.
    static func otsuThreshold(of grey: PixelBuffer) -> (threshold: UInt8, lightInk: Bool)? {
        var histogram = [Int](repeating: 0, count: 256)
        grey.pixels.withUnsafeBufferPointer { for v in $0 { histogram[Int(v)] += 1 } }
        let total = Double(grey.pixels.count)
        let sumAll = histogram.indices.reduce(0.0) { $0 + Double($1 * histogram[$1]) }
        var weightBelow = 0.0, sumBelow = 0.0, best = 0.0, threshold = 0
        for t in 0..<255 {
            weightBelow += Double(histogram[t])
            sumBelow += Double(t * histogram[t])
            let weightAbove = total - weightBelow
            guard weightBelow > 0, weightAbove > 0 else { continue }
            let meanBelow = sumBelow / weightBelow, meanAbove = (sumAll - sumBelow) / weightAbove
            let between = weightBelow * weightAbove * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; threshold = t + 1 }
        }
        // Ink and paper a few levels apart are noise on a blank page, not text.
        let spread = best / (total * total)
        guard spread >= 4 else { return nil }
        let dark = histogram[..<threshold].reduce(0, +)
        return (UInt8(threshold), Double(dark) > total / 2)
    }
}
