import ImageInput
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

    @Test("a page folded near one end, its last part bent inward past what the corner fit looks across, has that corner where its sides end")
    func bentNearCorner() throws {
        // The fold lies 80 % of the way down the right side; below it the side bends inward, 14°,
        // to a corner 30 px inside where the line through the rest of the side meets the bottom
        // (the working copy halves that: 15 px, far beyond the 3 px the corner fit looks across).
        let p = Self.page
        let foldLeft = p.topLeft + (p.bottomLeft - p.topLeft) * 0.8, foldRight = p.topRight + (p.bottomRight - p.topRight) * 0.8
        let corner = p.bottomRight - Point(30, 0)
        let image = try Self.photo([([p.topLeft, p.topRight, foldRight, foldLeft], 200), ([foldLeft, foldRight, corner, p.bottomLeft], 185)])
        let detection = try #require(PageDetector().detect(in: image))
        let truth = Quad(topLeft: p.topLeft, topRight: p.topRight, bottomRight: corner, bottomLeft: p.bottomLeft)
        for (found, expected) in zip(detection.quad.corners, truth.corners) {
            #expect(found.distance(to: expected) < 4, "\(detection.quad)")
        }
    }

    @Test("a cable lying along a page's side into its corner does not carry the corner off along it")
    func cableIntoCorner() throws {
        // Photo 33 of `scripts/make-photos --conditions figures --seed 800` (1920×1080), scaled
        // down five times in each direction to the size of the working copy: a dark blue cable
        // on a brown desk runs along the top-left side of a turned page into its left corner.
        // Followed in the first view alone, that side runs off along the cable's edge.
        let photo = try ImageSource.open(path: Fixtures.testImage("cable-along-corner.png")).page(0, luminanceOnly: true).image
        let detection = try #require(PageDetector().detect(in: photo))
        let truth = [Point(196.0, 27.5), Point(247.4, 89.6), Point(140.7, 185.7), Point(74.9, 110.3)]
        for found in detection.quad.corners {
            #expect(truth.map { $0.distance(to: found) }.min() ?? .infinity < 5, "\(detection.quad)")
        }
    }
}
