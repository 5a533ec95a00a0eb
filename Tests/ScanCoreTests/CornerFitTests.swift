import ScanTestSupport
import Testing
@testable import ScanCore

/// Corners where the ends of a page's sides meet: a page whose sides bend at a fold keeps its
/// corners.
@Suite struct CornerFitTests {
    static let page = Quad(topLeft: Point(200, 120), topRight: Point(600, 110), bottomRight: Point(640, 700), bottomLeft: Point(170, 690))

    /// An 800×800 grey photo: desk at 110 and `parts` (convex, clockwise) at their levels.
    static func photo(_ parts: [(points: [Point], level: Double)]) throws -> PixelBuffer {
        var rng = SyntheticPhoto.Random(seed: 22)
        var pixels = [UInt8](repeating: 0, count: 800 * 800)
        for y in 0..<800 {
            for x in 0..<800 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                let value = parts.first { CornerExtensionTests.contains($0.points, p) }?.level ?? 110
                pixels[y * 800 + x] = UInt8(max(0, min(255, value + Double(Int(rng.next() % 7) - 3))))
            }
        }
        return try PixelBuffer(width: 800, height: 800, format: .gray, pixels: pixels)
    }

    @Test("a page folded across it, its halves lying at different angles, has its corners where its sides' ends meet")
    func bentSides() throws {
        // The fold lies 45 % of the way down; its ends lie inside the corners' lines by 3 % of
        // the page's width on the left and 2 % on the right, so the left side bends by 5° there
        // and the right by 4°, and the line through a whole side passes 5–9 px off its corners.
        let p = Self.page
        let foldLeft = p.topLeft + (p.bottomLeft - p.topLeft) * 0.45 + Point(13, 0)
        let foldRight = p.topRight + (p.bottomRight - p.topRight) * 0.45 - Point(9, 0)
        let image = try Self.photo([([p.topLeft, p.topRight, foldRight, foldLeft], 180), ([foldLeft, foldRight, p.bottomRight, p.bottomLeft], 205)])
        let detection = try #require(PageDetector().detect(in: image))
        for (found, corner) in zip(detection.quad.corners, p.corners) {
            #expect(found.distance(to: corner) < 3, "\(detection.quad)")
        }
    }
}
