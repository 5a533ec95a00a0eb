import Foundation
import ScanTestSupport
import Testing
@testable import ScanCore

@Suite struct PageDetectorTests {
    static let page = SyntheticPhoto.textLikePage(width: 425, height: 550)
    static let corners = Quad(topLeft: Point(170, 95), topRight: Point(610, 130), bottomRight: Point(650, 700), bottomLeft: Point(120, 660))

    /// Detection on an 800×800 synthetic photo of `page` with its corners at `corners`.
    static func detect(
        _ corners: Quad, page: PixelBuffer = page, background: SyntheticPhoto.Background = .dark
    ) throws -> PageDetection? {
        let photo = try SyntheticPhoto.make(page: page, corners: corners, width: 800, height: 800, background: background)
        return PageDetector().detect(in: photo)
    }

    @Test("finds the page corners in synthetic photos", arguments: [SyntheticPhoto.Background.dark, .textured])
    func corners(_ background: SyntheticPhoto.Background) throws {
        let detection = try #require(try Self.detect(Self.corners, background: background))
        let error = SyntheticPhoto.cornerError(detection.quad, Self.corners)
        // 1% of the photo's side.
        #expect(error < 8, "corner error \(error) px on \(background): \(detection.quad)")
        #expect(detection.quad.intersectionOverUnion(Self.corners) > 0.97)
        #expect(detection.confidence > 0.5)
    }

    /// Light-on-light and a corner hidden under clutter are not always found yet; what must hold
    /// is that the detector then returns no quad or a nearly right one, never a wrong crop.
    @Test("hard backgrounds never give a wrong crop", arguments: SyntheticPhoto.Background.allCases)
    func neverWrong(_ background: SyntheticPhoto.Background) throws {
        let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: background)
        if let detection = PageDetector().detect(in: photo) {
            #expect(detection.quad.intersectionOverUnion(Self.corners) > 0.88, "\(background): \(detection.quad)")
        }
    }

    @Test("a rotated page is found with its corners in TL, TR, BR, BL order")
    func rotated() throws {
        let q = Quad(topLeft: Point(300, 60), topRight: Point(740, 330), bottomRight: Point(480, 760), bottomLeft: Point(60, 480))
        let detection = try #require(try Self.detect(q))
        #expect(detection.quad.intersectionOverUnion(q) > 0.95)
        #expect(SyntheticPhoto.cornerError(detection.quad, q) < 12)
    }

    @Test("a folded page is found whole, not cut at its crease")
    func folded() throws {
        // The upper 40 % of the page lies in the fold's shadow: the crease is a long, straight,
        // fully backed step, but the page's own outline is longer. (The folded photos in the
        // corpus, scored by scripts/eval, are harder: their outline above the crease curls.)
        var page = Self.page
        let crease = page.height * 2 / 5
        for i in 0..<(crease * page.width) { page.pixels[i] = UInt8(Double(page.pixels[i]) * 0.72) }
        let detection = try #require(try Self.detect(Self.corners, page: page))
        #expect(detection.quad.intersectionOverUnion(Self.corners) > 0.95, "\(detection.quad)")
    }

    @Test("a page whose top edge curls keeps its top corners")
    func curled() throws {
        // The top edge sags in an arch, as when the page curls towards the camera: no straight
        // line backs it end to end, and its best line is a chord below the corners. The side
        // edges run on past that chord up to the real corners.
        var page = Self.page
        let sag = Double(page.height) * 0.12
        for y in 0..<Int(sag) {
            for x in 0..<page.width where Double(y) < sag * sin(Double.pi * (Double(x) + 0.5) / Double(page.width)) {
                page.pixels[y * page.width + x] = 55
            }
        }
        let detection = try #require(try Self.detect(Self.corners, page: page))
        let q = detection.quad
        #expect(q.topLeft.distance(to: Self.corners.topLeft) < 10, "\(q)")
        #expect(q.topRight.distance(to: Self.corners.topRight) < 10, "\(q)")
        #expect(SyntheticPhoto.cornerError(q, Self.corners) < 10, "\(q)")
    }

    @Test("a page held square to the camera is found")
    func square() throws {
        let q = Quad(topLeft: Point(150, 90), topRight: Point(650, 92), bottomRight: Point(652, 735), bottomLeft: Point(149, 733))
        let detection = try #require(try Self.detect(q))
        #expect(detection.quad.intersectionOverUnion(q) > 0.95, "\(detection.quad)")
    }

    @Test("a white box on a dark slide is not taken for a page")
    func slideTitle() throws {
        // A scanned slide: dark ground, a white title box, light text lines below it.
        var slide = PixelBuffer(width: 800, height: 600, format: .gray, fill: 40)
        for y in 40..<150 { for x in 220..<580 { slide.pixels[y * 800 + x] = 250 } }
        for line in 0..<8 {
            let y0 = 200 + line * 45
            for y in y0..<(y0 + 14) { for x in 60..<(740 - (line % 3) * 90) where (x / 9) % 5 != 4 { slide.pixels[y * 800 + x] = 235 } }
        }
        #expect(PageDetector().detect(in: slide) == nil)
    }

    @Test("no page, no quad")
    func noPage() throws {
        var rng = SyntheticPhoto.Random(seed: 3)
        var px = [UInt8](repeating: 0, count: 640 * 480 * 3)
        for i in px.indices { px[i] = UInt8(100 + rng.next() % 40) }
        let noise = try PixelBuffer(width: 640, height: 480, format: .rgb, pixels: px)
        #expect(PageDetector().detect(in: noise) == nil)
    }

    @Test("a flat scan is left alone")
    func flatScan() {
        #expect(PageDetector().detect(in: Self.page) == nil)
    }
}
