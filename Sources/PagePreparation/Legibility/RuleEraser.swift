import CTesseract
import ImageInput
import ScanCore

/// Erases the vertical rules of tables from the copy of a page that Tesseract reads. Between
/// columns of a ruled table Tesseract's layout analysis takes the rules for column edges and
/// drops whole columns of cells; rules carry no text, so they go. A rule is a run of ink many
/// characters tall and under a third of one thick; ink it touches that is thicker
/// (a bar, a picture, a dark slide) stays, and so does everything on a page of light ink.
public struct RuleEraser: Sendable {
    /// A rule is at least this many character heights long: one that parts columns runs down
    /// four or more rows of text, while letters stay under two and the sides of a box round
    /// one field (on a receipt, a form) under about five.
    static let minimumLength = 8.0
    /// And at most this share of a character height thick: the widest single stroke of bold
    /// text, not two.
    static let maximumThickness = 1.0 / 3
    /// How far either side of a rule, in character heights, print is looked for, and the least
    /// share of ink found there on each side: about a word's width, and a few characters.
    static let columnReach = 6.0
    static let minimumInkBeside = 0.01

    public init() {}

    /// `image` in grey with its vertical rules painted in the paper beside them, and how many
    /// pixels were painted; nil when there are none.
    public func erased(_ image: PixelBuffer, characterHeight: Double) -> (image: PixelBuffer, painted: Int)? {
        guard characterHeight >= 4, image.width >= 16, image.height >= 16 else { return nil }
        let grey = image.format == .gray ? image : image.grayscale()
        _ = Leptonica.configured
        let length = Int32(max(24, (Self.minimumLength * characterHeight).rounded()))
        let thick = Int32(max(3, (Self.maximumThickness * characterHeight).rounded()) + 1)
        // Most pages have no rule: a look at half size settles that for a quarter of the cost.
        guard Self.hasTallInk(grey.downsampled(by: 2), length: length / 2) else { return nil }
        guard let split = TextGeometryAnalyzer.otsuThreshold(of: grey), !split.lightInk,
              let ink = LeptonicaImage.binary(from: grey, threshold: split.threshold),
              let tall = LeptonicaImage(taking: pixOpenCompBrick(nil, ink.pix, 1, length))
        else { return nil }
        var count: Int32 = 0
        guard pixCountPixels(tall.pix, &count, nil) == 0, count > 0 else { return nil }
        // What survives a brick as wide as `thick` is too wide for a rule; thin ink joined to
        // it is the edge of that shape, not a rule.
        guard let wide = LeptonicaImage(taking: pixOpenBrick(nil, tall.pix, thick, 1)),
              let thin = LeptonicaImage(taking: pixSubtract(nil, tall.pix, wide.pix)),
              let near = LeptonicaImage(taking: pixDilateBrick(nil, wide.pix, 3, 3)),
              let seeds = LeptonicaImage(taking: pixAnd(nil, near.pix, thin.pix)),
              let edges = LeptonicaImage(taking: pixSeedfillBinary(nil, seeds.pix, thin.pix, 8)),
              let lines = LeptonicaImage(taking: pixSubtract(nil, thin.pix, edges.pix)),
              // A line at the edge of the image is the edge of the scanned sheet, not a rule.
              let rules = LeptonicaImage(taking: pixRemoveBorderConnComps(lines.pix, 8))
        else { return nil }
        // A rule parts columns of text: there is print on both sides of it. So has one of the
        // rules it frames a table with, beside it; the edge of a sheet scanned on a white
        // ground has print on one side only, and nothing of the kind.
        var boxes: UnsafeMutablePointer<BOXA>? = pixConnCompBB(rules.pix, 8)
        guard boxes != nil else { return nil }
        defer { boxaDestroy(&boxes) }
        let reach = Int((Self.columnReach * characterHeight).rounded())
        var parting: [(x0: Int, y0: Int, x1: Int, y1: Int)] = [], framing: [(x0: Int, y0: Int, x1: Int, y1: Int)] = []
        for i in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, bw: Int32 = 0, bh: Int32 = 0
            guard boxaGetBoxGeometry(boxes, i, &x, &y, &bw, &bh) == 0 else { continue }
            let x0 = Int(x), y0 = Int(y), x1 = Int(x + bw), y1 = Int(y + bh)
            let left = ink.share(x0: x0 - 2 - reach, x1: x0 - 2, y0: y0, y1: y1)
            let right = ink.share(x0: x1 + 2, x1: x1 + 2 + reach, y0: y0, y1: y1)
            if min(left, right) >= Self.minimumInkBeside {
                parting.append((x0, y0, x1, y1))
            } else if max(left, right) >= Self.minimumInkBeside {
                framing.append((x0, y0, x1, y1))
            }
        }
        guard !parting.isEmpty, let data = pixGetData(rules.pix) else { return nil }
        parting += framing.filter { f in
            parting.contains { p in 2 * (min(f.y1, p.y1) - max(f.y0, p.y0)) >= f.y1 - f.y0 }
        }
        var painted = 0
        var out = grey
        let w = grey.width, wpl = Int(pixGetWpl(rules.pix))
        out.pixels.withUnsafeMutableBufferPointer { px in
            for box in parting {
                for y in box.y0..<box.y1 {
                    let line = data + y * wpl
                    let row = y * w
                    var x = box.x0
                    while x < box.x1 {
                        guard isSet(line, x) else { x += 1; continue }
                        // A run of rule pixels across this row, with the anti-aliased pixel
                        // either side, painted in the brighter of the paper just beyond it.
                        var end = x
                        while end < box.x1, isSet(line, end) { end += 1 }
                        let left = max(0, x - 1), right = min(w - 1, end)
                        let paper = max(px[row + max(0, left - 1)], px[row + min(w - 1, right + 1)])
                        for i in left...right { px[row + i] = paper }
                        painted += end - x
                        x = end
                    }
                }
            }
        }
        return painted > 0 ? (out, painted) : nil
    }

    /// Whether any dark ink in `grey` (dark on light) runs `length` pixels down.
    private static func hasTallInk(_ grey: PixelBuffer, length: Int32) -> Bool {
        guard let split = TextGeometryAnalyzer.otsuThreshold(of: grey), !split.lightInk,
              let ink = LeptonicaImage.binary(from: grey, threshold: split.threshold),
              let tall = LeptonicaImage(taking: pixOpenCompBrick(nil, ink.pix, 1, length))
        else { return false }
        var count: Int32 = 0
        return pixCountPixels(tall.pix, &count, nil) == 0 && count > 0
    }
}

extension LeptonicaImage {
    /// The share of set pixels of this 1 bpp image in columns `x0..<x1` and rows `y0..<y1`,
    /// clipped to the image; 0 for an empty window.
    fileprivate func share(x0: Int, x1: Int, y0: Int, y1: Int) -> Double {
        let xa = max(0, x0), xb = min(width, x1), ya = max(0, y0), yb = min(height, y1)
        guard xa < xb, ya < yb, let data = pixGetData(pix) else { return 0 }
        let wpl = Int(pixGetWpl(pix))
        var set = 0
        for y in ya..<yb {
            let line = data + y * wpl
            for x in xa..<xb where isSet(line, x) { set += 1 }
        }
        return Double(set) / Double((xb - xa) * (yb - ya))
    }
}

/// Whether pixel `x` of a row of a 1 bpp Leptonica image is set: Leptonica keeps the leftmost
/// pixel of each 32 in the word's top bit.
private func isSet(_ line: UnsafeMutablePointer<UInt32>, _ x: Int) -> Bool {
    line[x >> 5] & (1 << UInt32(31 - (x & 31))) != 0
}
