import Foundation
import ImageInput
import ScanTestSupport
import Testing
@testable import ScanCore

@Suite struct PageDetectorTests {
    static let page = SyntheticPhoto.textLikePage(width: 425, height: 550)
    static let corners = Quad(topLeft: Point(170, 95), topRight: Point(610, 130), bottomRight: Point(650, 700), bottomLeft: Point(120, 660))

    /// Detection on an 800×800 synthetic photo of `page` with its corners at `corners`.
    static func detect(
        _ corners: Quad, page: PixelBuffer = page, background: SyntheticPhoto.Background = .dark, shading: Double = 0.3
    ) throws -> PageDetection? {
        let photo = try SyntheticPhoto.make(page: page, corners: corners, width: 800, height: 800, background: background, shading: shading)
        return PageDetector().detect(in: photo)
    }

    /// An 800×600 grey photo drawn pixel by pixel (`level` of x, y and the pixel's centre),
    /// with ±3 levels of noise, clipped to 0–255.
    static func drawn(seed: UInt64, _ level: (Int, Int, Point) -> Double) throws -> PixelBuffer {
        var rng = SyntheticPhoto.Random(seed: seed)
        var pixels = [UInt8](repeating: 0, count: 800 * 600)
        for y in 0..<600 {
            for x in 0..<800 {
                let value = level(x, y, Point(Double(x) + 0.5, Double(y) + 0.5))
                pixels[y * 800 + x] = UInt8(max(0, min(255, value + Double(Int(rng.next() % 7) - 3))))
            }
        }
        return try PixelBuffer(width: 800, height: 600, format: .gray, pixels: pixels)
    }

    /// Light falls off by 30% across the frame (on the pale table too, where the page at the
    /// far end is no brighter than the table at the near end, so no level set holds the page
    /// alone). On `.window`, the right half of the page lies against a saturated window: there its
    /// edge is darker inside than out. On `.poster`, a card printed like a page lies just past
    /// its left side.
    @Test("finds the page corners in synthetic photos", arguments: [SyntheticPhoto.Background.dark, .textured, .light, .pale, .table, .window, .blinds, .poster])
    func corners(_ background: SyntheticPhoto.Background) throws {
        let detection = try #require(try Self.detect(Self.corners, background: background, shading: 0.3))
        let error = SyntheticPhoto.cornerError(detection.quad, Self.corners)
        // 1% of the photo's side; 1.5% on blinds, whose slat edges, stronger than the page's and
        // a few pixels past its top side, nearly parallel to it, pull the fit of that side's end.
        #expect(error < (background == .blinds ? 12 : 8), "corner error \(error) px on \(background): \(detection.quad)")
        #expect(detection.quad.intersectionOverUnion(Self.corners) > 0.97)
        #expect(detection.confidence > 0.5)
    }

    /// A phone's image processor leaves its mark on every photo: sharpening rings each edge with
    /// a dark and a light halo and lifts the desk's grain; an HDR mode's local tone mapping evens
    /// out the light, dimming a bright page towards a dark desk beside it.
    enum Processing: CaseIterable { case sharpened, toneMapped }

    /// `photo` in grey as `processing` leaves it: an unsharp mask (a blur of σ about 1 px, at
    /// 120%), or each pixel's light, in linear light, scaled by (the frame's mean / the mean
    /// within 50 px round it) to the power 0.5. (Not on blinds, where detection fails once
    /// sharpened: wiping the print out lifts the slats' sharpened gaps to the paper's level or
    /// above it, so a side along them keeps no step. A known weakness, left open.)
    static func processed(_ photo: PixelBuffer, _ processing: Processing) throws -> PixelBuffer {
        let grey = photo.grayscale()
        let (w, h) = (grey.width, grey.height)
        let levels = grey.pixels.map(Float.init)
        var out = [Float](repeating: 0, count: levels.count)
        switch processing {
        case .sharpened:
            let blurred = GradientField.blur(levels, w, h)
            for i in levels.indices { out[i] = levels[i] + 1.2 * (levels[i] - blurred[i]) }
        case .toneMapped:
            let linear = levels.map { v -> Double in
                let c = Double(v) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            // Sums over the frame up to each pixel, for the mean over any box in four reads.
            var sums = [Double](repeating: 0, count: (w + 1) * (h + 1))
            for y in 0..<h { for x in 0..<w { sums[(y + 1) * (w + 1) + x + 1] = linear[y * w + x] + sums[y * (w + 1) + x + 1] + sums[(y + 1) * (w + 1) + x] - sums[y * (w + 1) + x] } }
            let mean = sums[sums.count - 1] / Double(w * h), reach = 50
            for y in 0..<h {
                for x in 0..<w {
                    let (x0, x1, y0, y1) = (max(0, x - reach), min(w, x + reach + 1), max(0, y - reach), min(h, y + reach + 1))
                    let around = (sums[y1 * (w + 1) + x1] - sums[y0 * (w + 1) + x1] - sums[y1 * (w + 1) + x0] + sums[y0 * (w + 1) + x0])
                        / Double((x1 - x0) * (y1 - y0))
                    let mapped = min(1, linear[y * w + x] * pow(mean / max(around, 1.0 / 255), 0.5))
                    out[y * w + x] = Float(255 * (mapped <= 0.0031308 ? 12.92 * mapped : 1.055 * pow(mapped, 1 / 2.4) - 0.055))
                }
            }
        }
        return try PixelBuffer(width: w, height: h, format: .gray, pixels: out.map { UInt8(max(0, min(255, $0.rounded()))) })
    }

    @Test("finds the page corners in synthetic photos as a phone's image processor leaves them",
          arguments: [SyntheticPhoto.Background.dark, .textured, .light, .pale, .table, .window, .poster], Processing.allCases)
    func processedCorners(_ background: SyntheticPhoto.Background, _ processing: Processing) throws {
        let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: background, shading: 0.3)
        let detection = try #require(PageDetector().detect(in: try Self.processed(photo, processing)), "no page on \(background), \(processing)")
        let error = SyntheticPhoto.cornerError(detection.quad, Self.corners)
        // 1% of the photo's side, as unprocessed.
        #expect(error < 8, "corner error \(error) px on \(background), \(processing): \(detection.quad)")
        #expect(detection.quad.intersectionOverUnion(Self.corners) > 0.97)
    }

    @Test("a page on a light desk beside the floor's edge is found, not with the strip of desk up to the floor")
    func besideFloorEdge() throws {
        var photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .light, shading: 0.3)
        // The floor, darker, past a line 25-45 px left of the page's left side, nearly parallel
        // to it: a long straight step the page's top and bottom could be carried out to.
        let a = Point(95, 0), b = Point(75, 800)
        let channels = photo.format.channels
        for y in 0..<photo.height {
            for x in 0..<photo.width where Point.cross(b - a, Point(Double(x) + 0.5, Double(y) + 0.5) - a) > 0 {
                for c in 0..<channels { photo.pixels[(y * photo.width + x) * channels + c] = 70 }
            }
        }
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(Self.corners) > 0.95, "\(detection.quad)")
    }

    /// Half the desk in sunlight, brighter than the page; the page lies in the shaded half, and
    /// along its right side on a strip barely darker than itself (11 grey levels).
    @Test("a page in shade beside a sunlit desk is found")
    func pageInShade() throws {
        let page = Quad(topLeft: Point(440, 95), topRight: Point(700, 120), bottomRight: Point(675, 505), bottomLeft: Point(410, 480))
        let photo = try Self.drawn(seed: 9) { x, y, p in
            guard page.contains(p) else {
                let rightOfPage = Point.cross(page.bottomRight - page.topRight, p - page.topRight) < 0
                return x < 340 ? 228 : (rightOfPage ? 189 : 160)
            }
            // Paper with rows of print, clear of the margins.
            let row = (y - 140) % 24
            return y > 140 && y < 440 && row < 9 && x > 470 && x < 640 && (x / 7) % 6 != 5 ? 40 : 200
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// A page held up before a room, its face turned from the light: a painted wall brighter
    /// than the paper (but no light source) lies past its top and right sides, a dark door and
    /// cupboard past its left and bottom. Two sides step the wrong way for paper on what it lies
    /// on; exposed brighter, the wall reaches a light's level and they read as sides against it.
    @Test("a page held up before a wall brighter than its paper is found")
    func heldBeforeBrighterWall() throws {
        let page = Quad(topLeft: Point(400, 110), topRight: Point(650, 135), bottomRight: Point(628, 500), bottomLeft: Point(378, 478))
        let photo = try Self.drawn(seed: 11) { x, y, p in
            guard page.contains(p) else { return (x < 395 && y > 230) || y > 470 ? 88 : 224 }
            let row = (y - 160) % 24
            return y > 160 && y < 440 && row < 9 && x > 425 && x < 600 && (x / 7) % 6 != 5 ? 45 : 200
        }
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(page) > 0.95, "\(detection.quad)")
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 8, "\(detection.quad)")
    }

    /// A page held up (paper 130, with rows of print where `printed`): what lies over it, where
    /// `over` gives a level (the hand), else the page or what lies round it (`beyond`).
    static func heldPage(seed: UInt64, printed: Bool, over: @escaping (Int, Int) -> Double? = { _, _ in nil },
                         beyond: @escaping (Int, Int, Point, Quad) -> Double) throws -> (photo: PixelBuffer, page: Quad) {
        let page = Quad(topLeft: Point(380, 100), topRight: Point(620, 130), bottomRight: Point(600, 490), bottomLeft: Point(355, 465))
        let photo = try drawn(seed: seed) { x, y, p in
            if let level = over(x, y) { return level }
            guard page.contains(p) else { return beyond(x, y, p, page) }
            let row = (y - 150) % 24
            return printed && y > 150 && y < 420 && row < 9 && x > 410 && x < 570 && (x / 7) % 6 != 5 ? 40 : 130
        }
        return (photo, page)
    }

    /// A page held up in a dim room, its face turned from the light: its paper (130) is far
    /// darker than the painted wall past its top and right sides (175), which no brighter
    /// exposure brings to a light's level, and brighter than the dark door past its left and
    /// bottom. A hand holds it by its right side; with `handOver`, the hand is as bright as the
    /// wall (185) and its thumb lies over the page.
    static func heldBeforeFarBrighterWall(printed: Bool, handOver: Bool = false) throws -> (photo: PixelBuffer, page: Quad) {
        try heldPage(seed: 12, printed: printed, over: { x, y in handOver && x > 545 && x < 760 && y > 300 && y < 345 ? 185 : nil }) { x, y, p, page in
            if x > 590 && x < 760 && y > 300 && y < 345 { return 150 }  // the hand and arm
            let belowPage = Point.cross(page.bottomLeft - page.bottomRight, p - page.bottomRight) < 0
            let leftOfPage = Point.cross(page.topLeft - page.bottomLeft, p - page.bottomLeft) < 0
            return belowPage || (leftOfPage && y > 220) ? 70 : 175
        }
    }

    @Test("a page held up before a wall far brighter than its paper is found")
    func heldBeforeFarBrighterWall() throws {
        let (photo, page) = try Self.heldBeforeFarBrighterWall(printed: true)
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 8, "\(detection.quad.corners)")
    }

    /// The hand's thumb, over the page, is as bright as the wall: 3 % of the page is at the level
    /// it is judged against. A block of print on white paper shows that level between its
    /// letters; with the print wiped out, it is at that level all over, and a page only under
    /// the hand.
    @Test("a page held up with a hand as bright as the wall over it is found")
    func heldWithHandOver() throws {
        let (photo, page) = try Self.heldBeforeFarBrighterWall(printed: true, handOver: true)
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 8, "\(detection.quad.corners)")
        let (blank, _) = try Self.heldBeforeFarBrighterWall(printed: false, handOver: true)
        #expect(PageDetector().detect(in: blank) == nil)
    }

    /// A page held up (paper 130) before a wall lit unevenly, 150 at the left of the frame and
    /// 200 at the right, past its top and sides, a dark cupboard (70) below it, and the hand
    /// over 7% of it at 205, so the brightest of its inside is the hand's. Most of what lies
    /// round it is wall, brighter than the page but darker than the wall's light.
    static func heldBeforeUnevenWall(printed: Bool) throws -> (photo: PixelBuffer, page: Quad) {
        // The hand and arm over the page.
        try heldPage(seed: 17, printed: printed, over: { x, y in x > 520 && x < 760 && y > 290 && y < 370 ? 205 : nil }) { x, _, p, page in
            let belowPage = Point.cross(page.bottomLeft - page.bottomRight, p - page.bottomRight) < 0
            return belowPage && x > 250 && x < 750 ? 70 : 150 + 50 * Double(x) / 800
        }
    }

    /// The page is judged against the ring round it with what is brighter than its paper left
    /// out; its paper's brightest leaves out the hand at the wall's light, else the ring keeps
    /// the wall and the page is darker than it. A blank panel there has no print to read.
    @Test("a page held up before a wall lit unevenly, brighter than it on three sides, is found")
    func heldBeforeUnevenWall() throws {
        let (photo, page) = try Self.heldBeforeUnevenWall(printed: true)
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 8, "\(detection.quad.corners)")
        let (blank, _) = try Self.heldBeforeUnevenWall(printed: false)
        #expect(PageDetector().detect(in: blank) == nil)
    }

    /// Photo 17 of `scripts/make-photos --conditions held --seed 840` (1920×1080), scaled down
    /// five times in each direction to the working copy's size: a page held up with the hand
    /// over its lower right, beside a framed pane. An outline taking in the page, the hand and
    /// the pane in its dark frame has as little at the wall's level inside as the page alone;
    /// but its paper, with the print wiped out, is not smooth. No outline but the page's may
    /// be returned.
    @Test("an outline taking in a page held up and a framed pane beside it is not returned")
    func heldBesideFramedPane() throws {
        let photo = try Self.fixture("held-beside-framed-pane.png")
        let page = Quad(topLeft: Point(189.4, 17.6), topRight: Point(239.6, 15.8), bottomRight: Point(261.7, 163.3), bottomLeft: Point(156.7, 163.8))
        if let detection = PageDetector().detect(in: photo) {
            #expect(detection.quad.intersectionOverUnion(page) > 0.9, "\(detection.quad.corners)")
        }
    }

    /// Photo 40 of `scripts/make-photos --conditions held --seed 843`, scaled down the same way:
    /// a page held up at a slant before a framed pane, brighter than it. The best edge outline
    /// takes in the page, the pane and a strip of wall, and the closing takes the pane's dark
    /// frame for a little print (0.075 of it); the page alone, found on a second look, is
    /// fully printed and wins.
    @Test("a page held up before a framed pane is found alone, not with the pane")
    func heldBeforeFramedPane() throws {
        let photo = try Self.fixture("held-before-framed-pane.png")
        let page = Quad(topLeft: Point(116.2, 49.5), topRight: Point(170.3, 30.5), bottomRight: Point(262.9, 157.5), bottomLeft: Point(163.4, 207.3))
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(page) > 0.95, "\(detection.quad.corners)")
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 5, "\(detection.quad.corners)")
    }

    /// Which outline of two, the first with `first` of it printed, the second with `print`
    /// (`printShare`), is kept: a printed page replaces a blank outline, but a sparse page is
    /// kept beside one only a little busier.
    @Test("a second outline replaces the first only with clearly more print", arguments: [
        (0.005, 0.04, true), (0.005, 0.03, false), (0.05, 0.08, true), (0.05, 0.07, false),
        (0.07, 0.1, false), (0.07, 0.11, true),
    ])
    func printOutweighs(first: Double, print: Double, replaces: Bool) {
        #expect(PageDetector.outweighs(print, over: first) == replaces)
    }

    /// The same scene with a blank panel in place of the page: a pale door panel or a window
    /// pane in its frame has the same outline and the same steps, but no print.
    @Test("a blank panel before a brighter wall is not taken for a page held up")
    func blankPanelBeforeBrighterWall() throws {
        let (photo, _) = try Self.heldBeforeFarBrighterWall(printed: false)
        #expect(PageDetector().detect(in: photo) == nil)
    }

    /// A pale sheet (215) cut by the top of the frame, on a wall lit unevenly (95–125) with a
    /// dark skirting board below: a page held up with its top out of view, or, blank, a door
    /// panel or a window pane in the same place.
    static func cutByFrame(printed: Bool) throws -> (photo: PixelBuffer, page: Quad) {
        let page = Quad(topLeft: Point(300, 0), topRight: Point(560, 0), bottomRight: Point(575, 420), bottomLeft: Point(285, 400))
        let photo = try drawn(seed: 16) { x, y, p in
            guard page.contains(p) else { return y > 520 ? 50 : 95 + 30 * Double(x) / 800 }
            return printed && y > 40 && y < 360 && (y - 40) % 24 < 9 && x > 330 && x < 530 && (x / 7) % 6 != 5 ? 40 : 215
        }
        return (photo, page)
    }

    @Test("a page cut by the frame is found")
    func printedPageCutByFrame() throws {
        let (photo, page) = try Self.cutByFrame(printed: true)
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 8, "\(detection.quad.corners)")
    }

    /// With one side fewer to back it, an outline cut by the frame must carry some print: a
    /// blank door panel or window pane has none, and there would be nothing to read.
    @Test("a blank panel cut by the frame is not taken for a page")
    func blankPanelCutByFrame() throws {
        let (photo, _) = try Self.cutByFrame(printed: false)
        #expect(PageDetector().detect(in: photo) == nil)
    }

    /// A page held up in shade before a room in sun, darker (115) than everything round it:
    /// the wall past its top and sides, lit unevenly (155 at the left of the frame, 215 at
    /// the right), and the floor below it (150).
    static func heldDarkerAllRound(shadedBox: Bool) throws -> (photo: PixelBuffer, page: Quad) {
        let page = Quad(topLeft: Point(330, 90), topRight: Point(560, 110), bottomRight: Point(545, 450), bottomLeft: Point(310, 435))
        let photo = try drawn(seed: 14) { x, y, p in
            let printed = { (left: Int, right: Int) in y > 140 && y < 400 && (y - 140) % 24 < 9 && x > left && x < right && (x / 7) % 6 != 5 }
            // A flat scan: a box shaded grey on white paper printed all round it.
            if shadedBox { return printed(60, 740) ? 40 : page.contains(p) ? 115 : 245 }
            guard page.contains(p) else { return y > 500 ? 150 : 155 + 60 * Double(x) / 800 }
            return printed(350, 520) ? 40 : 115
        }
        return (photo, page)
    }

    @Test("a page held up darker than everything round it is found")
    func heldDarkerAllRound() throws {
        let (photo, page) = try Self.heldDarkerAllRound(shadedBox: false)
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 8, "\(detection.quad.corners)")
    }

    /// The same outline as a box shaded grey on a flat scan's white paper, with the paper's
    /// print running past it: it is as much darker than all round it, but on one paper.
    @Test("a box shaded grey on a flat scan is not taken for a page held up in shade")
    func shadedBoxOnFlatScan() throws {
        let (photo, _) = try Self.heldDarkerAllRound(shadedBox: true)
        #expect(PageDetector().detect(in: photo) == nil)
    }

    /// A flat scan of a page with a mottled photo printed over its lower half, bled off its
    /// bottom edge: flat scan 39 of the figures dev set (`scripts/make-photos --conditions
    /// figures --seed 800 --page-width 1240`, 1240×1753), box-averaged to the 248×350 working
    /// copy the detector reads. The first reading finds no page (nor the frame); the photo is darker than the
    /// white paper past its other three sides, as a page held up is darker than the wall behind
    /// it, and its mottling passes for print. But a page held up is brighter than something
    /// beside it, where the photo is darker than the paper all round.
    @Test("a photo bled off a flat scan's edge is not taken for a page held up before a wall")
    func figureBledOffFlatScan() throws {
        let scan = try Self.fixture("figure-bled-off-flat-scan.png")
        #expect(PageDetector().detect(in: scan) == nil)
    }

    /// A flat scan of a page with a blurred photo printed beside a ruled table: flat scan 4 of
    /// the figures set drawn with seed 69069 (`scripts/make-photos --conditions figures --seed
    /// 69069 --page-width 1240`, 1240×1753), box-averaged to the 248×350 working copy. A line
    /// across the photo's dark lower end, askew, makes an outline of its upper part with the
    /// white paper, as bright as a light, past three sides and the photo's dark ground past the
    /// fourth: a page held up before a light, but for the photo's texture, which a page's paper,
    /// its print wiped out, does not have.
    @Test("a photo printed on a flat scan, cut across by a line askew, is not taken for a page held up before a light")
    func figureCutOnFlatScan() throws {
        let scan = try Self.fixture("figure-cut-flat-scan.png")
        #expect(PageDetector().detect(in: scan) == nil)
    }

    /// A page 10 grey levels brighter than the desk, the light falling off by a tenth across
    /// the frame: its step is 9-10 levels, and the lit desk is brighter than the paper in shade,
    /// so no brightness level parts the page from the desk. Only its faint edges show it.
    @Test("a page barely brighter than the desk, under uneven light, is found by its faint edges")
    func faintEdges() throws {
        let page = Quad(topLeft: Point(250, 90), topRight: Point(560, 120), bottomRight: Point(540, 520), bottomLeft: Point(220, 490))
        let photo = try Self.drawn(seed: 5) { x, y, p in
            var level = 192.0
            if page.contains(p) {
                let row = (y - 150) % 24
                level = y > 150 && y < 440 && row < 9 && x > 290 && x < 500 && (x / 7) % 6 != 5 ? 60 : 202
            }
            return level * (1 - 0.1 * Double(x) / 800)
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// The photographer's shadow over the top of the page and the desk round it, 40% darker,
    /// its edge curved and soft. The part in light is a clean bright region with the shadow's
    /// edge for a side, but the page's own edges, backed all round, go on round the part in shade.
    @Test("a page with a shadow cast across it and the desk is found whole")
    func castShadow() throws {
        let page = Quad(topLeft: Point(250, 80), topRight: Point(560, 100), bottomRight: Point(545, 530), bottomLeft: Point(230, 510))
        let centre = Point(330, -120), radius = 330.0
        let photo = try Self.drawn(seed: 21) { x, y, p in
            var level = 200.0
            if page.contains(p) {
                let row = (y - 130) % 22
                level = y > 130 && y < 470 && row < 8 && x > 280 && x < 510 && (x / 9) % 5 != 4 ? 50 : 240
            }
            // Dimmed inside the shadow, over a penumbra 12 px wide.
            let shade = min(1, max(0, (radius - centre.distance(to: p)) / 12 + 0.5))
            return level * (1 - 0.4 * shade)
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// Over-exposed: a light desk at the level of a light source (244), the page on it clipped
    /// white. The desk is no light: the paper beside it is brighter by a paper step.
    /// `deskClipped`: the desk clips too beyond the upper half of the page's right side, which
    /// shows no step there and is taken for one against a light; yet with the page as bright
    /// as that "light", a page against a light it is not (nor a row of print, with none near
    /// it, nor a line across paper, with the sides meeting it ending there).
    @Test("a clipped page on an over-exposed light desk is found, with the desk clipped beyond part of a side or not", arguments: [false, true])
    func overExposed(deskClipped: Bool) throws {
        let page = Quad(topLeft: Point(230, 90), topRight: Point(590, 120), bottomRight: Point(560, 540), bottomLeft: Point(200, 510))
        let photo = try Self.drawn(seed: deskClipped ? 12 : 11) { x, y, p in
            guard page.contains(p) else { return deskClipped && x > 500 && y < 330 ? 255 : 244 }
            let row = (y - 160) % 22
            return y > 160 && y < 450 && row < 8 && x > 280 && x < (deskClipped ? 500 : 520) && (x / 9) % 5 != 4 ? 60 : 255
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// A page on a light desk (170), turned 8°: rows of print at the top, and a dark band
    /// (`photo`) across it below them; and the page's outline in the working copy (the photo
    /// halved).
    static func pageWithPhoto(bleeding: Bool, photoFrom top: Double, mottled: Bool) throws -> (photo: PixelBuffer, outline: Quad) {
        let angle = 8 * Double.pi / 180, centre = Point(400, 300)
        let across = Point(cos(angle), sin(angle)), down = Point(-sin(angle), cos(angle))
        let (halfWidth, halfHeight) = (180.0, 235.0)
        func corner(_ u: Double, _ v: Double) -> Point { (centre + across * u + down * v) * 0.5 }
        let outline = Quad(topLeft: corner(-halfWidth, -halfHeight), topRight: corner(halfWidth, -halfHeight),
                           bottomRight: corner(halfWidth, halfHeight), bottomLeft: corner(-halfWidth, halfHeight))
        let photo = try Self.drawn(seed: 41) { _, _, p in
            let u = Point.dot(p - centre, across), v = Point.dot(p - centre, down)
            guard abs(u) <= halfWidth, abs(v) <= halfHeight else { return 170 }
            if abs(u) <= halfWidth - 24, v >= top, v <= (bleeding ? halfHeight : halfHeight - 24) {
                guard mottled else { return 70 }
                // Blotches 4 px across, from 40 to 120.
                let cell = Int((u + 300) / 4) * 7919 + Int((v + 300) / 4) * 104_729
                return 40 + Double((cell * 2_654_435_761 >> 8) % 81)
            }
            let row = Int(v + 300) % 14
            return v > -215 && v < -140 && abs(u) < halfWidth - 30 && row < 6 && Int(u + 300) / 7 % 6 != 5 ? 50 : 235
        }
        return (photo, outline)
    }

    /// A photo bled off the page's bottom edge: that side is darker inside than out, as a
    /// side along a block of print seen from the paper round it is, but the sides meeting it
    /// end with it and no print lies past it.
    @Test("a page's outline with a photo bled off its bottom edge passes its checks")
    func photoBledOffPage() throws {
        let (photo, outline) = try Self.pageWithPhoto(bleeding: true, photoFrom: 150, mottled: false)
        let (field, textless) = GradientField.views(of: photo.downsampled(by: 2), closingRadius: 6)
        func checked(_ q: Quad) -> ScoredQuad? {
            let sides = field.sidesOf(q).map { Line(through: $0.0, $0.1) }
            return field.verified(GradientField.Candidate(score: 1, quad: q, sides: sides), textless: textless)
        }
        let whole = checked(outline)
        #expect(whole != nil)
        #expect((whole?.quad.intersectionOverUnion(outline) ?? 0) > 0.95)
    }

    /// A photo bled off the page's bottom edge, covering its lower half: the search reads that
    /// side darker inside than out, and the page is found whole, not cut at the photo's top
    /// edge (a clean step, paper over photo) nor lost.
    @Test("a page with a photo bled off its bottom edge is found whole", arguments: [false, true])
    func pageWithBledPhotoFound(mottled: Bool) throws {
        let (photo, half) = try Self.pageWithPhoto(bleeding: true, photoFrom: -20, mottled: mottled)
        let outline = Quad(topLeft: half.topLeft * 2, topRight: half.topRight * 2, bottomRight: half.bottomRight * 2, bottomLeft: half.bottomLeft * 2)
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, outline)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// A photo covering most of a page: the median inside is the photo, darker than the desk,
    /// but its margins are paper brighter than the desk. An outline half over the desk has the
    /// desk's level for its median, and nothing much darker.
    @Test("a page mostly covered by a dark photo shows as a page; an outline half over the desk does not")
    func pageRoundPhoto() throws {
        let (photo, outline) = try Self.pageWithPhoto(bleeding: false, photoFrom: -120, mottled: true)
        let field = GradientField(photo.downsampled(by: 2))
        let interior = try #require(field.interior(outline))
        #expect(interior.inside < interior.outside, "\(interior)")
        #expect(!interior.showsPaper && interior.showsFigure, "\(interior)")
        let (plain, _) = try Self.pageWithPhoto(bleeding: false, photoFrom: 500, mottled: false)
        // From the page's middle to as far again past its right side.
        let top = outline.topRight - outline.topLeft, bottom = outline.bottomRight - outline.bottomLeft
        let stray = Quad(topLeft: outline.topLeft + top * 0.5, topRight: outline.topRight + top * 0.55,
                         bottomRight: outline.bottomRight + bottom * 0.55, bottomLeft: outline.bottomLeft + bottom * 0.5)
        let over = try #require(GradientField(plain.downsampled(by: 2)).interior(stray))
        #expect(!over.showsPaper && !over.showsFigure, "\(over)")
    }

    /// A shadow cast across the lower part of a page on a light desk (the photographer's):
    /// dimmed alike, the page there steps under 9 levels above the desk, and the part in light
    /// has the shadow's edge for a side. The page's sides go on into the shade unbroken, and
    /// the part in shade, lighter than the desk round it, ends at the page's own bottom.
    @Test("a page with a shadow cast across its lower part, lighter than the desk in shade, is found whole")
    func castShadowOverPage() throws {
        let page = Quad(topLeft: Point(250, 80), topRight: Point(560, 95), bottomRight: Point(545, 520), bottomLeft: Point(235, 505))
        // The shadow's edge, 10 px soft, along y = 300 + x / 10, dims all to 55%.
        func light(_ x: Int, _ y: Int) -> Double { 1 - 0.45 * min(1, max(0, Double(y) - 300 - Double(x) / 10 + 5) / 10) }
        let photo = try Self.drawn(seed: 21) { x, y, p in
            guard page.contains(p) else { return 200 * light(x, y) }
            let row = (y - 120) % 16
            return (y > 120 && y < 260 && row < 6 && x > 290 && x < 510 && (x / 9) % 5 != 4 ? 60 : 216) * light(x, y)
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// The page the shadow tests below cast their shadows over, and its paper: 216, with rows
    /// of print at 60 from y = 120 to `printEnd`, clear of the margins.
    static let shadowedPage = Quad(topLeft: Point(250, 80), topRight: Point(560, 95), bottomRight: Point(545, 520), bottomLeft: Point(235, 505))
    static func shadowedPaper(_ x: Int, _ y: Int, printEnd: Int) -> Double {
        let row = (y - 120) % 16
        return y > 120 && y < printEnd && row < 6 && x > 290 && x < 510 && (x / 9) % 5 != 4 ? 60 : 216
    }

    /// A page whose top lies in a round shadow, a phone's held over it: the shadow's edge
    /// crosses the page in a curve, so the chord the part in light takes for its side leaves a
    /// sliver in light before the band in shade, and the shadow's curve is the strongest change
    /// in some parts of the band, before its far edge, the page's top.
    @Test("a page whose top lies in a round shadow, its edge curving across the page, is found whole")
    func roundShadowOverPageTop() throws {
        let page = Self.shadowedPage
        // A disc of radius 380 about (300, -200), its edge 10 px soft, dims all to 55%.
        func light(_ p: Point) -> Double { 1 - 0.45 * min(1, max(0, 380 - p.distance(to: Point(300, -200)) + 5) / 10) }
        let photo = try Self.drawn(seed: 21) { x, y, p in
            guard page.contains(p) else { return 200 * light(p) }
            return Self.shadowedPaper(x, y, printEnd: 260) * light(p)
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// A page with a shadow cast across its top part, its edge soft (20 px) and slanting, on a
    /// desk lit unevenly: left of the page, in the shade, the desk is as light as the paper
    /// there, so right past the shadow's edge the page's left side shows no step; its right
    /// side and its top still show the part in shade against the desk. Whether the band's rows
    /// read clean depends on the noise, so the photo is drawn with eight noise seeds: the page
    /// must be found whole in most (6 of 8 now; 2 of 8 where such a side refuses the band,
    /// taking the part in light alone for the page).
    @Test("a page with a cast shadow over its top, one side in the shade as light as the desk beside it, is found whole")
    func castShadowLevelSide() throws {
        let page = Self.shadowedPage
        func shadowEdge(_ p: Point) -> Double { 250 + 0.1 * (p.x - 400) }
        func light(_ p: Point) -> Double { 1 - 0.45 * min(1, max(0, (shadowEdge(p) - p.y + 10) / 20)) }
        var whole: [UInt64] = []
        for seed: UInt64 in [21, 1, 2, 3, 4, 5, 6, 7] {
            let photo = try Self.drawn(seed: seed) { x, y, p in
                guard page.contains(p) else { return (p.x < 250 && p.y < shadowEdge(p) ? 218 : 200) * light(p) }
                return Self.shadowedPaper(x, y, printEnd: 300) * light(p)
            }
            if let quad = PageDetector().detect(in: photo)?.quad, quad.intersectionOverUnion(page) > 0.95 { whole.append(seed) }
        }
        #expect(whole.count >= 5, "found whole with seeds \(whole)")
    }

    /// The far edge read across the band's five parts, at y = 100 + x / 10: where the strongest
    /// change in each part lies on it, those; where a shadow's curve lies before it in three
    /// parts, the next strongest past it in those, stepping as the others do; where they step
    /// either way, as changes on a speckled desk do, none.
    @Test("a band's far edge is its strongest changes where they line up, else the next strongest past a curve, stepping alike")
    func farEdgePastCurve() {
        func end(_ x: Double, off: Double = 0, step: Float = -8) -> GradientField.FarEnd {
            GradientField.FarEnd(point: Point(x, 100 + x / 10 - off), step: step)
        }
        let xs = [20.0, 40, 60, 80, 100]
        let lined = xs.map { GradientField.FarEdgePart(strongest: end($0), past: []) }
        #expect(GradientField.farEdge(lined, fewest: 5)?.map(\.point) == xs.map { end($0).point })
        // The curve bulges towards the crease (smaller y) in the middle parts.
        let curved = xs.enumerated().map { i, x in
            (1...3).contains(i) ? GradientField.FarEdgePart(strongest: end(x, off: 12 - 3 * abs(Double(i) - 2), step: -30), past: [end(x, step: -7)])
                : GradientField.FarEdgePart(strongest: end(x), past: [])
        }
        #expect(GradientField.farEdge(curved, fewest: 4)?.map(\.point) == xs.map { end($0).point })
        let mixed = xs.enumerated().map { i, x in
            (1...3).contains(i) ? GradientField.FarEdgePart(strongest: end(x, off: 12 - 3 * abs(Double(i) - 2), step: -30), past: [end(x, step: i == 2 ? 7 : -7)])
                : GradientField.FarEdgePart(strongest: end(x), past: [])
        }
        #expect(GradientField.farEdge(mixed, fewest: 5) == nil)
    }

    /// A page below a keyboard on a desk lit from the right (light falling off to half at the
    /// left). The keyboard comes down to the page's top-left corner, and its shade darkens the
    /// desk between them by up to 30%, fading out towards the page, and ends along the page's
    /// right side carried on. That strip steps up from the keyboard on its left and down from
    /// the lit desk on its right, as a part of the page in shade may, but right past the page's
    /// top-right corner it is the desk's own level: no edge of a sheet goes on there.
    @Test("a page below a keyboard is not grown over the strip of desk in the keyboard's shade")
    func stripInKeyboardShade() throws {
        let page = Quad(topLeft: Point(250, 200), topRight: Point(560, 190), bottomRight: Point(575, 560), bottomLeft: Point(235, 565))
        let photo = try Self.drawn(seed: 23) { x, y, p in
            let light = 0.5 + 0.5 * Double(x) / 800
            // The keyboard's front edge runs from (0, 150) up to (800, 40).
            let keyLine = 150 - 0.1375 * Double(x)
            if Double(y) < keyLine || (x < 244 && y < 205) { return 30 }
            if page.contains(p) {
                let row = (y - 240) % 18
                return (y > 240 && y < 520 && row < 7 && x > 290 && x < 520 && (x / 9) % 5 != 4 ? 60 : 235) * light
            }
            let shade = Double(x) < 562 + Double(y - 190) * 15 / 370 ? 0.3 * max(0, min(1, 1 - (Double(y) - keyLine) / 100)) : 0
            return 190 * light * (1 - shade)
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// Over-exposed: a pale table (242) on a dark floor, cut by the frame, with a patch of it
    /// clipped white past a soft diagonal; the page on it clipped white too. The table's outline
    /// is the longest, and the page's region is apart from the table's only above the top
    /// even level of brightness (242.5 here, with the table's noise lifted by the closing).
    @Test("a clipped page on a pale table, part of it clipped too, is found, not the table")
    func clippedPageOnPaleTable() throws {
        let table = Quad(topLeft: Point(180, 40), topRight: Point(620, 50), bottomRight: Point(690, 600), bottomLeft: Point(110, 600))
        let page = Quad(topLeft: Point(260, 100), topRight: Point(530, 110), bottomRight: Point(520, 390), bottomLeft: Point(245, 378))
        let photo = try Self.drawn(seed: 15) { x, y, p in
            guard table.contains(p) else { return 90 }
            guard page.contains(p) else {
                // The patch in sunlight fades in over 40 px past the line x + y = 1000.
                let sun = min(1, max(0, Double(x + y - 1000) / 40))
                return 242 + 13 * sun
            }
            let row = (y - 150) % 22
            return y > 150 && y < 340 && row < 8 && x > 300 && x < 480 && (x / 9) % 5 != 4 ? 60 : 255
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// A pale table (196) on a dark floor, running on out of the frame's bottom, under light
    /// falling off by `falloff` from top to bottom; the page on it (232), printed. The table's
    /// outline, the frame for its bottom side, is the longest; with light falling off, the page
    /// at the near end is no brighter than the table at the far end, so no one level set holds
    /// the page alone: the page is the well-backed outline within the table's.
    @Test("a page on a pale table running out of the frame, under falling light, is found, not the table", arguments: [0.0, 0.2, 0.4, 0.6])
    func pageOnTableOutOfFrame(falloff: Double) throws {
        let table = Quad(topLeft: Point(150, 40), topRight: Point(650, 50), bottomRight: Point(720, 600), bottomLeft: Point(80, 600))
        let page = Quad(topLeft: Point(270, 150), topRight: Point(520, 160), bottomRight: Point(512, 470), bottomLeft: Point(258, 458))
        let photo = try Self.drawn(seed: 21) { x, y, p in
            let light = 1 - falloff * p.y / 600
            guard table.contains(p) else { return 90 * light }
            guard page.contains(p) else { return 196 * light }
            let row = (y - 190) % 22
            return (y > 190 && y < 420 && row < 8 && x > 300 && x < 480 && (x / 9) % 5 != 4 ? 60 : 232) * light
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// A page lies within a table's outline clear of its sides, or along one of them (the
    /// table runs on out of the frame past the page's edge), never along two or past one.
    @Test("a page nests in a table's outline clear of its sides or along one, not along two or past one")
    func nestedCorners() throws {
        let table = Quad(topLeft: Point(100, 50), topRight: Point(700, 50), bottomRight: Point(700, 550), bottomLeft: Point(100, 550))
        let c = table.corners
        let sides = (0..<4).map { Line(through: c[$0], c[($0 + 1) % 4]) }
        func nests(_ q: Quad) -> Bool { GradientField.nestedCorners(q, in: sides, margin: 16) }
        let clear = Quad(topLeft: Point(250, 150), topRight: Point(550, 150), bottomRight: Point(550, 450), bottomLeft: Point(250, 450))
        let alongBottom = Quad(topLeft: Point(250, 150), topRight: Point(550, 150), bottomRight: Point(550, 549), bottomLeft: Point(250, 549))
        let inCorner = Quad(topLeft: Point(250, 150), topRight: Point(699, 150), bottomRight: Point(699, 549), bottomLeft: Point(250, 549))
        let past = Quad(topLeft: Point(250, 150), topRight: Point(550, 150), bottomRight: Point(550, 600), bottomLeft: Point(250, 600))
        #expect(nests(clear))
        #expect(nests(alongBottom))
        #expect(!nests(inCorner))
        #expect(!nests(past))
    }

    /// The gate for the search within an outline: a page on a darker table makes the outline's
    /// middle brighter than the band round it; a page's own outline, its margins blank paper,
    /// does not.
    @Test("an outline's middle is brighter than its band with a page on a table in it, not with a page's blank margins")
    func brighterWithin() throws {
        let table = Quad(topLeft: Point(100, 50), topRight: Point(700, 60), bottomRight: Point(720, 560), bottomLeft: Point(80, 550))
        let page = Quad(topLeft: Point(250, 140), topRight: Point(550, 150), bottomRight: Point(545, 460), bottomLeft: Point(245, 450))
        let field = GradientField(try Self.drawn(seed: 22) { x, y, p in
            guard table.contains(p) else { return 70 }
            guard page.contains(p) else { return 180 }
            return (y - 180) % 22 < 8 && y > 180 && y < 420 && x > 280 && x < 510 ? 60 : 230
        }.downsampled(by: 2))
        let half = { (q: Quad) in Quad(topLeft: q.topLeft * 0.5, topRight: q.topRight * 0.5, bottomRight: q.bottomRight * 0.5, bottomLeft: q.bottomLeft * 0.5) }
        // Read into values first: a failed expectation would print the whole field.
        let onTable = field.brighterWithin(half(table)), ownMargins = field.brighterWithin(half(page))
        #expect(onTable)
        #expect(!ownMargins)
    }

    /// A side across a page, not at its end, has the sides meeting it running on past it.
    @Test("the sides meeting a side across a page run on past it, and it is reported less sure; at the page's end they do not")
    func sidesRunOn() throws {
        let page = Quad(topLeft: Point(230, 90), topRight: Point(590, 120), bottomRight: Point(560, 540), bottomLeft: Point(200, 510))
        let field = GradientField(try Self.drawn(seed: 13) { _, _, p in page.contains(p) ? 230 : 110 })
        // The upper half of the page: its bottom side runs across the paper.
        let upper = Quad(topLeft: page.topLeft, topRight: page.topRight,
                         bottomRight: (page.topRight + page.bottomRight) * 0.5, bottomLeft: (page.topLeft + page.bottomLeft) * 0.5)
        #expect(field.sidesRunOn(past: 2, of: upper))
        #expect(!field.sidesRunOn(past: 2, of: page))
        #expect(!field.sidesRunOn(past: 0, of: upper))
        // Backed all round, the upper half is reported less sure than the whole page.
        let whole = field.reportedConfidence(ScoredQuad(quad: page, confidence: 1, isFrame: false))
        let half = field.reportedConfidence(ScoredQuad(quad: upper, confidence: 1, isFrame: false))
        #expect(whole == 1)
        #expect(half < 0.95, "\(half)")
    }

    /// The page as found, and with its right side moved out over the desk (a corner carried
    /// past the page's end), both scored as fully backed by the search.
    @Test("an outline with one side off the page is reported far less sure; a side against a light is backed by its falling edge")
    func weakestSideReported() throws {
        let page = Quad(topLeft: Point(230, 90), topRight: Point(590, 120), bottomRight: Point(560, 540), bottomLeft: Point(200, 510))
        let field = GradientField(try Self.drawn(seed: 13) { _, _, p in page.contains(p) ? 230 : 110 })
        let shift = Point(50, 0)
        let overrun = Quad(topLeft: page.topLeft, topRight: page.topRight + shift, bottomRight: page.bottomRight + shift, bottomLeft: page.bottomLeft)
        let onPage = field.weakestSideBacking(page), offPage = field.weakestSideBacking(overrun)
        #expect(onPage > 0.95, "\(onPage)")
        #expect(offPage < 0.2, "\(offPage)")
        let whole = field.reportedConfidence(ScoredQuad(quad: page, confidence: 1, isFrame: false))
        let over = field.reportedConfidence(ScoredQuad(quad: overrun, confidence: 1, isFrame: false))
        #expect(over < 0.5 * whole, "\(over) against \(whole)")
        // Held up before a lit wall, the page is darker than what lies round it.
        var lit = GradientField(try Self.drawn(seed: 15) { _, _, p in page.contains(p) ? 170 : 250 })
        lit.light = GradientField.lightMask(lit.luma)
        let againstLight = lit.weakestSideBacking(page)
        #expect(againstLight > 0.95, "\(againstLight)")
    }

    /// The same page with rows of print over its middle (2 px dark strokes every 8 px), and blank.
    @Test("an outline with print inside is reported surer than the same outline blank, a pane or a door")
    func printedReportedSurer() throws {
        let page = Quad(topLeft: Point(230, 90), topRight: Point(590, 120), bottomRight: Point(560, 540), bottomLeft: Point(200, 510))
        func views(printed: Bool) throws -> (GradientField, GradientField) {
            let photo = try Self.drawn(seed: 14) { _, y, p in
                guard page.contains(p) else { return 110 }
                return printed && y % 8 < 2 && p.x > 280 && p.x < 520 && y > 150 && y < 470 ? 60 : 230
            }
            return GradientField.views(of: photo.downsampled(by: 2), closingRadius: 6)
        }
        let half = Quad(topLeft: page.topLeft * 0.5, topRight: page.topRight * 0.5, bottomRight: page.bottomRight * 0.5, bottomLeft: page.bottomLeft * 0.5)
        let outline = ScoredQuad(quad: half, confidence: 1, isFrame: false)
        let (printedField, printedTextless) = try views(printed: true), (blankField, blankTextless) = try views(printed: false)
        let printed = printedField.reportedConfidence(outline, textless: printedTextless)
        let blank = blankField.reportedConfidence(outline, textless: blankTextless)
        #expect(printed == 1, "\(printed)")
        #expect(blank == 0.5, "\(blank)")
    }

    /// On clipped white paper, a side with no step is a clipped page's end only clear of print:
    /// along the last row of a block of print it is that block's edge.
    @Test("a stepless side along the last row of a block of print is no clipped page's end")
    func clippedEnd() throws {
        let photo = try Self.drawn(seed: 14) { x, y, _ in
            let row = (y - 100) % 22
            return y >= 100 && y < 300 && row < 8 && x >= 200 && x < 600 && (x / 9) % 5 != 4 ? 60 : 252
        }
        let (field, textless) = Self.workingViews(photo)
        // Working pixels: the block's last row lies at 138–142, just inside the bottom side; the
        // band past it is blank.
        let block = Quad(topLeft: Point(100, 50), topRight: Point(300, 50), bottomRight: Point(300, 150), bottomLeft: Point(100, 150))
        let blank = Quad(topLeft: Point(100, 175), topRight: Point(300, 175), bottomRight: Point(300, 265), bottomLeft: Point(100, 265))
        // Read into values first: a failed expectation would print the whole field.
        let blockEnd = field.clippedEnd(2, of: block, textless: textless)
        let blankEnd = field.clippedEnd(2, of: blank, textless: textless)
        let blindEnd = field.clippedEnd(2, of: blank, textless: nil)
        #expect(!blockEnd)
        #expect(blankEnd)
        #expect(!blindEnd)
    }

    /// A corner hidden under clutter is not always found; what must hold is that the detector
    /// then returns no quad or a nearly right one, never a wrong crop.
    @Test("hard backgrounds never give a wrong crop", arguments: [SyntheticPhoto.Background.dark, .light, .textured, .cluttered, .pale, .table, .window, .blinds, .poster])
    func neverWrong(_ background: SyntheticPhoto.Background) throws {
        let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: background)
        if let detection = PageDetector().detect(in: photo) {
            #expect(detection.quad.intersectionOverUnion(Self.corners) > 0.88, "\(background): \(detection.quad)")
        }
    }

    /// Where something lies over a page's edge.
    enum Occluder: CaseIterable { case bookAcrossBottomSide, phoneOverTopRightCorner, notebookSlantwiseOverLeftSide }

    /// `photo` in grey with `occluder` lying on it over the edge of the page at `Self.corners`:
    /// a dark cover, its shadow darkening what lies below it.
    static func occluded(_ photo: PixelBuffer, by occluder: Occluder) -> PixelBuffer {
        // Centre, half-extents along and across its long axis, the axis's turn, and its level.
        let (centre, halfLong, halfShort, turn, level): (Point, Double, Double, Double, Double) = switch occluder {
        case .bookAcrossBottomSide: (Point(395, 725), 130, 70, 0.07, 45)
        case .phoneOverTopRightCorner: (Point(640, 95), 75, 38, 0.9, 25)
        case .notebookSlantwiseOverLeftSide: (Point(95, 420), 140, 95, 1.3, 70)
        }
        let (axis, across) = (Point(cos(turn), sin(turn)), Point(-sin(turn), cos(turn)))
        func shape(_ shift: Point) -> Quad {
            let c = centre + shift
            return Quad(topLeft: c - axis * halfLong - across * halfShort, topRight: c + axis * halfLong - across * halfShort,
                        bottomRight: c + axis * halfLong + across * halfShort, bottomLeft: c - axis * halfLong + across * halfShort)
        }
        let (body, shadow) = (shape(Point(0, 0)), shape(Point(7, 9)))
        var grey = photo.grayscale()
        for y in 0..<grey.height {
            for x in 0..<grey.width {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5), i = y * grey.width + x
                if body.contains(p) {
                    grey.pixels[i] = UInt8(level)
                } else if shadow.contains(p) {
                    grey.pixels[i] = UInt8(Double(grey.pixels[i]) * 0.65)
                }
            }
        }
        return grey
    }

    /// A book across a side hides a stretch of it; a phone over a corner hides the corner, which
    /// lies where the two sides, carried on under it, meet. The outline still follows the page,
    /// not the thing's edge. (Not yet for a book across the bottom side on a light desk: there
    /// the page steps faintly from the desk, and the book's edge, strong against the paper, pulls
    /// the fit of that side off the page's edge, its far corner 28 px short. A known weakness,
    /// left open; `scripts/eval-detection`'s occluded sets measure it on photos.)
    @Test("a page with a book, a phone or a notebook lying over its edge is found whole",
          arguments: Occluder.allCases, [SyntheticPhoto.Background.dark, .light, .textured])
    func occludedEdge(_ occluder: Occluder, _ background: SyntheticPhoto.Background) throws {
        let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: background, shading: 0.3)
        let detection = try #require(PageDetector().detect(in: Self.occluded(photo, by: occluder)), "no page: \(occluder) on \(background)")
        // 1% of the photo's side, as with nothing over the page.
        withKnownIssue("a book across a side on a light desk pulls that side's fit off the page") {
            #expect(SyntheticPhoto.cornerError(detection.quad, Self.corners) < 8, "\(occluder) on \(background): \(detection.quad)")
        } when: {
            occluder == .bookAcrossBottomSide && background == .light
        }
    }

    @Test("a rotated page is found with its corners in TL, TR, BR, BL order")
    func rotated() throws {
        let q = Quad(topLeft: Point(300, 60), topRight: Point(740, 330), bottomRight: Point(480, 760), bottomLeft: Point(60, 480))
        let detection = try #require(try Self.detect(q))
        #expect(detection.quad.intersectionOverUnion(q) > 0.95)
        #expect(SyntheticPhoto.cornerError(detection.quad, q) < 12)
    }

    /// Turned near 45° at a slant, the page's top side is nearer horizontal than vertical but
    /// its bottom side is not: its opposite sides lie either side of the diagonal.
    @Test("a page turned near 45°, its top and bottom sides either side of the diagonal, is found", arguments: [SyntheticPhoto.Background.dark, .textured, .light, .pale, .cluttered])
    func turnedNearDiagonal(_ background: SyntheticPhoto.Background) throws {
        let q = Quad(topLeft: Point(80, 300), topRight: Point(440, 40), bottomRight: Point(720, 430), bottomLeft: Point(420, 760))
        let detection = try #require(try Self.detect(q, background: background))
        #expect(SyntheticPhoto.cornerError(detection.quad, q) < 8, "\(background) \(detection.quad)")
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

    /// `margin`: the share of the page between the end of its print and the crease, blank in
    /// shade, where no edge shows at all (a page folded below its text).
    @Test("a folded page whose printed part lies in shade as dark as the desk is found whole, not as its blank part in light", arguments: [0, 15])
    func foldedPrintInShade(margin: Int) throws {
        // On the light desk (222), the page above the crease (its top 45 %, print, and `margin` %
        // more, blank) is turned from the light until its paper is the desk's level: no edge
        // shows round it, only its print. The part in light below the crease is blank, with a
        // clean outline of its own.
        var page = Self.page
        let crease = page.height * (45 + margin) / 100, printEnd = page.height * 45 / 100
        for y in 0..<page.height {
            for x in 0..<page.width {
                let i = y * page.width + x
                let paper = y < printEnd ? Double(page.pixels[i]) : 248
                page.pixels[i] = y < crease ? UInt8(paper * 222 / 248) : 248
            }
        }
        let detection = try #require(try Self.detect(Self.corners, page: page, background: .light))
        #expect(detection.quad.intersectionOverUnion(Self.corners) > 0.9, "\(detection.quad)")
        // The bottom corners lie on the page's edges; the top ones a margin short of the sheet's.
        #expect(detection.quad.bottomLeft.distance(to: Self.corners.bottomLeft) < 8, "\(detection.quad)")
        #expect(detection.quad.bottomRight.distance(to: Self.corners.bottomRight) < 8, "\(detection.quad)")
        #expect(SyntheticPhoto.cornerError(detection.quad, Self.corners) < 40, "\(detection.quad)")
    }

    /// A page lying below a sign on the desk: rows of large letters a little past its top side,
    /// running from its left side to well past its right. Print past a side is where the
    /// outline grows over a part of the sheet in shade; but the sheet beyond a crease is as wide
    /// as the page, and this print runs on past the line of its right side.
    @Test("a page below a printed sign wider than it is not grown over the sign")
    func signPastTopSide() throws {
        let corners = Quad(topLeft: Point(170, 330), topRight: Point(600, 345), bottomRight: Point(630, 760), bottomLeft: Point(140, 745))
        var photo = try SyntheticPhoto.make(page: Self.page, corners: corners, width: 800, height: 800, background: .light)
        for y in 160..<300 where (y - 160) % 28 < 12 {
            for x in 165..<780 where (x / 9) % 5 != 4 {
                let i = (y * photo.width + x) * 3
                (photo.pixels[i], photo.pixels[i + 1], photo.pixels[i + 2]) = (45, 45, 50)
            }
        }
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, corners) < 8, "\(detection.quad)")
    }

    /// The two views detection reads of an 800-pixel-wide photo: its working copy at half size,
    /// and that copy with the print wiped out by the closing detection picks for it.
    static func workingViews(_ photo: PixelBuffer) -> (field: GradientField, textless: GradientField) {
        GradientField.views(of: photo.downsampled(by: 2), closingRadius: Int((GradientField.closingShare * 400).rounded()))
    }

    /// A test image from `Tests/Fixtures`, decoded to grey as the detector reads a photo.
    static func fixture(_ name: String) throws -> PixelBuffer {
        try ImageSource.open(path: Fixtures.testImage(name)).page(0, luminanceOnly: true).image
    }

    /// `quad` in the half-size working copy's pixels.
    static func halved(_ quad: Quad) -> Quad {
        Quad(topLeft: quad.topLeft * 0.5, topRight: quad.topRight * 0.5, bottomRight: quad.bottomRight * 0.5, bottomLeft: quad.bottomLeft * 0.5)
    }

    /// A page folded across, on a light desk (200): the part above the crease in light (235),
    /// the part below turned from it (`shade`), its sides kinked at the crease by 6 px. `crease`:
    /// the share of the page above it; at 35% the part in light is under 12% of the frame, too
    /// small to be a page alone. `printedShade`: print runs on below the crease. `raised`: how
    /// far the page's top corners are moved up (past the frame, for a page cut by it). `desk`:
    /// the desk's level at column x and row y. `heading`: the print above the first row is one dark band
    /// up to the top edge; else the page has a blank top margin. `smallShadePrint`: the print
    /// below the crease is dense, small and grey (rows 2 px high every 5 px, at 160).
    static func foldedOnLightDesk(crease: Double, shade: Double, printedShade: Bool = true, raised: Double = 0, heading: Bool = true,
                                  smallShadePrint: Bool = false, desk: (Int, Int) -> Double = { _, _ in 200 }) throws
        -> (photo: PixelBuffer, page: Quad, lit: Quad) {
        let up = Point(0, raised)
        let page = Quad(topLeft: Point(250, 70) - up, topRight: Point(560, 95) - up, bottomRight: Point(548, 545), bottomLeft: Point(228, 530))
        let kink = Point(6, 0)
        let left = page.topLeft + (page.bottomLeft - page.topLeft) * crease - kink
        let right = page.topRight + (page.bottomRight - page.topRight) * crease + kink
        let lit = Quad(topLeft: page.topLeft, topRight: page.topRight, bottomRight: right, bottomLeft: left)
        let shaded = Quad(topLeft: left, topRight: right, bottomRight: page.bottomRight, bottomLeft: page.bottomLeft)
        let photo = try drawn(seed: 18) { x, y, p in
            // Rows of print clear of the margins, on both parts.
            let printed = x > 285 && x < 520 && (heading || y >= 122) && (y - 100) % 22 < 8 && (x / 9) % 7 != 6
            if lit.contains(p) { return printed && y < Int(left.y) - 12 ? 60 : 235 }
            guard shaded.contains(p) else { return desk(x, y) }
            if smallShadePrint { return x > 270 && x < 525 && y > Int(right.y) + 14 && y < 480 && y % 5 < 2 && (x / 4) % 6 != 5 ? 160 : shade }
            return printed && printedShade && y > Int(right.y) + 14 && y < 500 ? 50 : shade
        }
        let wholeShare = (lit.area + shaded.area) / (800 * 600)
        #expect(wholeShare > 0.12)
        return (photo, page, lit)
    }

    @Test("a folded page whose part in shade is darker than the light desk is found whole, though its part in light is small",
          arguments: [0.35, 0.55])
    func foldedShadeDarkerThanDesk(crease: Double) throws {
        let (photo, page, lit) = try Self.foldedOnLightDesk(crease: crease, shade: 182)
        #expect((lit.area / (800 * 600) < 0.12) == (crease < 0.5))
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// Past the part in shade's far edge the desk lies only 4 levels above it (186: the desk's
    /// light falls off there), and the photo is out of focus (a 2-pixel box blur, twice), so that
    /// edge's faint step is spread over several rows of the working copy. Read between the levels
    /// clear of the blur either side, it is still the band's end.
    @Test("a folded page whose part in shade steps only faintly, and blurred, to the desk past its far edge is found whole",
          arguments: [0.35, 0.55])
    func foldedFaintFarEdge(crease: Double) throws {
        let (sharp, page, lit) = try Self.foldedOnLightDesk(crease: crease, shade: 182, printedShade: false, heading: false)
        let farEdge = Line(through: page.bottomRight, page.bottomLeft)
        let pageSide = Point.dot(Point(400, 300), farEdge.normal) - farEdge.rho
        var pixels = sharp.pixels
        for y in 0..<600 {
            for x in 0..<800 where (Point.dot(Point(Double(x) + 0.5, Double(y) + 0.5), farEdge.normal) - farEdge.rho) * pageSide < 0 {
                pixels[y * 800 + x] -= 14
            }
        }
        var photo = try PixelBuffer(width: 800, height: 600, format: .gray, pixels: pixels)
        for _ in 0..<2 { photo = Self.boxBlur(photo, radius: 2) }
        let (field, textless) = Self.workingViews(photo)
        let part = ScoredQuad(quad: Self.halved(lit), confidence: 1, isFrame: false)
        let outcome = field.extendedOverShade(part, minimumConfidence: 0.55, textless: textless)
        let grown = try #require(outcome)
        #expect(grown.quad.bottomLeft.distance(to: page.bottomLeft * 0.5) < 3, "\(grown.quad)")
        #expect(grown.quad.bottomRight.distance(to: page.bottomRight * 0.5) < 3, "\(grown.quad)")
    }

    /// A page folded across on a light desk (200), its part below the crease turned from the
    /// light to the desk's own level (no edge shows round it, only its print: dense, small and
    /// grey in shade), photographed out of focus. Blurred, that print shows no fine edge at
    /// all, but it still darkens plain paper, and the part in light grows over it (`edgeCounts`'
    /// smudges).
    @Test("print past a fold's crease, blurred past its edges, still grows the part in light over the sheet in shade")
    func smudgedPrintPastCrease() throws {
        var (photo, page, lit) = try Self.foldedOnLightDesk(crease: 0.45, shade: 200, heading: false, smallShadePrint: true)
        for _ in 0..<2 { photo = Self.boxBlur(photo, radius: 2) }
        let (field, textless) = Self.workingViews(photo)
        let part = ScoredQuad(quad: Self.halved(lit), confidence: 1, isFrame: false)
        // Past the crease (the part in light's bottom side), the blurred print has no fine edges
        // left to show it; smudges, it has.
        let band = 12.0...30.0
        #expect(field.fineEdgeShare(beyond: 2, of: part.quad, from: band.lowerBound, to: band.upperBound, textless: textless)
                < GradientField.printPastSide)
        #expect(field.fineEdgeShare(beyond: 2, of: part.quad, from: band.lowerBound, to: band.upperBound, textless: textless, smudges: true)
                >= GradientField.printedBand)
        let grown = try #require(field.extendedOverPrint(part, textless: textless)?.quad)
        // The outline ends a margin past the print, which ends 50 px short of the page's bottom;
        // its side across the fold's far end is the only one that moves.
        #expect(grown.intersectionOverUnion(Self.halved(page)) > 0.85, "\(grown)")
        #expect(grown.topLeft.distance(to: part.quad.topLeft) < 1 && grown.topRight.distance(to: part.quad.topRight) < 1, "\(grown)")
    }

    /// A page folded a little under halfway down, on a pale desk, its part in shade a faint step
    /// from the desk: photo 28 of the folded dev set (`scripts/make-photos --conditions folded
    /// --seed 32`, 1920×1080), box-averaged to the 384×216 working copy the detector reads. The
    /// first search finds only the part in light with a stretch of desk taken in for a fourth
    /// side, too poorly backed to keep; that outline must not stand in the way of the search
    /// for the part in light alone, which grows it over its shade.
    @Test("a folded page is found where the first search finds only an outline too poorly backed to keep")
    func foldedPastWeakOutline() throws {
        let photo = try Self.fixture("folded-on-pale-desk.png")
        let page = Quad(topLeft: Point(133.7, 16.5), topRight: Point(232.3, 7.0), bottomRight: Point(264.3, 174.2), bottomLeft: Point(139.1, 185.1))
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 3, "corner error \(error) px: \(detection.quad)")
    }

    /// The search drops a quad once even its sides still to be measured, fully backed, could not
    /// lift it into the ranking; the ranking must be the one measuring every side gives.
    @Test("the quad search's ranking is the same as measuring every side of every quad",
          arguments: [SyntheticPhoto.Background.light, .dark, .textured, .cluttered, .pale])
    func rankingWithoutPruning(_ background: SyntheticPhoto.Background) throws {
        let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: background)
        let (field, textless) = Self.workingViews(photo.grayscale())
        let lines = textless.outlineLines()
        let pruned = field.rankedQuads(minimumAreaFraction: 0.12, extraLines: lines, textless: textless)
        let exhaustive = field.rankedQuads(minimumAreaFraction: 0.12, extraLines: lines, textless: textless, exhaustive: true)
        #expect(!pruned.isEmpty)
        #expect(pruned.map(\.candidate.quad) == exhaustive.map(\.candidate.quad), "\(background)")
        #expect(pruned.map(\.candidate.score) == exhaustive.map(\.candidate.score), "\(background)")
        #expect(pruned.map(\.place) == exhaustive.map(\.place) && pruned.map(\.bled) == exhaustive.map(\.bled), "\(background)")
    }

    /// A page folded 40 % down on a light grey desk, its lower part turned from the light and
    /// darker than the desk all round: photo 10 of a folded set made for this check
    /// (`scripts/make-photos --conditions folded --seed 70070`, 1920×1080), box-averaged to the
    /// 384×216 working copy. The part in light, dense with print, steps up from the desk beside
    /// it but is no brighter than the desk round it on the whole; the first search finds only
    /// the part in shade, too poorly backed to keep. Taken with its paper at the desk's level,
    /// the part in light grows over the part in shade.
    @Test("a folded page whose part in light is no brighter than the desk round it is found whole by its part in shade")
    func foldedLightAtDeskLevel() throws {
        let photo = try Self.fixture("folded-light-at-desk-level.png")
        let page = Quad(topLeft: Point(101.5, 55.1), topRight: Point(195.9, 35.1), bottomRight: Point(235.4, 188.0), bottomLeft: Point(129.5, 208.8))
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 3, "corner error \(error) px: \(detection.quad)")
    }

    /// A page held up before a pale wall, grey in shade, the arm holding it reaching across its
    /// lower part: photo 56 of a held set made for this check (`scripts/make-photos --conditions
    /// held --seed 71072`, 1920×1080), box-averaged to the 384×216 working copy. The first
    /// reading outlines a stretch of wall through the arm, with nothing printed in it; read again
    /// as a page held up, the printed page is found, and a blank outline gives way to it.
    @Test("a blank outline gives way to a printed page found on a second look")
    func blankOutlineGivesWayToPrintedPage() throws {
        let photo = try Self.fixture("held-before-pale-wall.png")
        let page = Quad(topLeft: Point(217.3, 8.3), topRight: Point(277.7, 27.5), bottomRight: Point(267.9, 178.5), bottomLeft: Point(159.6, 156.0))
        // The first reading, as `PageDetector` makes it.
        let detector = PageDetector()
        let radius = Int((GradientField.closingShare * Double(max(photo.width, photo.height))).rounded())
        let (field, textless) = GradientField.views(of: photo, closingRadius: radius)
        let first = try #require(field.pageOutline(minimumAreaFraction: detector.minimumAreaFraction, minimumConfidence: detector.minimumConfidence,
                                                   textless: textless))
        #expect(field.printShare(inside: first.quad, textless: textless) < GradientField.leastPrint, "\(first.quad)")
        let detection = try #require(detector.detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 5, "corner error \(error) px: \(detection.quad)")
    }

    /// The light across the desk rises from 150 at the frame's left to 250 at its right; the part
    /// of the page turned from the light (198) is lighter than the desk beside its left side and
    /// darker than it beside its right, and as light as the desk under the middle of its far edge.
    /// The part in light, too small to be a page alone, grows over it only where the part in
    /// shade may be lighter than the desk.
    @Test("a small part in light grows over a part in shade lighter than the desk on one side and darker on the other")
    func shadeBetweenDeskLevels() throws {
        let (photo, page, lit) = try Self.foldedOnLightDesk(crease: 0.35, shade: 198) { x, _ in 150 + 0.125 * Double(x) }
        #expect(lit.area / (800 * 600) < 0.12)
        // The working copy detection reads (half size).
        let (field, textless) = Self.workingViews(photo)
        let part = ScoredQuad(quad: Self.halved(lit), confidence: 1, isFrame: false)
        // Taken out of `#require`, which would print the whole field on a failure.
        let darkerOnly = field.extendedOverShade(part, minimumConfidence: 0.55, textless: textless)
        #expect(darkerOnly == nil)
        let outcome = field.extendedOverShade(part, minimumConfidence: 0.55, eitherWay: true, textless: textless)
        let grown = try #require(outcome)
        #expect(grown.quad.bottomLeft.distance(to: page.bottomLeft * 0.5) < 4, "\(grown.quad)")
        #expect(grown.quad.bottomRight.distance(to: page.bottomRight * 0.5) < 4, "\(grown.quad)")
        #expect(grown.quad.topLeft == part.quad.topLeft && grown.quad.topRight == part.quad.topRight, "\(grown.quad)")
    }

    /// The desk right of x = 510 lies in something's shade, at the part in shade's own level
    /// (182): past the crease the page's right side shows no step at all; its left side and most
    /// of its far edge show the band. A part in light too small to be a page alone grows over it
    /// only where a side may show none (`levelSide`), that side backing none of the outline, and
    /// only while every other side is well backed.
    @Test("a small part in light grows over a part in shade one of whose sides lies against a desk at its own level")
    func shadeWithLevelSide() throws {
        let (photo, page, lit) = try Self.foldedOnLightDesk(crease: 0.35, shade: 182, heading: false) { x, _ in x < 510 ? 200 : 182 }
        #expect(lit.area / (800 * 600) < 0.12)
        let (field, textless) = Self.workingViews(photo)
        let part = ScoredQuad(quad: Self.halved(lit), confidence: 1, isFrame: false)
        let bothSides = field.extendedOverShade(part, minimumConfidence: 0, eitherWay: true, textless: textless)
        #expect(bothSides == nil)
        let outcome = field.extendedOverShade(part, minimumConfidence: 0, eitherWay: true, levelSide: true, textless: textless)
        let grown = try #require(outcome)
        #expect(grown.quad.bottomLeft.distance(to: page.bottomLeft * 0.5) < 4, "\(grown.quad)")
        // The level side keeps the part in light's line, which the kink at the crease (3 px here,
        // a third of the way down) turns off the page's by 3 / 0.35 px at its far end.
        let sideLine = Line(through: part.quad.topRight, part.quad.bottomRight)
        #expect(abs(Point.dot(grown.quad.bottomRight, sideLine.normal) - sideLine.rho) < 0.5, "\(grown.quad)")
        #expect(grown.quad.bottomRight.distance(to: page.bottomRight * 0.5) < 10, "\(grown.quad)")
        #expect(grown.quad.topLeft == part.quad.topLeft && grown.quad.topRight == part.quad.topRight, "\(grown.quad)")
        // The right side past the crease is unbacked: the outline is backed less than all round.
        #expect(grown.confidence < 0.8, "\(grown.confidence)")
        // With its print in one dark band up to the top edge, the part's top side is poorly
        // backed: a side with no step is then no longer the only doubt, and nothing grows.
        let (headed, _, _) = try Self.foldedOnLightDesk(crease: 0.35, shade: 182) { x, _ in x < 510 ? 200 : 182 }
        let views = Self.workingViews(headed)
        let doubtful = views.field.extendedOverShade(part, minimumConfidence: 0, eitherWay: true, levelSide: true, textless: views.textless)
        #expect(doubtful == nil)
    }

    /// As above, but the desk right of x = 510 is lit a little more (190) beside the part in
    /// light, its light falling off to the part in shade's level over the 150 px past the crease:
    /// there the page's right side steps down into the part in shade, and further on it shows
    /// no step. Read over its whole length, that side is level.
    @Test("a small part in light grows over a part in shade one of whose sides steps beside the crease and not further on")
    func shadeWithSideLevelPastCrease() throws {
        let (photo, page, lit) = try Self.foldedOnLightDesk(crease: 0.35, shade: 182, heading: false) { x, y in
            x < 510 ? 200 : 182 + 8 * min(1, max(0, Double(400 - y) / 150))
        }
        let (field, textless) = Self.workingViews(photo)
        let part = ScoredQuad(quad: Self.halved(lit), confidence: 1, isFrame: false)
        let outcome = field.extendedOverShade(part, minimumConfidence: 0, eitherWay: true, levelSide: true, textless: textless)
        let grown = try #require(outcome)
        #expect(grown.quad.bottomLeft.distance(to: page.bottomLeft * 0.5) < 4, "\(grown.quad)")
        #expect(grown.quad.bottomRight.distance(to: page.bottomRight * 0.5) < 10, "\(grown.quad)")
        #expect(grown.quad.topLeft == part.quad.topLeft && grown.quad.topRight == part.quad.topRight, "\(grown.quad)")
        #expect(grown.confidence < 0.8, "\(grown.confidence)")
    }

    /// A 400×300 grey photo of a desk at `desk` with a page (`paper`) from x = 100 to 220 and
    /// y = 40 to 260, and `beyond(x)` past its right side to x = 340 between its top and bottom
    /// carried on: the two working views, and the page's outline.
    static func pageWithBand(desk: UInt8, paper: UInt8, beyond: (Int) -> UInt8) throws
        -> (field: GradientField, textless: GradientField, page: ScoredQuad) {
        let w = 400, h = 300
        var pixels = [UInt8](repeating: desk, count: w * h)
        for y in 40..<260 {
            for x in 100..<340 { pixels[y * w + x] = x < 220 ? paper : beyond(x) }
        }
        let (field, textless) = GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels), closingRadius: 4)
        let page = ScoredQuad(quad: Quad(topLeft: Point(100, 40), topRight: Point(220, 40), bottomRight: Point(220, 260), bottomLeft: Point(100, 260)),
                              confidence: 1, isFrame: false)
        return (field, textless, page)
    }

    /// Past the page's right side, between its top and bottom carried on, a band darker than the
    /// desk (170 against 200) reads as the part of a sheet in shade. With a dark object in it
    /// (60, a laptop), the band is no paper all the way to where its far edge rises.
    @Test("a band past a side is grown over only while it is paper: not up to the far edge of a dark object in it",
          arguments: [false, true])
    func darkObjectInShadeBand(object: Bool) throws {
        let (field, textless, page) = try Self.pageWithBand(desk: 200, paper: 230) { x in object && x >= 250 && x < 310 ? 60 : 170 }
        // Taken out of `#require`, which would print the whole field on a failure.
        let outcome = field.extendedOverShade(page, minimumConfidence: 0.55, textless: textless)
        if object {
            #expect(outcome == nil, "\(String(describing: outcome?.quad))")
        } else {
            let grown = try #require(outcome)
            #expect(grown.quad.topRight.distance(to: Point(340, 40)) < 3, "\(grown.quad)")
            #expect(grown.quad.bottomRight.distance(to: Point(340, 260)) < 3, "\(grown.quad)")
        }
    }

    /// Past the page's right side a band lighter than the desk beside it (130 against 120): the
    /// part of a sheet in shade, lighter than the desk in shade, ending where it steps down to
    /// that desk; or (`laptop`) a strip of desk ending at a laptop's dark body (45).
    @Test("a band lighter than the desk is grown over to where it steps down to the desk, not to a dark object past it",
          arguments: [false, true])
    func bandBesideDarkObject(laptop: Bool) throws {
        let (field, textless, page) = try Self.pageWithBand(desk: 120, paper: 225) { x in x < 260 ? 130 : (laptop ? 45 : 120) }
        let outcome = field.extendedOverShade(page, minimumConfidence: 0.55, eitherWay: true, textless: textless)
        if laptop {
            #expect(outcome == nil, "\(String(describing: outcome?.quad))")
        } else {
            let grown = try #require(outcome)
            #expect(grown.quad.topRight.distance(to: Point(260, 40)) < 3, "\(grown.quad)")
            #expect(grown.quad.bottomRight.distance(to: Point(260, 260)) < 3, "\(grown.quad)")
        }
    }

    /// The page's top lies past the frame, so its part in light leans on the frame there. That
    /// side counts as a frame side does in the search (`borderSupport`), not as an unbacked one,
    /// and the part in shade still grows the outline to the page's bottom corners.
    @Test("a part in light leaning on the frame is grown over its part in shade")
    func shadeBeyondFrameLeaningPart() throws {
        let (photo, page, lit) = try Self.foldedOnLightDesk(crease: 0.35, shade: 182, raised: 110)
        // The working copy detection reads (half size), and the part in light cut at its top.
        let (field, textless) = Self.workingViews(photo)
        func onTop(_ a: Point, _ b: Point) -> Point { Point((a.x + (b.x - a.x) * (0 - a.y) / (b.y - a.y)) / 2, 0.5) }
        let part = Quad(topLeft: onTop(lit.topLeft, lit.bottomLeft), topRight: onTop(lit.topRight, lit.bottomRight),
                        bottomRight: lit.bottomRight * 0.5, bottomLeft: lit.bottomLeft * 0.5)
        // Taken out of `#require`, which would print the whole field on a failure.
        let outcome = field.extendedOverShade(ScoredQuad(quad: part, confidence: 1, isFrame: false), minimumConfidence: 0.55, textless: textless)
        let grown = try #require(outcome)
        #expect(grown.quad.bottomLeft.distance(to: page.bottomLeft * 0.5) < 4, "\(grown.quad)")
        #expect(grown.quad.bottomRight.distance(to: page.bottomRight * 0.5) < 4, "\(grown.quad)")
        #expect(grown.quad.topLeft == part.topLeft && grown.quad.topRight == part.topRight, "\(grown.quad)")
    }

    /// Beyond the page's side lies something far darker than paper turned from the light (a
    /// dark folder, 90 against paper at 235): no part of the sheet, however its edges line up.
    @Test("a folded page whose part in light is too small to be a page alone is grown over its print in shade as dark as the desk")
    func smallPartGrownOverPrint() throws {
        let (photo, page, lit) = try Self.foldedOnLightDesk(crease: 0.38, shade: 200)
        #expect(lit.area / (800 * 600) < 0.12)
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(page) > 0.9, "\(detection.quad)")
        // The top corners lie on the page's edges; the bottom ones a margin past its print.
        #expect(detection.quad.topLeft.distance(to: page.topLeft) < 8, "\(detection.quad)")
        #expect(detection.quad.topRight.distance(to: page.topRight) < 8, "\(detection.quad)")
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 40, "\(detection.quad)")
    }

    @Test("a folded page whose print in shade runs on to a margin short of the frame is found whole")
    func printInShadeNearFrame() throws {
        // On the light desk (200), the part below the crease in light (235); the part above it
        // turned from the light to the desk's level, its top 12–20 px from the frame, and its
        // print ending 30 px short of that: too near the frame for a paragraph's gap to show.
        let page = Quad(topLeft: Point(230, 12), topRight: Point(540, 20), bottomRight: Point(555, 560), bottomLeft: Point(215, 552))
        let left = page.topLeft + (page.bottomLeft - page.topLeft) * 0.5, right = page.topRight + (page.bottomRight - page.topRight) * 0.5
        let shaded = Quad(topLeft: page.topLeft, topRight: page.topRight, bottomRight: right, bottomLeft: left)
        let photo = try Self.drawn(seed: 21) { x, y, p in
            let printed = x > 265 && x < 510 && y >= 50 && (y - 50) % 22 < 8 && (x / 9) % 7 != 6
            if shaded.contains(p) { return printed && y < Int(left.y) - 14 ? 50 : 200 }
            if page.contains(p) { return printed && y > Int(right.y) + 14 && y < 530 ? 60 : 235 }
            return 200
        }
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(page) > 0.9, "\(detection.quad)")
        #expect(detection.quad.bottomLeft.distance(to: page.bottomLeft) < 8, "\(detection.quad)")
        #expect(detection.quad.bottomRight.distance(to: page.bottomRight) < 8, "\(detection.quad)")
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 24, "\(detection.quad)")
    }

    /// `printFrom`: where the print starts across the page; from 262 it runs to within a few
    /// pixels of the left side, with no blank margin there.
    @Test("a page cut by the frame on a speckled desk is found: the speckle past its sides is no print running on",
          arguments: [300, 262])
    func cutOnSpeckledDesk(printFrom: Int) throws {
        // The page's top corners lie past the frame; a blank margin runs round its print (but
        // for the left side, from 262). The desk is speckled in 4 px cells, fine enough for the
        // closing to wipe out as it wipes out print.
        let page = Quad(topLeft: Point(260, -30), topRight: Point(580, -12), bottomRight: Point(600, 520), bottomLeft: Point(235, 505))
        var speckle = SyntheticPhoto.Random(seed: 33)
        let cells = (0..<(200 * 150)).map { _ in speckle.range(70...170) }
        let photo = try Self.drawn(seed: 22) { x, y, p in
            guard page.contains(p) else { return cells[(y / 4) * 200 + x / 4] }
            let printed = x > printFrom && x < 540 && y > 20 && y < 440 && (y - 20) % 22 < 8 && (x / 9) % 7 != 6
            return printed ? 60 : 230
        }
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(page) > 0.95, "\(detection.quad)")
        #expect(detection.quad.bottomLeft.distance(to: page.bottomLeft) < 8, "\(detection.quad)")
        #expect(detection.quad.bottomRight.distance(to: page.bottomRight) < 8, "\(detection.quad)")
    }

    @Test("a dark object lined up with a page's sides is not taken for the page's part in shade")
    func darkObjectBesidePage() throws {
        let (photo, _, lit) = try Self.foldedOnLightDesk(crease: 0.55, shade: 90, printedShade: false)
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(lit) > 0.9, "\(detection.quad)")
    }

    @Test("a page whose top edge curls keeps its top corners: its outline holds the page and little else")
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
        // The outline holds the page (all but a sliver along its sides) and little else.
        let held = Polygon.intersectionArea(q.corners, Self.corners.corners)
        #expect(held >= 0.98 * Self.corners.area, "\(held / Self.corners.area) of the page")
        #expect(q.area <= 1.03 * Self.corners.area, "outline \(q.area / Self.corners.area) of the page")
    }

    @Test("a page at strong perspective is found: far edge half as long as the near one")
    func strongPerspective() throws {
        let q = Quad(topLeft: Point(280, 150), topRight: Point(520, 160), bottomRight: Point(700, 700), bottomLeft: Point(100, 690))
        let detection = try #require(try Self.detect(q))
        #expect(SyntheticPhoto.cornerError(detection.quad, q) < 8, "\(detection.quad)")
    }

    /// Corners 10–24 px (1.25–3%) from the frame's edges; then 7–12 px (0.9–1.5%), where the
    /// strip of desk between page and frame is narrower than the closing that wipes out print
    /// and is wiped out with it, so a side along it is judged on its step in the first view.
    /// (So close on a textured desk, the frame stands in for the bottom side: not yet handled.)
    @Test("a page filling the frame, corners within 3% or 1.5% of its edges, is found", arguments: [
        (Quad(topLeft: Point(16, 12), topRight: Point(776, 18), bottomRight: Point(782, 780), bottomLeft: Point(10, 774)), SyntheticPhoto.Background.textured),
        (Quad(topLeft: Point(10, 7), topRight: Point(789, 11), bottomRight: Point(792, 790), bottomLeft: Point(7, 788)), .dark),
    ])
    func fillsFrame(_ q: Quad, background: SyntheticPhoto.Background) throws {
        let detection = try #require(try Self.detect(q, background: background))
        #expect(SyntheticPhoto.cornerError(detection.quad, q) < 8, "\(detection.quad)")
    }

    /// Held close, the page runs off the frame at its top and bottom: all that shows of it is
    /// its part between them, bounded by its two sides. (On the cluttered desk, an object's
    /// edge a few pixels inside the top of the frame stands in for it.)
    @Test("a page running off the frame at its top and bottom is found", arguments: [
        (SyntheticPhoto.Background.dark, 6.0), (.textured, 6), (.light, 6), (.table, 6), (.cluttered, 15),
    ])
    func runsOffBothEnds(_ background: SyntheticPhoto.Background, within error: Double) throws {
        let detection = try #require(try Self.detect(Self.heldClose, background: background))
        #expect(SyntheticPhoto.cornerError(detection.quad, Self.heldCloseInView) < error, "\(detection.quad)")
        #expect(detection.quad.intersectionOverUnion(Self.heldCloseInView) > 0.97, "\(detection.quad)")
    }

    /// A page held close, running off the 800×800 frame at its top and bottom, and its part in
    /// view, bounded by its sides and the frame.
    static let heldClose = Quad(topLeft: Point(240, -70), topRight: Point(575, -55), bottomRight: Point(615, 870), bottomLeft: Point(195, 860))
    static var heldCloseInView: Quad {
        let page = heldClose
        func crossing(_ a: Point, _ b: Point, y: Double) -> Point { Point(a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y) }
        return Quad(topLeft: crossing(page.bottomLeft, page.topLeft, y: 0), topRight: crossing(page.topRight, page.bottomRight, y: 0),
                    bottomRight: crossing(page.topRight, page.bottomRight, y: 800), bottomLeft: crossing(page.bottomLeft, page.topLeft, y: 800))
    }

    /// Held close, and a white note lies on the desk beside a fifth of the page's left side,
    /// brighter than its paper: the side's paper step is read past the note. Leaning on the
    /// frame, an outline with a side that shows no paper is refused.
    @Test("a page running off the frame, a note brighter than its paper beside one side, is found")
    func runsOffBothEndsBesideNote() throws {
        let page = Self.heldClose
        var photo = try SyntheticPhoto.make(page: Self.page, corners: page, width: 800, height: 800, background: .dark)
        let along = page.topLeft - page.bottomLeft, inward = Point(-along.y, along.x).unit
        let besideMiddle = page.bottomLeft + along * 0.5 - inward * 60
        Self.paintEllipse(&photo, centre: besideMiddle, radii: (90, 52), direction: along, colour: (255, 255, 250))
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, Self.heldCloseInView) < 6, "\(detection.quad)")
    }

    /// Held close, with a white sheet lying on the desk at either side of the frame, a gap of
    /// desk from the page's corners, as bright as the paper where the page meets the top of the
    /// frame: along the frame past the page's ends, most of what lies there is as bright as its
    /// paper, but next to its corners the desk steps from it.
    @Test("a page running off the frame at both ends, white sheets further along the frame, is found")
    func runsOffBothEndsBesideSheets() throws {
        // The page's print starts below the frame's top, so the paper meets the frame there.
        var page = Self.page
        for i in 0..<(page.width * page.height / 4) { page.pixels[i] = 248 }
        var photo = try SyntheticPhoto.make(page: page, corners: Self.heldClose, width: 800, height: 800, background: .dark)
        let top = Self.heldCloseInView
        var paper: [UInt8] = []
        for y in 2..<8 {
            for x in Int(top.topLeft.x) + 20..<Int(top.topRight.x) - 20 { paper.append(photo.pixels[(y * 800 + x) * 3]) }
        }
        let level = try #require(paper.sorted().dropFirst(paper.count / 2).first)
        for y in 0..<800 {
            for x in 0..<800 where x < 150 || x >= 680 {
                let i = (y * 800 + x) * 3
                (photo.pixels[i], photo.pixels[i + 1], photo.pixels[i + 2]) = (level, level, level)
            }
        }
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, Self.heldCloseInView) < 6, "\(detection.quad)")
    }

    /// Held close and folded across: below the crease the page is turned from the light and
    /// blank (its print ends above the crease), so only its sides, running on straight to the
    /// frame, show that the sheet goes on past the crease.
    @Test("a page running off the frame, folded with its blank part in shade, is found whole, not cut at its crease",
          arguments: [SyntheticPhoto.Background.textured, .dark])
    func runsOffBothEndsFoldedBlank(_ background: SyntheticPhoto.Background) throws {
        var page = Self.page
        let crease = page.height / 2, printEnd = page.height * 2 / 5
        for y in printEnd..<page.height {
            for x in 0..<page.width { page.pixels[y * page.width + x] = y < crease ? 248 : 200 }
        }
        let detection = try #require(try Self.detect(Self.heldClose, page: page, background: background))
        #expect(detection.quad.intersectionOverUnion(Self.heldCloseInView) > 0.95, "\(detection.quad)")
    }

    /// A receipt scanned on its side, longer than the scanner's bed: its paper reaches across
    /// the frame, and the lid shows dark past its torn ends, 1–3% of the frame deep, a tear's
    /// teeth along them.
    @Test("a flat scan with the scanner's lid showing past both torn ends is left alone")
    func lidPastTornEnds() throws {
        let scan = try Self.drawn(seed: 41) { x, y, _ in
            let teeth = 3 * abs(Double(y).truncatingRemainder(dividingBy: 20) / 10 - 1)
            let left = 16 - 12 * Double(y) / 600 + teeth, right = 8 + 6 * Double(y) / 600 + teeth
            if Double(x) < left || Double(x) > 800 - right { return 8 }
            let printed = x > 40 && x < 760 && y > 30 && y < 570 && (x - 40) % 26 < 9 && (y / 9) % 6 != 5
            return printed ? 50 : 225
        }
        #expect(PageDetector().detect(in: scan) == nil)
    }

    /// A pale door running the frame's height in a darker room shows two sides as a page held
    /// close does, with the frame for its others, but carries no print.
    @Test("a blank door running the frame's height is not taken for a page running off it")
    func doorRunningOffBothEnds() throws {
        let room = try Self.drawn(seed: 43) { x, y, _ in
            let left = 300 + 0.03 * Double(y)
            if Double(x) > left && Double(x) < left + 140 { return 185 }
            return x > 560 && x < 700 && y > 120 && y < 380 ? 40 : 110
        }
        #expect(PageDetector().detect(in: room) == nil)
    }

    @Test("a small video frame (480×270) of a page is found", arguments: [SyntheticPhoto.Background.dark, .textured, .cluttered])
    func lowResolution(_ background: SyntheticPhoto.Background) throws {
        let q = Quad(topLeft: Point(170, 30), topRight: Point(330, 42), bottomRight: Point(322, 250), bottomLeft: Point(150, 236))
        let photo = try SyntheticPhoto.make(page: Self.page, corners: q, width: 480, height: 270, background: background)
        let detection = try #require(PageDetector().detect(in: photo))
        // 1% of the frame's width.
        #expect(SyntheticPhoto.cornerError(detection.quad, q) < 5, "\(background): \(detection.quad)")
    }

    @Test("a blurred photo (out of focus, 2-pixel box blur twice) is found")
    func blurred() throws {
        var photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .textured)
        for _ in 0..<2 { photo = Self.boxBlur(photo, radius: 2) }
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(detection.quad, Self.corners) < 8, "\(detection.quad)")
    }

    /// A page whose bottom lies 50-60 px past the bottom of the 800×800 frame, and its part in view.
    static let cutPage = Quad(topLeft: Point(200, 120), topRight: Point(620, 140), bottomRight: Point(640, 860), bottomLeft: Point(170, 850))
    static let cutPageInView = Quad(topLeft: Point(200, 120), topRight: Point(620, 140), bottomRight: Point(637, 800), bottomLeft: Point(172, 800))

    @Test("a page cut by the bottom of the frame is found, its bottom along the frame")
    func cutByFrame() throws {
        let detection = try #require(try Self.detect(Self.cutPage))
        #expect(detection.quad.intersectionOverUnion(Self.cutPageInView) > 0.95, "\(detection.quad)")
    }

    /// The same page cut by the frame, with a cable lying past its top side: 12 px off the
    /// side's middle, curving away towards its ends and on over the desk beyond them.
    @Test("a page cut by the frame with a cable lying along a side is found", arguments: [SyntheticPhoto.Background.light, .textured])
    func cutByFrameCableAlongSide(_ background: SyntheticPhoto.Background) throws {
        let q = Self.cutPage
        var photo = try SyntheticPhoto.make(page: Self.page, corners: q, width: 800, height: 800, background: background)
        let along = q.topRight - q.topLeft
        let unit = along.unit, outward = Point(along.y, -along.x).unit
        for y in 0..<200 {
            for x in 0..<800 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5) - q.topLeft
                let u = Point.dot(p, unit) / q.topRight.distance(to: q.topLeft), v = Point.dot(p, outward)
                guard u > -0.15, u < 1.15, abs(v - (12 + 60 * (u - 0.5) * (u - 0.5))) < 2.5 else { continue }
                let i = (y * 800 + x) * 3
                (photo.pixels[i], photo.pixels[i + 1], photo.pixels[i + 2]) = (35, 35, 40)
            }
        }
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(Self.cutPageInView) > 0.95, "\(detection.quad)")
    }

    /// A box blur of the given radius, each channel, edges clamped.
    static func boxBlur(_ image: PixelBuffer, radius: Int) -> PixelBuffer {
        var out = image
        let c = image.format.channels, w = image.width, h = image.height
        for y in 0..<h {
            for x in 0..<w {
                for ch in 0..<c {
                    var sum = 0, n = 0
                    for dy in -radius...radius {
                        for dx in -radius...radius {
                            let xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1)
                            sum += Int(image.pixels[(yy * w + xx) * c + ch])
                            n += 1
                        }
                    }
                    out.pixels[(y * w + x) * c + ch] = UInt8(sum / n)
                }
            }
        }
        return out
    }

    /// Paints a filled ellipse (centre, half-axes, the first along `direction`) onto an RGB photo.
    static func paintEllipse(_ photo: inout PixelBuffer, centre: Point, radii: (Double, Double), direction: Point, colour: (UInt8, UInt8, UInt8)) {
        let u = direction.unit, v = Point(-u.y, u.x)
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                let d = Point(Double(x) + 0.5, Double(y) + 0.5) - centre
                let a = Point.dot(d, u) / radii.0, b = Point.dot(d, v) / radii.1
                guard a * a + b * b <= 1 else { continue }
                let i = (y * photo.width + x) * 3
                (photo.pixels[i], photo.pixels[i + 1], photo.pixels[i + 2]) = colour
            }
        }
    }

    /// The palm lies on the desk against the page's left side, the thumb across the side and
    /// over the margin, so that side is backed only above and below the hand.
    @Test("a page held in a hand, the thumb over its margin, is found")
    func heldInHand() throws {
        var photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .dark)
        let left = Self.corners.bottomLeft + (Self.corners.topLeft - Self.corners.bottomLeft) * 0.45
        let along = Self.corners.topLeft - Self.corners.bottomLeft
        let inward = Point(-along.y, along.x).unit
        let skin: (UInt8, UInt8, UInt8) = (214, 160, 128)
        Self.paintEllipse(&photo, centre: left - inward * 62, radii: (110, 70), direction: along, colour: skin)
        Self.paintEllipse(&photo, centre: left + inward * 16, radii: (50, 16), direction: along, colour: skin)
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, Self.corners)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// A mug over the middle of the right side and a pen across the top side, the corners clear.
    @Test("a page with a mug and a pen lying over its edges is found")
    func objectsOverEdges() throws {
        var photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .textured)
        let right = (Self.corners.topRight + Self.corners.bottomRight) * 0.5
        Self.paintEllipse(&photo, centre: right + Point(25, 0), radii: (60, 60), direction: Point(1, 0), colour: (190, 40, 35))
        let top = Self.corners.topLeft + (Self.corners.topRight - Self.corners.topLeft) * 0.4
        Self.paintEllipse(&photo, centre: top, radii: (90, 5), direction: Point(1, 1.6), colour: (25, 30, 90))
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, Self.corners)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    /// A pen lies along the lower part of the right side at a shallow angle: on the desk just
    /// outside the side, then across it and over the bottom corner onto the desk below. Its
    /// inner edge steps down from paper (and from desk) as the page's edge does, along the
    /// whole pen.
    @Test("a page with a pen lying along a side and across it is found", arguments: [SyntheticPhoto.Background.pale, .light, .textured])
    func penAlongSide(_ background: SyntheticPhoto.Background) throws {
        var photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: background)
        let along = Self.corners.bottomRight - Self.corners.topRight
        let inward = Point(-along.y, along.x).unit
        // From 6 px outside the side, 40% of the way down, to 8 px inside it, past the corner.
        let from = Self.corners.topRight + along * 0.4 - inward * 6, to = Self.corners.topRight + along * 1.15 + inward * 8
        Self.paintEllipse(&photo, centre: (from + to) * 0.5, radii: (from.distance(to: to) / 2, 2.5), direction: to - from, colour: (25, 30, 90))
        let detection = try #require(PageDetector().detect(in: photo))
        // The bottom-right corner lies under the pen: 2% of the photo's side.
        let error = SyntheticPhoto.cornerError(detection.quad, Self.corners)
        #expect(error < 16, "corner error \(error) px: \(detection.quad)")
    }

    /// A sticky note lies over the middle of the bottom side on an off-white desk, where the
    /// page stands only 10-15 grey levels above the desk: two fifths of the side show no step.
    @Test("a note over part of a faint side leaves that side its step, and the page is found")
    func noteOverFaintSide() throws {
        var photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .pale)
        let (right, left) = (Self.corners.bottomRight, Self.corners.bottomLeft)
        Self.paintEllipse(&photo, centre: (right + left) * 0.5, radii: (right.distance(to: left) * 0.2, 22), direction: left - right, colour: (250, 228, 110))
        // The side's step at working size: its mean falls short of a page edge's, its median not.
        let (field, _) = GradientField.views(of: photo.downsampled(by: 2), closingRadius: 6)
        let step = field.stepContrast(right * 0.5, left * 0.5, paper: false)
        #expect(step.mean < GradientField.minimumStep && step.median >= GradientField.minimumStep, "mean \(step.mean), median \(step.median)")
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, Self.corners)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }

    @Test("a page held square to the camera is found")
    func square() throws {
        let q = Quad(topLeft: Point(150, 90), topRight: Point(650, 92), bottomRight: Point(652, 735), bottomLeft: Point(149, 733))
        let detection = try #require(try Self.detect(q))
        #expect(detection.quad.intersectionOverUnion(q) > 0.95, "\(detection.quad)")
    }

    /// A page a quarter of the frame, square to it but for the camera's tilt: its sides converge
    /// towards its top by 2°, as a phone held level over a page but not quite flat leaves them.
    /// A box printed on a flat scan is a true rectangle (`slideTitle`).
    @Test("a small page held square to the camera, the camera tilted a little, is found", arguments: [SyntheticPhoto.Background.dark, .textured, .light, .cluttered, .pale, .table, .window])
    func smallSquarePage(_ background: SyntheticPhoto.Background) throws {
        let q = Quad(topLeft: Point(220, 180), topRight: Point(580, 180), bottomRight: Point(588, 625), bottomLeft: Point(212, 625))
        #expect(GradientField.convergence(q) > 1.5 && q.area / (800 * 800) < GradientField.printedBoxAreaFraction)
        let detection = try #require(try Self.detect(q, background: background))
        #expect(SyntheticPhoto.cornerError(detection.quad, q) < 6, "\(detection.quad)")
    }

    /// Rows of word-like dashes from x = 60 on a grey buffer 800 wide, in a cycle of three
    /// lengths, each `shortening` shorter than the one before.
    static func drawRows(_ buffer: inout PixelBuffer, count: Int, top: Int, pitch: Int, height: Int, right: Int, shortening: Int, value: UInt8) {
        for line in 0..<count {
            let y0 = top + line * pitch
            for y in y0..<(y0 + height) { for x in 60..<(right - (line % 3) * shortening) where (x / 9) % 5 != 4 { buffer.pixels[y * 800 + x] = value } }
        }
    }

    @Test("a white box on a dark slide is not taken for a page")
    func slideTitle() throws {
        // A scanned slide: dark ground, a white title box, light text lines below it.
        var slide = PixelBuffer(width: 800, height: 600, format: .gray, fill: 40)
        for y in 40..<150 { for x in 220..<580 { slide.pixels[y * 800 + x] = 250 } }
        Self.drawRows(&slide, count: 8, top: 200, pitch: 45, height: 14, right: 740, shortening: 90, value: 235)
        #expect(PageDetector().detect(in: slide) == nil)
    }

    @Test("a dark slide printed on a white flat scan is not taken for a page")
    func printedSlide() throws {
        // White paper round the slide, as bright as a window behind a page. On the slide, rows
        // of light text over a plain dark foot: the block of text is brighter than the foot,
        // as a page is brighter than its desk, and darker than the paper beyond its other sides.
        var scan = PixelBuffer(width: 800, height: 640, format: .gray, fill: 252)
        for y in 30..<560 { for x in 30..<770 { scan.pixels[y * 800 + x] = 35 } }
        Self.drawRows(&scan, count: 9, top: 60, pitch: 44, height: 16, right: 740, shortening: 60, value: 235)
        for y in 590..<602 { for x in 40..<420 where (x / 8) % 6 != 5 { scan.pixels[y * 800 + x] = 30 } }
        #expect(PageDetector().detect(in: scan) == nil)
    }

    /// A yellow board as bright as the paper lies against the page's left side, on a dark desk:
    /// in grey that side has no step along most of its length, and the outline found there is
    /// doubtful; in whiteness the board is far darker than the paper.
    @Test("a page whose side lies against a board as bright as its paper but coloured is found by its whiteness where its outline in grey is doubtful")
    func besideColouredBoard() throws {
        var photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .dark)
        let grey = photo.grayscale()
        // The paper's own level, near the left side: the board matches it in brightness.
        let left = (Self.corners.topLeft + Self.corners.bottomLeft) * 0.5
        let paper = grey.pixels[Int(left.y) * 800 + Int(left.x) + 12]
        let (top, bottom) = (Self.corners.topLeft, Self.corners.bottomLeft)
        let along = top - bottom
        let outward = Point(along.y, -along.x).unit
        let board = try #require(Self.boardColour(luma: paper))
        // Half an ellipse centred on the side, over the desk alone: the board lies against the
        // side's middle 90%, and its own outline is round, no straight edge to take for a side.
        let (u, v) = (along.unit, outward)
        let half = top.distance(to: bottom) * 0.45
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                let d = Point(Double(x) + 0.5, Double(y) + 0.5) - left
                let (s, t) = (Point.dot(d, u) / half, Point.dot(d, v) / 130)
                guard t > 0, s * s + t * t <= 1 else { continue }
                let i = (y * photo.width + x) * 3
                (photo.pixels[i], photo.pixels[i + 1], photo.pixels[i + 2]) = board
            }
        }
        let inGrey = PageDetector().detect(in: photo.grayscale())
        // In grey an outline is found, but reported doubtful.
        let doubtful = try #require(inGrey)
        #expect(doubtful.confidence < PageDetector().minimumConfidence, "\(doubtful)")
        let found = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(found.quad, Self.corners)
        #expect(error < 8, "corner error \(error) px: \(found.quad)")
        #expect(found.confidence >= PageDetector().minimumConfidence)
        // Asked for, the colour gives the same page.
        #expect(PageDetector().detect(in: photo.grayscale(), colour: { photo }) == found)
    }

    @Test("an outline in whiteness that is a part of the outline in grey (half a sheet in one of two lights) is a part; one that keeps most of it, or lies apart, is not")
    func partOfOutline() {
        let whole = Quad(topLeft: Point(100, 100), topRight: Point(500, 110), bottomRight: Point(510, 700), bottomLeft: Point(90, 690))
        let leftHalf = Quad(topLeft: Point(102, 102), topRight: Point(300, 106), bottomRight: Point(300, 694), bottomLeft: Point(94, 688))
        #expect(PageDetector.isPart(leftHalf, of: whole))
        // The page, where the grey outline took in a strip of the wall beside it too.
        let mostOf = Quad(topLeft: Point(102, 102), topRight: Point(420, 108), bottomRight: Point(425, 695), bottomLeft: Point(94, 688))
        #expect(!PageDetector.isPart(mostOf, of: whole))
        // A page beside the outline in grey (a framed picture taken for it).
        let apart = Quad(topLeft: Point(600, 100), topRight: Point(780, 100), bottomRight: Point(780, 400), bottomLeft: Point(600, 400))
        #expect(!PageDetector.isPart(apart, of: whole))
        // Small enough to be a part, but most of it over the outline's side, outside it.
        let across = Quad(topLeft: Point(420, 100), topRight: Point(640, 100), bottomRight: Point(640, 700), bottomLeft: Point(420, 700))
        #expect(!PageDetector.isPart(across, of: whole))
    }

    /// A photo from `scripts/make-photos` (its held set, a fresh seed), scaled to 768×432: a
    /// printed page held up before a mustard wall, over the lower right of a framed mosaic. In
    /// grey the outline found takes in the picture's frame with the page, its left side over
    /// the bare wall, and is reported at 0; the whiteness finds the page, well backed, within
    /// it. A part of an outline with a side backed by next to nothing is no half of a sheet.
    @Test("a page held up before a framed picture stands where grey takes both in one outline with a side over the wall")
    func pageBeforeFramedPicture() throws {
        let photo = try ImageSource.open(path: Fixtures.testImage("page-held-before-framed-picture.jpg")).page(0).image
        let page = Quad(topLeft: Point(249.7, 114.2), topRight: Point(424.3, 96.1), bottomRight: Point(441.3, 369.5), bottomLeft: Point(252.6, 384.4))
        let detector = PageDetector()
        let grey = photo.grayscale()
        let small = detector.workingCopy(of: grey)
        guard case .page(let both, _) = detector.reading(of: grey, working: small, leastConfidence: detector.minimumConfidence) else {
            Issue.record("the grey reading should find an outline")
            return
        }
        // The grey outline holds the page as a part of it, one of its sides unbacked.
        #expect(PageDetector.isPart(page, of: both.quad), "\(both.quad)")
        let scale = Double(small.width) / Double(grey.width)
        #expect(GradientField(small).weakestSideBacking(both.quad.scaled(scale, scale)) < PageDetector.sheetSideBacking)
        let found = try #require(detector.detect(in: photo))
        #expect(SyntheticPhoto.cornerError(found.quad, page) < 3, "\(found.quad.corners)")
        #expect(found.confidence >= detector.minimumConfidence)
    }

    /// A saturated yellow whose brightness is `luma`.
    static func boardColour(luma: UInt8) -> (UInt8, UInt8, UInt8)? {
        for g in 0...255 {
            let colour = (UInt8(255), UInt8(g), UInt8(40))
            guard let pixel = try? PixelBuffer(width: 1, height: 1, format: .rgb, pixels: [colour.0, colour.1, colour.2]) else { return nil }
            if pixel.grayscale().pixels[0] >= luma { return colour }
        }
        return nil
    }

    @Test("a white page on a cream desk as bright as its paper is found by its whiteness, in colour or asked for")
    func creamDesk() throws {
        let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .cream)
        let grey = photo.grayscale()
        // In grey the page cannot be told from the desk.
        #expect(PageDetector().detect(in: grey) == nil)
        let asked = try #require(PageDetector().detect(in: grey, colour: { photo }))
        let error = SyntheticPhoto.cornerError(asked.quad, Self.corners)
        #expect(error < 8, "corner error \(error) px: \(asked.quad)")
        #expect(PageDetector().detect(in: photo) == asked)
    }

    @Test("a white page before a pale blue wall as bright as its paper, least channel too, is found by its chroma")
    func blueWall() throws {
        let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .blueWall)
        let grey = photo.grayscale()
        #expect(PageDetector().detect(in: grey) == nil)
        // The least channel alone steps by next to nothing.
        var least = grey
        for i in 0..<least.pixelCount { least.pixels[i] = photo.pixels[3 * i..<3 * i + 3].min() ?? 0 }
        #expect(PageDetector().detect(in: least) == nil)
        let found = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(found.quad, Self.corners)
        #expect(error < 8, "corner error \(error) px: \(found.quad)")
    }

    @Test("colour is asked for only where the grey reading finds neither a page it is sure of nor a flat scan's white paper along the frame, which is left alone")
    func colourAskedFor() throws {
        var asked = 0
        let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .dark)
        #expect(PageDetector().detect(in: photo.grayscale(), colour: { asked += 1; return photo }) != nil)
        #expect(asked == 0)
        // A flat scan's best outline is its frame, and its white paper lies along it: it is
        // left alone, its colour not asked for, whether that paper is neutral or tinted as the
        // synthetic photos' paper is.
        let neutral = try PixelBuffer(width: Self.page.width, height: Self.page.height, format: .rgb, pixels: Self.page.pixels.flatMap { [$0, $0, $0] })
        let tinted = try PixelBuffer(width: Self.page.width, height: Self.page.height, format: .rgb, pixels: Self.page.pixels.flatMap { v in
            [v, UInt8(Double(v) * 0.99), UInt8(Double(v) * 0.96)]
        })
        for scan in [neutral, tinted] {
            #expect(PageDetector().detect(in: Self.page, colour: { asked += 1; return scan }) == nil)
            #expect(PageDetector().detect(in: scan) == nil)
        }
        #expect(asked == 0)
        // No page and no frame: asked once.
        let cream = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .cream)
        #expect(PageDetector().detect(in: cream.grayscale(), colour: { asked += 1; return nil }) == nil)
        #expect(asked == 1)
    }

    /// Under light falling off across the desk, most of its band along the frame is below the
    /// light level. Lit evenly, the desk is at the light level (245) all along the frame, where
    /// a flat scan's white paper lies: there the photo's colour is not asked for (a flat scan's
    /// is not decoded again for nothing), and the page is left alone, as in grey.
    @Test("a white page on a cream desk filling the frame, as bright as its paper, is found by its whiteness, though in grey the frame is the best outline; lit evenly at the light level, it is left alone as a flat scan is")
    func creamAllRound() throws {
        let detector = PageDetector()
        for shading in [0.3, 0] {
            let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .creamAllRound,
                                                shading: shading)
            let grey = photo.grayscale()
            guard case .frame = detector.reading(of: grey, working: detector.workingCopy(of: grey), leastConfidence: detector.minimumConfidence) else {
                Issue.record("the grey reading should answer with the frame (shading \(shading))")
                continue
            }
            #expect(detector.detect(in: grey) == nil)
            var asked = 0
            let found = detector.detect(in: grey, colour: { asked += 1; return photo })
            if shading > 0 {
                let page = try #require(found)
                #expect(SyntheticPhoto.cornerError(page.quad, Self.corners) < 8, "\(page.quad)")
                #expect(asked == 1)
            } else {
                #expect(found == nil)
                #expect(asked == 0)
                // Its whiteness alone would show the page.
                let page = try #require(detector.whitenessReading(of: photo, workingGrey: detector.workingCopy(of: grey)))
                #expect(SyntheticPhoto.cornerError(page.quad, Self.corners) < 8, "\(page.quad)")
            }
        }
    }

    /// Photo 58 of `scripts/make-photos --conditions held --seed 840` (1920×1080), scaled down
    /// five times in each direction to the working copy's size, in colour: a grey page held up
    /// before a green wall as bright as it, a hand over its left side and a window pane behind
    /// its lower corner. In grey, the frame is the best outline; in whiteness, the first
    /// outline found (the page and the pane) is too poorly backed for that reading to keep, and
    /// the page is read as held up before it.
    @Test("a grey page held up before a green wall as bright as it is found by its whiteness")
    func heldBeforeColouredWall() throws {
        let photo = try ImageSource.open(path: Fixtures.testImage("held-before-coloured-wall.png")).page(0).image
        try #require(photo.format == .rgb)
        let page = Quad(topLeft: Point(138.2, 5.7), topRight: Point(203.5, 30.0), bottomRight: Point(183.9, 189.1), bottomLeft: Point(70.5, 157.3))
        #expect(PageDetector().detect(in: photo.grayscale()) == nil)
        let found = try #require(PageDetector().detect(in: photo))
        #expect(SyntheticPhoto.cornerError(found.quad, page) < 3, "\(found.quad.corners)")
        var asked = 0
        #expect(PageDetector().detect(in: photo.grayscale(), colour: { asked += 1; return photo }) == found)
        #expect(asked == 1)
    }

    @Test("the brightness step across a page's outline: next to none on a desk as bright as its paper, a paper's on a dark desk")
    func brightnessStep() throws {
        for (background, range) in [(SyntheticPhoto.Background.creamAllRound, Float(-4)...Float(4)), (.dark, Float(100)...Float(220))] {
            let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: background)
            let step = try #require(PageDetector.brightnessStep(across: Self.corners, grey: photo.grayscale()))
            #expect(range.contains(step), "\(background): \(step)")
        }
    }

    @Test("the colour step across a page's outline, and the share of a photo coloured: a cream desk's chroma, a dark wooden desk's, nothing on a grey desk")
    func colourStep() throws {
        // On the dark wooden desk, whose whiteness is cut off at black, the step is still read
        // from the chroma: about twice the wood's 55 less twice the paper's 10.
        for (background, range) in [(SyntheticPhoto.Background.cream, Float(40)...Float(80)), (.light, Float(-3)...Float(3)),
                                    (.dark, Float(60)...Float(110))] {
            let photo = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: background)
            let step = try #require(PageDetector.colourStep(across: Self.corners, colour: photo))
            #expect(range.contains(step), "\(background): \(step)")
        }
        let cream = try SyntheticPhoto.make(page: Self.page, corners: Self.corners, width: 800, height: 800, background: .cream)
        #expect(PageDetector().colouredShare(grey: cream.grayscale(), whiteness: cream.whiteness()) > 0.5)
        // A flat scan in neutral grey is not read for its whiteness at all.
        let neutral = try PixelBuffer(width: Self.page.width, height: Self.page.height, format: .rgb, pixels: Self.page.pixels.flatMap { [$0, $0, $0] })
        #expect(PageDetector().colouredShare(grey: Self.page, whiteness: neutral.whiteness()) == 0)
        #expect(PageDetector().whitenessReading(of: neutral, workingGrey: PageDetector().workingCopy(of: Self.page)) == nil)
    }

    /// A booklet's cover: a white band with a title's bars above a coloured block (or the block
    /// alone) filling the rest, a line of pale bars printed on it.
    static func cover(colour: (UInt8, UInt8, UInt8), whiteBand: Int) -> PixelBuffer {
        var cover = PixelBuffer(width: page.width, height: page.height, format: .rgb, fill: 250)
        for y in 0..<cover.height {
            for x in 0..<cover.width {
                let i = 3 * (y * cover.width + x)
                let title = y >= 40 && y < 56 && x >= 40 && x < 300 && (x / 23) % 4 != 3
                let subtitle = y >= whiteBand + 60 && y < whiteBand + 72 && x >= 40 && x < 260 && (x / 19) % 4 != 3
                let rgb: (UInt8, UInt8, UInt8) = y < whiteBand ? (title ? (30, 30, 30) : (250, 250, 250))
                    : subtitle ? (235, 235, 235) : colour
                (cover.pixels[i], cover.pixels[i + 1], cover.pixels[i + 2]) = rgb
            }
        }
        return cover
    }

    @Test("a booklet's coloured cover, neither brighter nor whiter than its desk, is found by its distance from the desk's colour",
          arguments: [((UInt8(50), UInt8(80), UInt8(150)), 0), ((UInt8(120), UInt8(40), UInt8(90)), 160)])
    func colouredCover(colour: (UInt8, UInt8, UInt8), whiteBand: Int) throws {
        let photo = try SyntheticPhoto.make(page: Self.cover(colour: colour, whiteBand: whiteBand), corners: Self.corners,
                                            width: 800, height: 800, background: .light)
        // Neither its brightness nor its whiteness shows the cover whole.
        let small = PageDetector().workingCopy(of: photo.grayscale())
        if case .page(let page, _) = PageDetector().reading(of: photo.grayscale(), working: small, leastConfidence: 0.55) {
            #expect(SyntheticPhoto.cornerError(page.quad, Self.corners) > 20, "the grey reading found the cover: \(page.quad)")
        }
        #expect(PageDetector().whitenessReading(of: photo, workingGrey: small) == nil)
        let found = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(found.quad, Self.corners)
        #expect(error < 8, "corner error \(error) px: \(found.quad)")
        // Scanned flat, the cover is left alone; and so is a coloured box printed on a white
        // flat scan, which differs from the scan's paper along its frame as a cover from a desk.
        #expect(PageDetector().detect(in: Self.cover(colour: colour, whiteBand: whiteBand)) == nil)
        var boxed = PixelBuffer(width: 800, height: 640, format: .rgb, fill: 255)
        for y in 60..<560 { for x in 50..<750 { (boxed.pixels[3 * (y * 800 + x)], boxed.pixels[3 * (y * 800 + x) + 1], boxed.pixels[3 * (y * 800 + x) + 2]) = colour } }
        #expect(PageDetector().detect(in: boxed) == nil)
    }

    @Test("a green cover as bright as its grey desk, where in grey the frame is the best outline, is found by its distance from the desk's colour; blank, it is not")
    func coverAsBrightAsDesk() throws {
        // The light desk is (222, 220, 214), 220 bright; the cover, 218, its title printed dark.
        // (Light falling off across the desk by 30%, as in the other photos, would take the
        // desk's far corner further from its median colour than the cover lies.)
        var cover = Self.cover(colour: (190, 236, 200), whiteBand: 0)
        for y in 40..<56 {
            for x in 40..<300 where (x / 23) % 4 != 3 {
                let i = 3 * (y * cover.width + x)
                (cover.pixels[i], cover.pixels[i + 1], cover.pixels[i + 2]) = (30, 30, 30)
            }
        }
        let photo = try SyntheticPhoto.make(page: cover, corners: Self.corners, width: 800, height: 800, background: .light, shading: 0.1)
        let grey = photo.grayscale()
        let detector = PageDetector()
        let small = detector.workingCopy(of: grey)
        guard case .frame = detector.reading(of: grey, working: small, leastConfidence: detector.minimumConfidence) else {
            Issue.record("the grey reading should answer with the frame")
            return
        }
        #expect(detector.whitenessReading(of: photo, workingGrey: small) == nil)
        #expect(detector.detect(in: grey) == nil)
        let found = try #require(detector.detect(in: photo))
        let error = SyntheticPhoto.cornerError(found.quad, Self.corners)
        #expect(error < 8, "corner error \(error) px: \(found.quad)")
        // Blank, with nothing printed on it, the same card is nothing to read.
        var blank = cover
        for i in stride(from: 0, to: blank.pixels.count, by: 3) { (blank.pixels[i], blank.pixels[i + 1], blank.pixels[i + 2]) = (190, 236, 200) }
        let card = try SyntheticPhoto.make(page: blank, corners: Self.corners, width: 800, height: 800, background: .light, shading: 0.1)
        #expect(detector.detect(in: card) == nil)
    }

    /// A photo from `scripts/make-photos` (its documents set), scaled to 768×432: a purple
    /// booklet cover with a white band across its top, held up before a wall lighter than it.
    @Test("a cover held up darker than the wall, where in grey the frame is the best outline, is found by its colour")
    func coverDarkerThanWall() throws {
        let photo = try ImageSource.open(path: Fixtures.testImage("cover-held-darker-than-wall.jpg")).page(0).image
        try #require(photo.format == .rgb)
        let cover = Quad(topLeft: Point(226.4, 75.1), topRight: Point(362.0, 33.0), bottomRight: Point(480.1, 332.7), bottomLeft: Point(263.4, 396.7))
        let grey = photo.grayscale()
        let detector = PageDetector()
        guard case .frame = detector.reading(of: grey, working: detector.workingCopy(of: grey), leastConfidence: detector.minimumConfidence) else {
            Issue.record("the grey reading should answer with the frame")
            return
        }
        // The cover steps down into its outline: the grey reading, which reads paper brighter
        // than what it lies on, never weighed it as a page.
        let step = try #require(PageDetector.brightnessStep(across: cover, grey: grey))
        #expect(step <= -GradientField.minimumStep, "\(step)")
        #expect(detector.detect(in: grey) == nil)
        let found = try #require(detector.detect(in: photo))
        #expect(SyntheticPhoto.cornerError(found.quad, cover) < 4, "\(found.quad.corners)")
    }

    /// A photo from `scripts/make-photos` (its held set, 1080p): a printed page held up in the
    /// room's shade, darker than the wall, a hand over its top; beside it a blank, bright window
    /// pane in its frame, which the first reading finds, and again when read brighter. (Saved
    /// at JPEG quality 60.)
    @Test("a page held up darker than the wall beside a bright blank pane is found, not the pane")
    func pageHeldBesidePane() throws {
        let photo = try ImageSource.open(path: Fixtures.testImage("page-held-beside-pane.jpg")).page(0).image
        let page = Quad(topLeft: Point(603.5, 40.3), topRight: Point(955.8, 26.7), bottomRight: Point(1114.3, 943.7), bottomLeft: Point(442.8, 964.9))
        let pane = Quad(topLeft: Point(1156, 72), topRight: Point(1596, 100), bottomRight: Point(1536, 1036), bottomLeft: Point(1129, 1010))
        let found = try #require(PageDetector().detect(in: photo))
        // The hand hides the page's top edge; its sides and bottom are found.
        #expect(found.quad.intersectionOverUnion(page) > 0.9, "\(found.quad.corners)")
        #expect(found.quad.intersectionOverUnion(pane) == 0)
    }

    /// A printed page held up beside a blank window pane in its frame, whose outline and its
    /// near-copies are scored above the page in every reading, so the page is never verified.
    /// Photos from `scripts/make-photos` (its held set, fresh seeds), scaled to 768×432.
    struct PaneBesidePage: Sendable, CustomTestStringConvertible {
        var fixture: String
        var page: Quad
        var pane: Quad
        var testDescription: String { fixture }
    }

    static let panesBesidePages = [
        // Before a brown wall brighter than the page, a hand over its top; the page's corner
        // touches the pane's frame.
        PaneBesidePage(fixture: "page-held-beside-blank-pane.jpg",
                       page: Quad(topLeft: Point(191.8, 44.9), topRight: Point(330.9, 13.2), bottomRight: Point(439.0, 330.7), bottomLeft: Point(215.1, 374.0)),
                       pane: Quad(topLeft: Point(430.6, 10.1), topRight: Point(700.1, 11.6), bottomRight: Point(698.6, 312.2), bottomLeft: Point(429.3, 310.6))),
        // The wall round the pane lit unevenly: brighter above its frame than beside and below
        // it, by more than a paper step. Painted in one level, the pane would leave a step along
        // its top side, and its near-copies would again be scored above the page.
        PaneBesidePage(fixture: "page-held-beside-unevenly-lit-pane.jpg",
                       page: Quad(topLeft: Point(290.0, 15.5), topRight: Point(478.5, 60.8), bottomRight: Point(429.4, 384.6), bottomLeft: Point(214.3, 329.7)),
                       pane: Quad(topLeft: Point(522.0, 26.0), topRight: Point(719.3, 34.8), bottomRight: Point(704.2, 372.3), bottomLeft: Point(507.0, 363.5))),
    ]

    @Test("a page held up beside a blank pane that outscores it is read past the pane", arguments: panesBesidePages)
    func pageReadPastBlankPane(_ photo: PaneBesidePage) throws {
        let image = try ImageSource.open(path: Fixtures.testImage(photo.fixture)).page(0).image
        let found = try #require(PageDetector().detect(in: image))
        #expect(SyntheticPhoto.cornerError(found.quad, photo.page) < 3, "\(found.quad.corners)")
        #expect(found.quad.intersectionOverUnion(photo.pane) < 0.01)
    }

    /// The paint over a blank outline takes, next to each side, the level of what lies just
    /// beyond that side: no side steps from what lies past it, on a wall lit evenly or not, or
    /// with the rest of a sheet past one side.
    @Test("a blank outline is painted over in the level beyond each of its sides")
    func paintOverBlankOutline() throws {
        let (width, height) = (60, 60)
        let pane = Quad(topLeft: Point(20, 20), topRight: Point(40, 20), bottomRight: Point(40, 40), bottomLeft: Point(20, 40))
        func image(_ level: (Int, Int) -> UInt8) throws -> PixelBuffer {
            try PixelBuffer(width: width, height: height, format: .gray, pixels: (0..<height).flatMap { y in (0..<width).map { x in level(x, y) } })
        }
        func inPane(_ x: Int, _ y: Int) -> Bool { (20..<40).contains(x) && (20..<40).contains(y) }
        // A bright pane on a wall at 100.
        let onWall = try image { x, y in inPane(x, y) ? 230 : 100 }
        let painted = try #require(onWall.paintedOver(pane, reach: 3))
        #expect(Set(painted.pixels) == [100])
        // Paper (at 200) above the pane's top side: the paint next to the top side is paper,
        // next to the others the wall.
        let belowPaper = try image { x, y in inPane(x, y) ? 230 : y < 20 ? 200 : 100 }
        let underPaper = try #require(belowPaper.paintedOver(pane, reach: 3))
        #expect(underPaper.pixels[22 * width + 30] == 200)
        #expect(underPaper.pixels[38 * width + 30] == 100)
        #expect(underPaper.pixels[30 * width + 22] == 100)
        #expect(!underPaper.pixels.contains(230))
        // A wall lit from the right: 90 left of the pane, 120 right of it.
        let lit = try image { x, y in inPane(x, y) ? 230 : x < 30 ? 90 : 120 }
        let unevenly = try #require(lit.paintedOver(pane, reach: 3))
        #expect(unevenly.pixels[30 * width + 21] == 90)
        #expect(unevenly.pixels[30 * width + 38] == 120)
    }

    /// A photo from `scripts/make-photos` (its documents set), scaled to 768×432: a till receipt,
    /// under the share of the frame the search looks for, on a speckled desk with a dark box, a
    /// pen and a cable beside it.
    @Test("a receipt stands instead of a doubtful outline that took in the desk beside it")
    func receiptBesideDarkBox() throws {
        let photo = try ImageSource.open(path: Fixtures.testImage("receipt-beside-dark-box.jpg")).page(0).image
        let receipt = Quad(topLeft: Point(353.6, 58.6), topRight: Point(440.5, 41.7), bottomRight: Point(480.6, 318.9), bottomLeft: Point(381.6, 337.5))
        let detector = PageDetector()
        let grey = photo.grayscale()
        // The grey reading keeps an outline with the receipt's right side and one along the
        // box's edge, and reports it below the bar.
        guard case .page(let doubtful, _) = detector.reading(of: grey, working: detector.workingCopy(of: grey), leastConfidence: detector.minimumConfidence) else {
            Issue.record("the grey reading should find an outline")
            return
        }
        #expect(doubtful.confidence < detector.minimumConfidence && doubtful.quad.intersectionOverUnion(receipt) < 0.5, "\(doubtful)")
        let found = try #require(detector.detect(in: photo))
        #expect(SyntheticPhoto.cornerError(found.quad, receipt) < 3, "\(found.quad.corners)")
        #expect(found.confidence >= detector.minimumConfidence)
    }

    @Test("the surface's colour is read along the frame, and how far from it a page and the band round it lie")
    func surfaceDistances() throws {
        let photo = try SyntheticPhoto.make(page: Self.cover(colour: (50, 80, 150), whiteBand: 0), corners: Self.corners,
                                            width: 800, height: 800, background: .light, shading: 0, noise: 0)
        let surface = try #require(PageDetector.surfaceColour(of: photo))
        #expect(abs(surface.x - 222) <= 1 && abs(surface.y - 220) <= 1 && abs(surface.z - 214) <= 1, "\(surface)")
        let distance = try #require(photo.distance(from: surface))
        // The cover, (50, 79, 144) as tinted, lies 233 from the desk's colour; the desk, 0.
        let (inside, outside) = try #require(PageDetector.surfaceDistances(across: Self.corners, distance: distance))
        #expect(inside > 220 && inside < 245 && outside < 3, "\(inside), \(outside)")
        // A grey image has no colour to read.
        #expect(PageDetector.surfaceColour(of: photo.grayscale()) == nil)
        #expect(PageDetector().surfaceReading(of: photo.grayscale(), grey: photo.grayscale(), workingGrey: photo.grayscale()) == nil)
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

    @Test("a flat receipt scan, turned or tilted as a scanner leaves it (white corners), is left alone",
          arguments: [0.0, 2, -2, 5, -5, 10, -10, 180])
    func tiltedScan(_ degrees: Double) {
        // Paper as bright as a light source: its blocks of print, darker on the whole,
        // must not pass for a page against a light.
        for seed in 0..<3 {
            let scan = Self.rotated(Self.receipt(seed: UInt64(seed)), degrees: degrees, fill: 255)
            #expect(PageDetector().detect(in: scan) == nil, "seed \(seed)")
        }
    }

    /// A till receipt 620 px wide, `length` tall: a shop's name, items and prices in two
    /// columns, a rule, a total, a footer, all within its top 1250 px (past them, blank
    /// paper); the paper a little off white.
    static func receipt(seed: UInt64, length: Int = 1250, ink: UInt8 = 40) -> PixelBuffer {
        var rng = SyntheticPhoto.Random(seed: seed)
        var receipt = PixelBuffer(width: 620, height: max(length, 1250), format: .gray, fill: 0)
        for i in receipt.pixels.indices { receipt.pixels[i] = UInt8(242 + rng.next() % 5) }
        var y = 60
        func words(_ x0: Int, _ x1: Int) {
            var x = x0
            while x < x1 {
                let end = min(x + Int(rng.range(20...90)), x1)
                for yy in y..<(y + 14) { for xx in x..<end { receipt.pixels[yy * 620 + xx] = ink } }
                x = end + 12
            }
        }
        for _ in 0..<5 { words(150 + Int(rng.range(0...40)), 470 - Int(rng.range(0...40))); y += 24 }
        y += 30
        for _ in 0..<10 { words(40, 300); words(480, 580); y += 24 }
        y += 20
        for yy in y..<(y + 3) { for x in 30..<590 { receipt.pixels[yy * 620 + x] = 60 } }
        y += 30
        for _ in 0..<4 { words(250, 400); words(480, 580); y += 28 }
        y += 40
        for _ in 0..<3 { words(120, 500); y += 24 }
        return receipt
    }

    /// A receipt's outline in a 1280×720 frame: about 150 by 430 px, 7% of the frame.
    static let smallCorners = Quad(topLeft: Point(600, 150), topRight: Point(748, 170), bottomRight: Point(700, 600), bottomLeft: Point(552, 580))

    @Test("a receipt filling 7% of a 720p frame, under the least share of the frame the other readings look for, is found",
          arguments: [SyntheticPhoto.Background.dark, .light, .textured])
    func smallReceipt(_ background: SyntheticPhoto.Background) throws {
        let grey = Self.receipt(seed: 4)
        let receipt = try PixelBuffer(width: grey.width, height: grey.height, format: .rgb, pixels: grey.pixels.flatMap { [$0, $0, $0] })
        let photo = try SyntheticPhoto.make(page: receipt, corners: Self.smallCorners, width: 1280, height: 720, background: background)
        #expect(Self.smallCorners.area / (1280 * 720) < PageDetector().minimumAreaFraction)
        let found = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(found.quad, Self.smallCorners)
        #expect(error < 6, "corner error \(error) px: \(found.quad)")
    }

    /// A long receipt seen at a slant, its printed end far from the phone: about 90 px wide
    /// there, 150 px at the near end, 500 px long; 6% of a 720p frame. (On a light desk such
    /// a receipt is still missed, or its far corner misplaced.)
    static let slantedCorners = Quad(topLeft: Point(612, 110), topRight: Point(704, 128), bottomRight: Point(724, 632), bottomLeft: Point(572, 612))

    @Test("a long receipt printed along its far quarter alone, in thermal grey, seen at a slant, is found",
          arguments: [SyntheticPhoto.Background.dark, .textured])
    func slantedSparseReceipt(_ background: SyntheticPhoto.Background) throws {
        let grey = Self.receipt(seed: 5, length: 5000, ink: 90)
        let receipt = try PixelBuffer(width: grey.width, height: grey.height, format: .rgb, pixels: grey.pixels.flatMap { [$0, $0, $0] })
        let photo = try SyntheticPhoto.make(page: receipt, corners: Self.slantedCorners, width: 1280, height: 720, background: background)
        // Print fills under `printedPage` of it, as of many a till receipt with a blank tail.
        let small = PageDetector().workingCopy(of: photo.grayscale())
        let (field, textless) = GradientField.views(of: small, closingRadius: PageDetector.closingRadius(of: small))
        let print = field.printShare(inside: Self.slantedCorners.scaled(Double(small.width) / 1280, Double(small.height) / 720), textless: textless)
        #expect(print >= GradientField.leastPrint && print < GradientField.printedPage, "print \(print)")
        let found = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(found.quad, Self.slantedCorners)
        #expect(error < 6, "corner error \(error) px: \(found.quad)")
    }

    @Test("a small outline is no page unless narrow, printed and paper-coloured (a lit part of a sheet, a blank strip, an arm), or with white paper along the frame")
    func smallNonPages() throws {
        let grey = Self.receipt(seed: 4)
        let receipt = try PixelBuffer(width: grey.width, height: grey.height, format: .rgb, pixels: grey.pixels.flatMap { [$0, $0, $0] })
        // The same print on a sheet as wide as it is long: the lit top of a page, the rest of
        // it as grey as the desk.
        let square = Quad(topLeft: Point(520, 200), topRight: Point(800, 215), bottomRight: Point(790, 470), bottomLeft: Point(510, 455))
        let lit = try SyntheticPhoto.make(page: receipt, corners: square, width: 1280, height: 720, background: .dark)
        #expect(PageDetector().detect(in: lit) == nil)
        // A blank strip of paper, and a strip as coloured as skin, printed or not.
        let blank = PixelBuffer(width: 620, height: 1250, format: .rgb, fill: 244)
        var skin = receipt
        for i in stride(from: 0, to: skin.pixels.count, by: 3) {
            let v = Float(skin.pixels[i]) / 244
            (skin.pixels[i], skin.pixels[i + 1], skin.pixels[i + 2]) = (UInt8(225 * v), UInt8(170 * v), UInt8(140 * v))
        }
        for page in [blank, skin] {
            let photo = try SyntheticPhoto.make(page: page, corners: Self.smallCorners, width: 1280, height: 720, background: .dark)
            #expect(PageDetector().detect(in: photo) == nil)
        }
        // Framed by white paper at the light level, as a box printed on a flat scan (a slide's
        // title) is, the receipt is not looked for: no surface shows along the frame.
        var framed = try SyntheticPhoto.make(page: receipt, corners: Self.smallCorners, width: 1280, height: 720, background: .dark)
        #expect(PageDetector().smallPageReading(grey: framed.grayscale(), workingGrey: PageDetector().workingCopy(of: framed.grayscale()), colour: framed) != nil)
        for y in 0..<720 { for x in 0..<1280 where x < 60 || x >= 1220 || y < 60 || y >= 660 {
            let i = 3 * (y * 1280 + x)
            (framed.pixels[i], framed.pixels[i + 1], framed.pixels[i + 2]) = (252, 252, 252)
        } }
        #expect(PageDetector().smallPageReading(grey: framed.grayscale(), workingGrey: PageDetector().workingCopy(of: framed.grayscale()), colour: framed) == nil)
    }

    /// `image` turned `degrees` clockwise about its centre (nearest pixel), on a canvas that
    /// holds it whole, the corners filled with `fill`.
    static func rotated(_ image: PixelBuffer, degrees: Double, fill: UInt8) -> PixelBuffer {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let w = Int((Double(image.width) * abs(c) + Double(image.height) * abs(s)).rounded())
        let h = Int((Double(image.width) * abs(s) + Double(image.height) * abs(c)).rounded())
        var out = PixelBuffer(width: w, height: h, format: .gray, fill: fill)
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x) - Double(w) / 2, dy = Double(y) - Double(h) / 2
                let sx = Int((c * dx + s * dy + Double(image.width) / 2).rounded(.down))
                let sy = Int((-s * dx + c * dy + Double(image.height) / 2).rounded(.down))
                if sx >= 0, sy >= 0, sx < image.width, sy < image.height { out.pixels[y * w + x] = image.pixels[sy * image.width + sx] }
            }
        }
        return out
    }

    @Test("a flat scan with a grey border (a receipt on a scanner lid) is left alone or cropped to its paper")
    func scanWithBorder() {
        var scan = PixelBuffer(width: 600, height: 800, format: .gray, fill: 170)
        let receipt = SyntheticPhoto.textLikePage(width: 400, height: 700)
        for y in 0..<700 { for x in 0..<400 { scan.pixels[(y + 50) * 600 + x + 100] = receipt.pixels[y * 400 + x] } }
        if let detection = PageDetector().detect(in: scan) {
            let paper = Quad(topLeft: Point(100, 50), topRight: Point(500, 50), bottomRight: Point(500, 750), bottomLeft: Point(100, 750))
            #expect(detection.quad.intersectionOverUnion(paper) > 0.97, "\(detection.quad)")
        }
    }
}

@Suite struct PaperRegionTests {
    /// A crumpled sheet: its creases give the line search a wrong outline, barely backed, while
    /// the bright region has the page's shape. (Not explaining the region much better, the
    /// region would lose to a well-backed outline.)
    @Test("an edge outline too poorly backed to keep gives way to a clean region, and only then")
    func weakOutlineGivesWay() throws {
        let page = Quad(topLeft: Point(32, 128), topRight: Point(151, 30), bottomRight: Point(313, 166), bottomLeft: Point(194, 229))
        let creases = Quad(topLeft: Point(148, 26), topRight: Point(313, 159), bottomRight: Point(239, 257), bottomLeft: Point(44, 131))
        let region = ScoredQuad(quad: page, confidence: 0.8, isFrame: false, regionFit: 0.91)
        let minimum = PageDetector().minimumConfidence
        let weak = ScoredQuad(quad: creases, confidence: minimum - 0.01, isFrame: false)
        let chosen = try #require(GradientField.preferred(edges: weak, region: region, edgeFit: 0.87, minimumConfidence: minimum))
        #expect(chosen.quad == page)
        let backed = ScoredQuad(quad: creases, confidence: 0.75, isFrame: false)
        let kept = try #require(GradientField.preferred(edges: backed, region: region, edgeFit: 0.87, minimumConfidence: minimum))
        #expect(kept.quad == creases)
        #expect(GradientField.preferred(edges: weak, region: nil, edgeFit: 0.87, minimumConfidence: minimum)?.quad == creases)
    }

    /// A shadow cast across a page: its part in light is a clean region that explains the
    /// bright region far better than the whole page's outline does (half of which is in
    /// shade), and both are backed all round. The page's own edges stand.
    @Test("a region only as well backed as the edge outline does not replace it")
    func tiedRegionGivesWay() throws {
        let whole = Quad(topLeft: Point(130, 22), topRight: Point(195, 6), bottomRight: Point(255, 157), bottomLeft: Point(143, 183))
        let lit = Quad(topLeft: Point(134, 66), topRight: Point(215, 57), bottomRight: Point(255, 157), bottomLeft: Point(143, 183))
        let region = ScoredQuad(quad: lit, confidence: 1, isFrame: false, regionFit: 0.93)
        let edges = ScoredQuad(quad: whole, confidence: 1, isFrame: false)
        let minimum = PageDetector().minimumConfidence
        #expect(GradientField.preferred(edges: edges, region: region, edgeFit: 0.73, minimumConfidence: minimum)?.quad == whole)
        // Better backed than the edge outline, the region still wins.
        let weaker = ScoredQuad(quad: whole, confidence: 0.9, isFrame: false)
        #expect(GradientField.preferred(edges: weaker, region: region, edgeFit: 0.73, minimumConfidence: minimum)?.quad == lit)
    }

    /// A page beside a parallel edge (a screen's, a folder's): the outline along that edge
    /// scored a little higher on the Hough grid, but its refined sides are backed worse.
    @Test("a near-tied outline better backed overtakes the best-scored one; one too weak to keep, only a well-backed one")
    func betterBackedOutlineWins() throws {
        let page = Quad(topLeft: Point(25, 113), topRight: Point(142, 58), bottomRight: Point(231, 219), bottomLeft: Point(111, 283))
        let beside = Quad(topLeft: Point(25, 113), topRight: Point(142, 58), bottomRight: Point(271, 292), bottomLeft: Point(113, 287))
        let minimum = PageDetector().minimumConfidence
        func outline(_ quad: Quad, _ confidence: Double, backing: Double? = nil, frame: Bool = false) -> ScoredQuad {
            ScoredQuad(quad: quad, confidence: confidence, isFrame: frame, backing: backing ?? confidence)
        }
        func answer(_ ranked: [(Double, ScoredQuad)]) -> ScoredQuad? {
            GradientField.answer(scores: ranked.map(\.0), minimumConfidence: minimum) { ranked[$0].1 }
        }
        let chosen = try #require(answer([(0.267, outline(beside, 0.65)), (0.260, outline(page, 1))]))
        #expect(chosen.quad == page)
        // Far behind on the score, the better backing does not make up for it.
        let kept = try #require(answer([(0.267, outline(beside, 0.65)), (0.15, outline(page, 1))]))
        #expect(kept.quad == beside)
        // A best-scored outline too weak to keep (print on a flat scan) is the answer, to be
        // dropped, unless a well-backed one overtakes it (a white page whose best-scored
        // outline took a pen for a side); so is the frame, and a challenger too weak to keep
        // never takes part.
        let weak = try #require(answer([(0.45, outline(beside, minimum - 0.01)), (0.40, outline(page, GradientField.laterPlaceConfidence - 0.01))]))
        #expect(weak.quad == beside)
        let overtaken = try #require(answer([(0.45, outline(beside, minimum - 0.01)), (0.40, outline(page, GradientField.laterPlaceConfidence))]))
        #expect(overtaken.quad == page)
        let frame = Quad(topLeft: Point(0, 0), topRight: Point(300, 0), bottomRight: Point(300, 400), bottomLeft: Point(0, 400))
        #expect(answer([(0.5, outline(frame, 1, backing: 0, frame: true)), (0.49, outline(page, 1))])?.isFrame == true)
        let cut = try #require(answer([(0.267, outline(beside, 0.65)), (0.26, outline(page, minimum - 0.01, backing: 1))]))
        #expect(cut.quad == beside)
        #expect(answer([]) == nil)
        // A fully backed leader cannot be overtaken, so the rest are never checked.
        var checked: [Int] = []
        let settled = GradientField.answer(scores: [0.3, 0.29, 0.2], minimumConfidence: minimum) { index in
            checked.append(index)
            return outline(index == 0 ? page : beside, 1)
        }
        #expect(settled?.quad == page)
        #expect(checked == [0])
    }

    /// The first places all refused (near-copies of one wrong outline), the page comes further
    /// down; so can a block of print that passes the paper checks by chance, less well backed.
    @Test("below the first places, only a well-backed outline is kept")
    func laterPlaces() {
        let page = Quad(topLeft: Point(25, 113), topRight: Point(142, 58), bottomRight: Point(231, 219), bottomLeft: Point(111, 283))
        let first = GradientField.firstPlaces
        let scores = (0...first).map { 0.3 - Double($0) * 0.01 }
        func answer(confidence: Double) -> ScoredQuad? {
            GradientField.answer(scores: scores, minimumConfidence: PageDetector().minimumConfidence) { index in
                index < first ? nil : ScoredQuad(quad: page, confidence: confidence, isFrame: false, backing: confidence)
            }
        }
        #expect(answer(confidence: 0.9)?.quad == page)
        #expect(answer(confidence: GradientField.laterPlaceConfidence - 0.01) == nil)
        #expect(GradientField.rankedCandidates > first)
        // A place is its own ranking's: the best-scored outline, placed later (one with a bled
        // side), must be well backed; the next, in a first place, need not be.
        let other = Quad(topLeft: Point(30, 110), topRight: Point(140, 60), bottomRight: Point(230, 215), bottomLeft: Point(110, 280))
        func placed(confidence: Double) -> ScoredQuad? {
            GradientField.answer(scores: [0.3, 0.29], places: [first, 0], minimumConfidence: PageDetector().minimumConfidence) { index in
                ScoredQuad(quad: index == 0 ? page : other, confidence: index == 0 ? confidence : 0.7, isFrame: false, backing: 0.7)
            }
        }
        #expect(placed(confidence: 0.9)?.quad == page)
        #expect(placed(confidence: GradientField.laterPlaceConfidence - 0.01)?.quad == other)
    }

    @Test("the running maximum and minimum equal a direct scan of every window", arguments: [1, 2, 5, 9])
    func runningFilter(radius: Int) {
        var rng = SyntheticPhoto.Random(seed: UInt64(radius))
        let w = 23, h = 17
        let values = (0..<(w * h)).map { _ in Float(rng.next() % 256) }
        for horizontal in [true, false] {
            for useMax in [true, false] {
                let fast = GradientField.filter(values, w, h, radius: radius, horizontal: horizontal, max: useMax)
                for y in 0..<h {
                    for x in 0..<w {
                        var expected = values[y * w + x]
                        for d in -radius...radius {
                            let (xx, yy) = horizontal ? (x + d, y) : (x, y + d)
                            guard xx >= 0, yy >= 0, xx < w, yy < h else { continue }
                            expected = useMax ? max(expected, values[yy * w + xx]) : min(expected, values[yy * w + xx])
                        }
                        #expect(fast[y * w + x] == expected, "(\(x), \(y)) horizontal \(horizontal) max \(useMax)")
                    }
                }
            }
        }
    }

    @Test("bright regions are labelled as a flood fill from each region's first pixel labels them", arguments: [0.3, 0.55, 0.8])
    func regionLabels(density: Double) throws {
        var rng = SyntheticPhoto.Random(seed: UInt64(density * 100))
        // Width 37: runs cross the eight-pixel steps of the row scan at every offset.
        let w = 37, h = 29
        let values = (0..<(w * h)).map { _ in Float(rng.unit() < density ? 200 : 40) }
        let field = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: values.map { UInt8($0) }))
        var labels = [Int32](repeating: 7, count: w * h)
        let regions = field.labelRegions(values, threshold: 128, labels: &labels)
        // The reference: a flood fill (4-neighbours) from each unlabelled bright pixel, row by row.
        var expected = [Int32](repeating: -1, count: w * h)
        var areas: [Int] = [], boxes: [(Int, Int, Int, Int)] = []
        for start in 0..<(w * h) where values[start] >= 128 && expected[start] < 0 {
            let label = Int32(areas.count)
            var stack = [start], area = 0, box = (Int.max, Int.min, Int.max, Int.min)
            expected[start] = label
            while let i = stack.popLast() {
                let x = i % w, y = i / w
                area += 1
                box = (min(box.0, x), max(box.1, x), min(box.2, y), max(box.3, y))
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < w && ny < h {
                    let j = ny * w + nx
                    if values[j] >= 128 && expected[j] < 0 { expected[j] = label; stack.append(j) }
                }
            }
            areas.append(area)
            boxes.append(box)
        }
        let wrong = labels.indices.filter { labels[$0] != expected[$0] }
        #expect(wrong.isEmpty, "\(wrong.count) pixels labelled wrongly, first at \(wrong.first.map { ($0 % w, $0 / w) } ?? (0, 0))")
        try #require(regions.count == areas.count)
        for (r, region) in regions.enumerated() {
            #expect(region.label == Int32(r))
            #expect(region.area == areas[r])
            #expect((region.minX, region.maxX, region.minY, region.maxY) == boxes[r])
            let touched = (boxes[r].0 == 0 ? 1 : 0) + (boxes[r].1 == w - 1 ? 1 : 0) + (boxes[r].2 == 0 ? 1 : 0) + (boxes[r].3 == h - 1 ? 1 : 0)
            #expect(region.framesTouched == touched)
        }
    }

    @Test("the search's side step stops early only where the median step falls short either way, and is the full mean where it does not")
    func meanStepMatchesContrast() throws {
        let photo = try SyntheticPhoto.make(page: PageDetectorTests.page, corners: PageDetectorTests.corners, width: 800, height: 800,
                                            background: .textured, shading: 0.3)
        let field = GradientField(photo.downsampled(by: 2))
        var rng = SyntheticPhoto.Random(seed: 5)
        var kept = 0, dropped = 0
        // Random sides, and the page's own (which pass), each run both ways.
        var sides = (0..<300).map { _ in (Point(rng.range(-20...420), rng.range(-20...420)), Point(rng.range(-20...420), rng.range(-20...420))) }
        let page = PageDetectorTests.corners
        for k in 0..<4 { sides.append((page.corner(k) * 0.5, page.corner(k + 1) * 0.5)) }
        for (a, b) in sides + sides.map({ ($0.1, $0.0) }) {
            let full = field.stepContrast(a, b, paper: false)
            let step = field.meanStep(a, b, medianBeyond: GradientField.minimumStep)
            if abs(full.median) >= GradientField.minimumStep {
                #expect(step?.mean == full.mean)
                #expect(step?.darkerInside == (full.median < 0))
                kept += 1
            } else {
                #expect(step == nil)
                dropped += 1
            }
        }
        // The page's sides run both ways: brighter inside, then darker.
        #expect(kept >= 8)
        #expect(dropped >= 100)
    }

    /// The page of the speckled-desk tests, in a 400×300 photo.
    static let speckledPage = Quad(topLeft: Point(120, 40), topRight: Point(300, 52), bottomRight: Point(290, 270), bottomLeft: Point(105, 258))

    /// `speckledPage`, printed, on a speckled desk a little darker than the paper; `over` gives
    /// the brightness of anything lying on top at a point (nil: nothing).
    static func speckledDeskPhoto(over: (Point) -> Double? = { _ in nil }) throws -> PixelBuffer {
        let w = 400, h = 300
        var rng = SyntheticPhoto.Random(seed: 11)
        var speckle = [Double](repeating: 0, count: (w / 2 + 1) * (h / 2 + 1))
        for i in speckle.indices { speckle[i] = rng.range(-8...8) }
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                var value: Double = 196 + speckle[(y / 2) * (w / 2 + 1) + x / 2]
                if speckledPage.contains(p) {
                    let row = (y - 70) % 12
                    value = y > 70 && y < 230 && row < 5 && x > 140 && x < 270 && (x / 9) % 5 != 4 ? 50 : 208
                }
                value = over(p) ?? value
                pixels[y * w + x] = UInt8(max(0, min(255, value + Double(Int(rng.next() % 5) - 2))))
            }
        }
        return try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels)
    }

    /// A page on a speckled desk a little darker than the paper. Wiping out the print lifts the
    /// desk towards the top of its speckle, so its sides keep less than the paper step there,
    /// though far more of their step than a row of print keeps.
    @Test("a page on a speckled desk nearly as light as the paper is found")
    func speckledDesk() throws {
        let page = Self.speckledPage, photo = try Self.speckledDeskPhoto()
        let (field, textless) = GradientField.views(of: photo, closingRadius: 6)
        for (a, b) in field.sidesOf(page) {
            let step = field.stepContrast(a, b, paper: false).mean, wiped = textless.stepContrast(a, b, paper: false).mean
            #expect(wiped < GradientField.minimumPaperStep && wiped > step / 3, "step \(step), wiped out \(wiped)")
        }
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 6, "corner error \(error) px: \(detection.quad)")
    }

    @Test("a faint page edge with a pen lying along it, just outside, keeps enough of its step with the pen wiped out")
    func penAlongFaintEdge() throws {
        let page = Self.speckledPage
        let right = Line(through: page.topRight, page.bottomRight)
        let along = (page.bottomRight - page.topRight).unit, length = page.topRight.distance(to: page.bottomRight)
        // The pen: 3 px wide, 2 px outside the right side, along most of it.
        let photo = try Self.speckledDeskPhoto { p in
            let outside = right.rho - Point.dot(p, right.normal), t = Point.dot(p - page.topRight, along) / length
            return outside >= 2 && outside <= 5 && t > 0.1 && t < 0.9 ? 35 : nil
        }
        let (field, textless) = GradientField.views(of: photo, closingRadius: 6)
        let step = field.stepContrast(page.topRight, page.bottomRight, paper: false).mean
        let wiped = textless.stepContrast(page.topRight, page.bottomRight, paper: false).mean
        // The pen makes the step strong; wiped out, the faint step between paper and desk is left.
        #expect(wiped < GradientField.minimumPaperStep && step / 3 > GradientField.minimumPaperStep, "step \(step), wiped out \(wiped)")
        #expect(GradientField.stepSurvivesWiping(step: step, wiped: wiped))
    }

    /// A page whose print fills its top half, seen as small as the detector sees it: the rows
    /// of print blur into grey, darker even at their brightest than the blank paper below them.
    @Test("a side along the edge of a block of print is refused; the page's own sides pass")
    func printEdgeIsNoSide() throws {
        let w = 160, h = 200
        var pixels = [UInt8](repeating: 150, count: w * h)
        for y in 20..<180 { for x in 20..<140 { pixels[y * w + x] = 215 } }
        for y in stride(from: 32, to: 72, by: 3) { for x in 32..<128 { pixels[y * w + x] = 60 } }  // rows of print
        let image = try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels)
        let (field, textless) = GradientField.views(of: image, closingRadius: 4)
        func candidate(top: Double) -> GradientField.Candidate {
            Self.candidate([Point(20, top), Point(140, top), Point(140, 180), Point(20, 180)])
        }
        // Below the print, blank paper: a step in the small view, none with the print wiped out.
        let belowPrint = candidate(top: 72)
        let (a, b) = (Point(20, 72), Point(140, 72))
        #expect(!GradientField.stepSurvivesWiping(step: field.stepContrast(a, b, paper: false).mean, wiped: textless.stepContrast(a, b, paper: false).mean))
        #expect(field.verified(belowPrint) != nil, "the small view alone takes it for a page")
        #expect(field.verified(belowPrint, textless: textless) == nil)
        #expect(field.verified(candidate(top: 20), textless: textless) != nil)
    }

    /// Past a page's own side lies the desk, darker than its paper however speckled; past a
    /// line across the page (the edge of a band of shade or a block of print), paper again.
    @Test("paper lies past a line across a page, not past the page's own side on a speckled desk")
    func paperPastSide() throws {
        let page = Self.speckledPage, photo = try Self.speckledDeskPhoto()
        let (_, textless) = GradientField.views(of: photo, closingRadius: 4)
        #expect(!textless.paperLies(beyond: 2, of: page, within: 3...15, paperSides: [0, 1, 3]))
        // The page's upper part, cut below the print by a line across the paper.
        let cut = Quad(topLeft: page.topLeft, topRight: page.topRight,
                       bottomRight: page.topRight + (page.bottomRight - page.topRight) * 0.4,
                       bottomLeft: page.topLeft + (page.bottomLeft - page.topLeft) * 0.4)
        #expect(textless.paperLies(beyond: 2, of: cut, within: 3...15, paperSides: [0, 1, 3]))
    }

    /// A white page on a desk as bright as itself on the right, seen small: along its right side
    /// only its soft shadow shows, a dip that the closing fills as it fills a row of print.
    @Test("a side seen by its shadow alone keeps the page; with print beyond it, it is refused")
    func shadowOnlySide() throws {
        let w = 200, h = 160
        func field(printBeyond: Bool) throws -> (GradientField, GradientField) {
            var pixels = [UInt8](repeating: 200, count: w * h)
            var rng = SyntheticPhoto.Random(seed: 3)
            for y in 0..<h {
                for x in 0..<w {
                    var value: Double = 200
                    if x >= 20 && x < 150 && y >= 20 && y < 140 { value = 215 }
                    // Past the right side, the desk rises to the paper's level out of the shadow.
                    if x >= 150 && y >= 14 && y < 146 { value = 215 - Self.shadowDepth * max(0, 1 - Double(x - 150) / 10) }
                    // Or rows of print there, as past the edge of a block of print.
                    if printBeyond && x >= 152 && x < 190 && y >= 26 && y < 134 && (y - 26) % 6 < 3 { value = 90 }
                    pixels[y * w + x] = UInt8(max(0, min(255, value + Double(Int(rng.next() % 5) - 2))))
                }
            }
            return GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels), closingRadius: 6)
        }
        let page = Self.candidate([Point(20, 20), Point(150, 20), Point(150, 140), Point(20, 140)])
        let (a, b) = (Point(150, 20), Point(150, 140))
        let (shaded, shadedTextless) = try field(printBeyond: false)
        // The shadow gives the side a paper step in the small view and none with print wiped out.
        #expect(shaded.stepContrast(a, b).paper >= GradientField.minimumPaperStep)
        #expect(shadedTextless.stepContrast(a, b, paper: false).mean < GradientField.vanishedStep)
        #expect(shaded.verified(page, textless: shadedTextless) != nil)
        let (printed, printedTextless) = try field(printBeyond: true)
        #expect(printed.verified(page, textless: printedTextless) == nil)
    }

    /// Grey levels by which the shadow darkens the desk right at the page's edge; it fades out
    /// over 10 px, narrower than the closing's square.
    static let shadowDepth = 24.0

    /// A grey desk with a pale page on it, at working size; `top` is the page's top row (0: cut by
    /// the frame), and `band` darkens the columns given as a stripe of print.
    static func pageField(top: Int, band: Range<Int> = 0..<0) throws -> GradientField {
        let w = 200, h = 160
        var pixels = [UInt8](repeating: 150, count: w * h)
        for y in top..<150 { for x in 20..<180 { pixels[y * w + x] = band.contains(x) ? 60 : 215 } }
        var field = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
        field.light = GradientField.lightMask(field.luma)
        return field
    }

    /// A candidate with corners `c`; `border` marks the sides (top, right, bottom, left) that
    /// lie along the frame.
    static func candidate(_ c: [Point], border: Set<Int> = []) -> GradientField.Candidate {
        let quad = Quad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
        return GradientField.Candidate(score: 1, quad: quad, sides: (0..<4).map { i in
            border.contains(i) ? Line(theta: .pi / 2, rho: 0.5, isBorder: true) : Line(through: c[i], c[(i + 1) % 4])
        })
    }

    /// A printed page square to the frame at working size (190...310 × 55...235, paper 130), on
    /// `around(x, y)`, in the views the held-up reading judges outlines in.
    static func squarePage(around: (Int, Int) -> UInt8) throws -> (field: GradientField, textless: GradientField) {
        let w = 400, h = 300
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let onPage = x >= 190 && x < 310 && y >= 55 && y < 235
                let printed = y >= 75 && y < 210 && (y - 75) % 12 < 4 && x >= 205 && x < 285 && (x / 4) % 6 != 5
                pixels[y * w + x] = onPage ? (printed ? 40 : 130) : around(x, y)
            }
        }
        var (field, textless) = GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels), closingRadius: 8)
        // As the held-up reading reads them: anything may be the light a side steps down into.
        field.light = [UInt8](repeating: 1, count: field.luma.count)
        textless.light = field.light
        return (field, textless)
    }

    /// Held up before a room, square to the camera: a wall (175) brighter than the paper past
    /// its top and right sides, a door (70) past its left and bottom. Judged against the wall
    /// as the held-up reading judges it, it steps down to the door, as no box printed on white
    /// paper does, and is not taken for one. The same box on a flat scan's white paper (230)
    /// still is.
    @Test("a page held up square to the camera is no printed box; a box printed on white paper is")
    func heldUpSquareIsNoPrintedBox() throws {
        let corners = [Point(190, 55), Point(310, 55), Point(310, 235), Point(190, 235)]
        let held = try Self.squarePage { x, y in x < 190 && y > 110 || y >= 235 ? 70 : 175 }
        let heldField = held.field.judged(lightBeyond: 175, brighterThanPaper: 136)
        let heldTextless = held.textless.judged(lightBeyond: 175, brighterThanPaper: 136)
        #expect(heldField.verified(Self.candidate(corners), textless: heldTextless, heldUp: true) != nil)
        #expect(heldField.verified(Self.candidate(corners), textless: heldTextless) == nil)
        let printed = try Self.squarePage { _, _ in 230 }
        let printedField = printed.field.judged(lightBeyond: 230, brighterThanPaper: 136)
        let printedTextless = printed.textless.judged(lightBeyond: 230, brighterThanPaper: 136)
        #expect(printedField.verified(Self.candidate(corners), textless: printedTextless, heldUp: true) == nil)
    }

    @Test("an outline leaning on the frame is refused where the page's sides end short of it, kept where they run to it")
    func frameStandsInForSide() throws {
        let corners = [Point(20, 0.5), Point(180, 0.5), Point(180, 150), Point(20, 150)]
        #expect(try Self.pageField(top: 0).verified(Self.candidate(corners, border: [0])) != nil)
        #expect(try Self.pageField(top: 30).verified(Self.candidate(corners, border: [0])) == nil)
    }

    /// A flat scan of a magazine page, seen small: a dark, mottled photo printed on white paper,
    /// bled off its left edge, with a step within it (a darker part on the left). The outline
    /// from that step to the photo's other edges has paper, as bright as a light, past three
    /// sides; the photo's top and bottom edges run on past the step. A page against a light,
    /// the paper beyond three sides, ends at its corners.
    @Test("an outline against a light on the sides meeting a side that they run on past is refused")
    func figureOnFlatScan() throws {
        func scan(leftOfStep: UInt8) throws -> PixelBuffer {
            let w = 240, h = 340
            var rng = SyntheticPhoto.Random(seed: 48)
            var pixels = [UInt8](repeating: 0, count: w * h)
            for i in pixels.indices { pixels[i] = UInt8(246 + rng.next() % 6) }
            for y in 70..<320 {
                for x in 0..<220 { pixels[y * w + x] = x < 60 ? leftOfStep : UInt8(95 + rng.next() % 30) }
            }
            return try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels)
        }
        let outline = Self.candidate([Point(60, 70), Point(220, 70), Point(220, 320), Point(60, 320)])
        let (printed, printedTextless) = GradientField.views(of: try scan(leftOfStep: 50), closingRadius: 5)
        #expect(printed.verified(outline, textless: printedTextless) == nil)
        // The photo's top and bottom run on past the step; a block with paper left of it too
        // ends at its corners.
        #expect(printed.sidesRunOn(past: 3, of: outline.quad))
        #expect(!GradientField.views(of: try scan(leftOfStep: 248), closingRadius: 5).field.sidesRunOn(past: 3, of: outline.quad))
    }

    /// A receipt scanned on its side, seen as small as the detector sees it: the scanner's
    /// dark edge runs along three sides, a few pixels in, and a bold heading down the fourth,
    /// rows of print inside. Paper beyond the heading (a flat scan's region) or a desk (a page
    /// filling the photo).
    @Test("an outline hugging the frame on its other sides is refused where paper lies again past its side")
    func headingBesideScanEdge() throws {
        func scan(beyondHeading: UInt8) throws -> PixelBuffer {
            let w = 320, h = 170
            var pixels = [UInt8](repeating: 236, count: w * h)
            func block(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int, _ value: UInt8) {
                for y in y0..<y1 { for x in x0..<x1 { pixels[y * w + x] = value } }
            }
            block(0, w, 0, 7, 175); block(0, w, h - 7, h, 160); block(0, 7, 0, h, 170)
            block(278, w, 7, h - 7, beyondHeading)
            for column in 0..<14 {
                let x = 30 + column * 16
                for y in 20..<(150 - (column % 3) * 30) where (y / 9) % 5 != 4 { block(x, x + 6, y, y + 1, 60) }
            }
            for y in 30..<140 where (y / 12) % 6 != 5 { block(270, 277, y, y + 1, 30) }
            return try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels)
        }
        let region = Self.candidate([Point(7, 7), Point(270, 7), Point(270, 163), Point(7, 163)])
        let (flat, flatTextless) = GradientField.views(of: try scan(beyondHeading: 236), closingRadius: 5)
        #expect(flat.verified(region, textless: flatTextless) == nil)
        let (desk, deskTextless) = GradientField.views(of: try scan(beyondHeading: 120), closingRadius: 5)
        #expect(desk.verified(region, textless: deskTextless) != nil)
    }

    /// The page's top lies 12 px short of the frame: its sides keep their step over most of
    /// their end at the frame, but the strip along the frame between them is desk, as beyond them.
    @Test("an outline leaning on the frame is refused where the strip along the frame between its sides is what lies beyond them")
    func frameStripIsDesk() throws {
        let corners = [Point(20, 0.5), Point(180, 0.5), Point(180, 150), Point(20, 150)]
        let short = try Self.pageField(top: 12), cut = try Self.pageField(top: 0)
        #expect(!short.paperReachesFrame(corners[0], corners[1], view: short))
        #expect(cut.paperReachesFrame(corners[0], corners[1], view: cut))
        #expect(short.verified(Self.candidate(corners, border: [0])) == nil)
        #expect(cut.verified(Self.candidate(corners, border: [0])) != nil)
        // With nothing of the frame's edge beyond the side, there is nothing to tell by; nor
        // where paper and desk both clip white.
        let wide = [Point(0.5, 0.5), Point(199.5, 0.5)]
        #expect(short.paperReachesFrame(wide[0], wide[1], view: short))
        let clipped = GradientField(try PixelBuffer(width: 200, height: 160, format: .gray, pixels: [UInt8](repeating: 255, count: 200 * 160)))
        #expect(clipped.paperReachesFrame(corners[0], corners[1], view: clipped))
    }

    /// A desk darker far along the frame's top edge (a band of shade at each end), a page
    /// 12 px short of the frame or cut by it: the strip between the sides is desk, and steps
    /// from the median of the frame's edge beyond them, which the shade sets, as paper would.
    /// Right past each end the desk is lit as the strip is.
    @Test("an outline leaning on the frame is refused where the strip along the frame is the desk right past its sides")
    func frameStripIsDeskUnderUnevenLight() throws {
        func field(top: Int) throws -> GradientField {
            let w = 400, h = 160
            var pixels = [UInt8](repeating: 150, count: w * h)
            for y in 0..<h { for x in 0..<w where x < 60 || x >= 340 { pixels[y * w + x] = 120 } }
            for y in top..<150 { for x in 120..<280 { pixels[y * w + x] = 215 } }
            var field = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
            field.light = GradientField.lightMask(field.luma)
            return field
        }
        let corners = [Point(120, 0.5), Point(280, 0.5), Point(280, 150), Point(120, 150)]
        let short = try field(top: 12), cut = try field(top: 0)
        #expect(!short.paperReachesFrame(corners[0], corners[1], view: short))
        #expect(cut.paperReachesFrame(corners[0], corners[1], view: cut))
        #expect(short.verified(Self.candidate(corners, border: [0])) == nil)
        #expect(cut.verified(Self.candidate(corners, border: [0])) != nil)
    }

    /// A flat scan filling the frame, rows of print all down it, its lower part in shade (a
    /// crumpled receipt): the lit part leans on the frame with the shading boundary for a side.
    @Test("an outline leaning on the frame is refused where print runs on past its own side")
    func printPastFrameLeaningSide() throws {
        let lit = Self.candidate([Point(0.5, 0.5), Point(199.5, 0.5), Point(199.5, 80), Point(0.5, 80)], border: [0, 1, 3])
        let (scan, scanTextless) = try Self.litPartField(below: .print)
        let printLies = scan.printLies(beyond: 2, of: lit.quad, within: 3...15, textless: scanTextless)
        let printFills = scan.printFills(beyond: 2, of: lit.quad, within: 3...15, textless: scanTextless)
        #expect(printLies)
        #expect(printFills)
        #expect(scan.verified(lit, textless: scanTextless) == nil)
        // Plain paper past the side, the same outline is a page cut by the frame.
        let (page, pageTextless) = try Self.litPartField(below: .nothing)
        let plainLies = page.printLies(beyond: 2, of: lit.quad, within: 3...15, textless: pageTextless)
        #expect(!plainLies)
        #expect(page.verified(lit, textless: pageTextless) != nil)
    }

    /// The same page cut by the frame, a cable lying on the desk past its side: along it at a
    /// slant, or winding to and fro across the band. Its fine edges are as dense as print's
    /// there, but it is one stroke.
    @Test("an outline leaning on the frame keeps a side with a cable lying past it", arguments: [LitPartBelow.cableAlong, .cableWinding])
    func cablePastFrameLeaningSide(_ cable: LitPartBelow) throws {
        let lit = Self.candidate([Point(0.5, 0.5), Point(199.5, 0.5), Point(199.5, 80), Point(0.5, 80)], border: [0, 1, 3])
        let (page, textless) = try Self.litPartField(below: cable)
        let lies = page.printLies(beyond: 2, of: lit.quad, within: 3...15, textless: textless)
        let fills = page.printFills(beyond: 2, of: lit.quad, within: 3...15, textless: textless)
        let kept = page.verified(lit, textless: textless) != nil
        #expect(lies)
        #expect(!fills)
        #expect(kept)
    }

    enum LitPartBelow: Sendable { case nothing, print, cableAlong, cableWinding }

    /// A 200×160 sheet in light above row 80, rows of print on it; below, `below` on a desk (or
    /// the same sheet in shade, where `below` is print).
    static func litPartField(below: LitPartBelow) throws -> (GradientField, GradientField) {
        let w = 200, h = 160
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let row = y >= 10 && y < 150 && (y - 10) % 8 < 3 && x >= 20 && x < 180 && (x / 6) % 5 != 4
                // A cable 2 px wide: from 5 px past the side at the left to 12 px at the right,
                // or winding between 2 and 16 px past it.
                let cable = switch below {
                case .cableAlong: abs(Double(y) - (85 + 0.035 * Double(x))) < 1
                case .cableWinding: abs(Double(y) - (89 + 7 * sin(Double(x) * 2 * .pi / 50))) < 1
                case .nothing, .print: false
                }
                pixels[y * w + x] = row && (below == .print || y < 80) || cable ? 90 : (y < 80 ? 225 : 205)
            }
        }
        return GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels), closingRadius: 6)
    }

    @Test("a side with print just inside it and paper outside is no page edge")
    func printInsideSide() throws {
        // Large enough not to be taken for a box printed on a flat scan.
        let field = try Self.pageField(top: 20, band: 60..<72)
        let right = [Point(60, 20), Point(180, 20), Point(180, 150), Point(60, 150)]
        #expect(field.verified(Self.candidate(right)) == nil)
        let whole = [Point(20, 20), Point(180, 20), Point(180, 150), Point(20, 150)]
        #expect(field.verified(Self.candidate(whole)) != nil)
    }

    @Test("thinned votes: the broad ramp of a soft shadow's edge stands for one line, not a sheaf")
    func thinnedVotes() throws {
        let w = 200, h = 160
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w { pixels[y * w + x] = UInt8(80 + 120 / (1 + exp(-Double(x - 100) / 8))) }
        }
        let field = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
        func upright(_ lines: [Line]) -> Int {
            let strongest = lines.first?.votes ?? 0
            return lines.filter { $0.votes >= strongest / 2 && $0.angle(to: Line(theta: 0, rho: 0)) < 0.1 }.count
        }
        #expect(upright(field.houghLines(maxLines: 64, thin: true)) == 1)
        #expect(upright(field.houghLines(maxLines: 64)) > 1)
    }

    @Test("capped votes: a long faint edge outranks a short strong one where votes count length")
    func cappedVotes() throws {
        let w = 200, h = 160
        var pixels = [UInt8](repeating: 150, count: w * h)
        for y in 120..<h { for x in 0..<w { pixels[y * w + x] = 160 } }  // faint, the width of the frame
        for y in 0..<80 { for x in 150..<w { pixels[y * w + x] = 10 } }  // a black block, its side 80 px
        let field = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
        let byLength = try #require(field.houghLines(maxLines: 8, voteCap: 1.5).first)
        #expect(abs(byLength.theta - .pi / 2) < 0.05 && abs(byLength.rho - 120) < 3)
        let byContrast = try #require(field.houghLines(maxLines: 8).first)
        #expect(byContrast.theta < 0.05 && abs(byContrast.rho - 150) < 3)
    }

    @Test("lines by their longest unbroken edge: a faint page side outranks a line grazing a row of small dark blocks")
    func longestRunFirst() throws {
        let w = 200, h = 160
        var pixels = [UInt8](repeating: 150, count: w * h)
        for y in 120..<h { for x in 60..<140 { pixels[y * w + x] = 160 } }  // faint, 80 px long
        for x0 in stride(from: 2, to: w - 10, by: 14) {  // 10 px blocks 4 px apart, across the frame
            for y in 35..<45 { for x in x0..<(x0 + 10) { pixels[y * w + x] = 40 } }
        }
        let field = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
        func isFaintSide(_ line: Line) -> Bool { abs(line.theta - .pi / 2) < 0.05 && abs(line.rho - 120) < 3 }
        let byVotes = field.houghLines(maxLines: 64, voteCap: 1.5, thin: true)
        let first = try #require(byVotes.first), second = try #require(byVotes.dropFirst().first)
        #expect(!isFaintSide(first) && !isFaintSide(second), "the squares' tops and bottoms outvote it: \(byVotes.prefix(4))")
        #expect(byVotes.contains(where: isFaintSide))
        let byRun = try #require(field.byLongestRun(byVotes, minimum: GradientField.runFloor).first)
        #expect(isFaintSide(byRun), "\(byRun)")
        #expect(field.longestRun(along: byRun, minimum: GradientField.runFloor) >= 76)
    }

    @Test("a faint page side 8 px from a heading joins the candidates, or beside a line askew of it; a line beside an edge that is there without print does not")
    func edgeBesideHeading() throws {
        // A pale desk (200) with a page 12 levels brighter from y = 100 down, and a dark
        // heading bar from y = 108: in the first view the bar's edges outvote the faint side.
        let w = 400, h = 300
        var pixels = [UInt8](repeating: 200, count: w * h)
        for y in 100..<h { for x in 40..<360 { pixels[y * w + x] = 212 } }
        for y in 108..<113 { for x in 70..<330 { pixels[y * w + x] = 40 } }
        let (field, textless) = GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels), closingRadius: 6)
        let side = Line(theta: .pi / 2, rho: 100), heading = Line(theta: .pi / 2, rho: 108)
        // The heading is no edge with the print wiped out, so the side is new beside it...
        #expect(textless.longestRun(along: heading, minimum: GradientField.runFloor) < 10)
        #expect(field.admitted([side], besides: [heading], textless: textless, limit: 8).count == 1)
        // ...but not beside a line a pixel off it, nor beside one 8 px off along which an
        // edge as long shows without print.
        #expect(field.admitted([side], besides: [Line(theta: .pi / 2, rho: 101)], textless: textless, limit: 8).isEmpty)
        // A second step 8 px in, as long as the page's side, with no print on it.
        var twoSteps = pixels
        for y in 108..<h { for x in 40..<360 { twoSteps[y * w + x] = 226 } }
        let (_, stepped) = GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: twoSteps), closingRadius: 6)
        #expect(stepped.longestRun(along: heading, minimum: GradientField.runFloor) >= 300)
        #expect(field.admitted([side], besides: [heading], textless: stepped, limit: 8).isEmpty)
        // Beside a line a few degrees askew (a pen over the side pulls its first-view line off
        // it), with no edge along it without print, the side is new: the askew line parts from
        // it by 10 px and more across the frame, so it could not stand for it.
        #expect(field.admitted([side], besides: [Line(theta: .pi / 2 + 0.05, rho: 108)], textless: textless, limit: 8).count == 1)
        #expect(field.admitted([side], besides: [Line(theta: .pi / 2 + 0.05, rho: 101)], textless: textless, limit: 8).count == 1)
        // A step as faint but only 60 px long (less than a fifth of the frame) is no page side
        // of its own beside the askew line.
        var short = [UInt8](repeating: 200, count: w * h)
        for y in 100..<h { for x in 40..<100 { short[y * w + x] = 212 } }
        let (shortField, shortTextless) = GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: short), closingRadius: 6)
        #expect(shortTextless.longestRun(along: side, minimum: GradientField.runFloor) < 80)
        #expect(shortField.admitted([side], besides: [Line(theta: .pi / 2 + 0.05, rho: 108)], textless: shortTextless, limit: 8).isEmpty)
        // Without a textless view nothing within the wider distance is new.
        #expect(field.admitted([side], besides: [heading], textless: nil, limit: 8).isEmpty)
    }

    @Test("print running on past a part's side makes the region round it the page; a plain surface round a page does not")
    func printContinuesPastCrease() throws {
        let w = 200, h = 170
        // A page on a dark desk, its right part beyond a crease at x = 110 in shade, print on both.
        var pixels = [UInt8](repeating: 60, count: w * h)
        for y in 20..<150 {
            for x in 20..<180 {
                let printed = y >= 30 && y < 140 && (y - 30) % 6 < 2 && x >= 28 && x < 172 && (x / 7) % 4 != 3
                pixels[y * w + x] = printed ? 40 : (x < 110 ? 215 : 160)
            }
        }
        let field = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
        let part = Quad(topLeft: Point(20, 20), topRight: Point(110, 20), bottomRight: Point(110, 150), bottomLeft: Point(20, 150))
        let whole = Quad(topLeft: Point(20, 20), topRight: Point(180, 20), bottomRight: Point(180, 150), bottomLeft: Point(20, 150))
        #expect(field.printContinues(from: part, into: whole))
        // A printed page on a plain grey table.
        var table = [UInt8](repeating: 60, count: w * h)
        for y in 10..<160 { for x in 10..<190 { table[y * w + x] = 150 } }
        for y in 40..<130 {
            for x in 50..<150 { table[y * w + x] = y >= 48 && y < 122 && (y - 48) % 6 < 2 && x >= 56 && x < 144 ? 40 : 215 }
        }
        let onTable = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: table))
        let page = Quad(topLeft: Point(50, 40), topRight: Point(150, 40), bottomRight: Point(150, 130), bottomLeft: Point(50, 130))
        let surface = Quad(topLeft: Point(10, 10), topRight: Point(190, 10), bottomRight: Point(190, 160), bottomLeft: Point(10, 160))
        #expect(!onTable.printContinues(from: page, into: surface))
        // A printed page on a pale desk, the floor past a line beside its left side: the strips
        // of blank desk round it, up to the floor's edge and the frame, are bounded by edges (the
        // page's sides, the floor's), and neither is print.
        var besideFloor = [UInt8](repeating: 60, count: w * h)
        for y in 0..<h { for x in 45..<w { besideFloor[y * w + x] = 200 } }
        for y in 20..<150 {
            for x in 60..<180 { besideFloor[y * w + x] = y >= 30 && y < 140 && (y - 30) % 12 < 2 && x >= 68 && x < 172 && (x / 7) % 3 == 0 ? 40 : 225 }
        }
        let nearFloor = GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: besideFloor))
        let printed = Quad(topLeft: Point(60, 20), topRight: Point(180, 20), bottomRight: Point(180, 150), bottomLeft: Point(60, 150))
        let strip = Quad(topLeft: Point(45, 0), topRight: Point(180, 0), bottomRight: Point(180, 150), bottomLeft: Point(45, 150))
        let continues = nearFloor.printContinues(from: printed, into: strip)
        #expect(!continues)
    }

    /// A printed page on a desk (110, light falling off to the right), and a second printed
    /// sheet beside it, under the page's right side and running out of the frame. The page's
    /// bottom carried on runs along the second sheet's bottom, and its top carried on runs over
    /// the desk above the second sheet's top, which lies `drop` px lower at the page's side.
    static func pageBesideSheet(drop: Double) throws -> (photo: PixelBuffer, page: Quad) {
        let page = Quad(topLeft: Point(150, 80), topRight: Point(420, 60), bottomRight: Point(440, 530), bottomLeft: Point(170, 550))
        let sheet = Quad(topLeft: Point(400, 60 + drop), topRight: Point(820, 30), bottomRight: Point(820, 499), bottomLeft: Point(400, 531))
        let photo = try PageDetectorTests.drawn(seed: 41) { x, y, p in
            if page.contains(p) {
                let printed = y > 120 && y < 480 && (y - 120) % 18 < 3 && x > 200 && x < 390 && (x / 9) % 5 != 4
                return printed ? 45 : 218
            }
            if sheet.contains(p) {
                let printed = y > 140 && y < 480 && x > 470 && x < 780 && (x - 470) % 14 < 5 && (y / 23) % 4 != 3
                return printed ? 40 : 208
            }
            return 120 - 0.03 * Double(x)
        }
        return (photo, page)
    }

    @Test("a page beside a second printed sheet running out of the frame is not merged with it")
    func pageBesideSheet() throws {
        let (photo, page) = try Self.pageBesideSheet(drop: 45)
        let detection = try #require(PageDetector().detect(in: photo))
        // The page alone: its bottom-right corner is not carried on along the second sheet's
        // bottom, which goes on from the page's as a curled corner's edge would, since that would
        // turn the page's right side across the second sheet's print.
        #expect(SyntheticPhoto.cornerError(detection.quad, page) < 6, "\(detection.quad)")
    }

    @Test("a side with no step along a stretch has left the page: over a desk brightening along it; not where a dark object crosses it")
    func straySide() throws {
        let w = 200, h = 170
        // A page (215) on a desk (100) from x = 20 to 100, y = 40 to 160; the outline runs on along
        // the page's top to x = 200. Past x = 100 lies the desk, a black phone (30) across the top
        // side carried on (to x = 170), or the desk brightening towards the paper's level (to 190).
        enum Beyond { case desk, phone, brightDesk }
        func field(_ beyond: Beyond) throws -> GradientField {
            var pixels = [UInt8](repeating: 100, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    if y >= 40 && y < 160 && x >= 20 && x < 100 { pixels[y * w + x] = 215 }
                    if beyond == .phone && y >= 25 && y < 60 && x >= 100 && x < 170 { pixels[y * w + x] = 30 }
                    if beyond == .brightDesk && x >= 100 { pixels[y * w + x] = UInt8(100 + (x - 100) * 9 / 10) }
                }
            }
            return GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
        }
        let outline = Quad(topLeft: Point(20, 40), topRight: Point(200, 40), bottomRight: Point(200, 160), bottomLeft: Point(20, 160))
        let page = Quad(topLeft: Point(20, 40), topRight: Point(100, 40), bottomRight: Point(100, 160), bottomLeft: Point(20, 160))
        let desk = try field(.desk), phone = try field(.phone), bright = try field(.brightDesk)
        let overDesk = desk.strays(0, of: outline), ownSide = desk.strays(0, of: page), overBright = bright.strays(0, of: outline)
        #expect(overDesk && !ownSide && overBright)
        // Over the phone the side shows no step either, but the level outside jumps at both ends.
        let overPhone = phone.strays(0, of: outline)
        #expect(!overPhone)
    }

    @Test("a sheet goes on past a crease, but not past the strip of desk between two sheets")
    func paperContinuesPastCrease() throws {
        let w = 200, h = 170
        // Print on both sides of x = 110 on a dark desk: `step` paper past it (a crease, the part
        // beyond in shade), or a second sheet from x = 118 with the desk between.
        func sheets(beyond: UInt8, gap: Int) throws -> GradientField {
            var pixels = [UInt8](repeating: 60, count: w * h)
            for y in 20..<150 {
                for x in 20..<180 where x < 110 || x >= 110 + gap {
                    let printed = y >= 30 && y < 140 && (y - 30) % 6 < 2 && x >= 28 && x < 172 && (x / 7) % 4 != 3
                    pixels[y * w + x] = printed ? 40 : (x < 110 ? 215 : beyond)
                }
            }
            return GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
        }
        let part = Quad(topLeft: Point(20, 20), topRight: Point(110, 20), bottomRight: Point(110, 150), bottomLeft: Point(20, 150))
        let whole = Quad(topLeft: Point(20, 20), topRight: Point(180, 20), bottomRight: Point(180, 150), bottomLeft: Point(20, 150))
        let folded = try sheets(beyond: 160, gap: 0)
        let foldPrinted = folded.printContinues(from: part, into: whole), foldGoesOn = folded.paperContinues(from: part, into: whole)
        #expect(foldPrinted && foldGoesOn)
        // Print runs on into the second sheet as it does past a crease; the paper does not,
        // however narrow or wide the strip of desk between them.
        for gap in [6, 12, 30] {
            let twoSheets = try sheets(beyond: 215, gap: gap)
            let printed = twoSheets.printContinues(from: part, into: whole), goesOn = twoSheets.paperContinues(from: part, into: whole)
            #expect(printed && !goesOn, "gap \(gap)")
        }
    }

    @Test("a sheet's sides go on as edges past a crease; past a page lying on a second sheet, one runs over that sheet")
    func sidesGoOnPastCrease() throws {
        let w = 200, h = 170
        // A printed page (215) on a dark desk (60), x = 20 to 110: past x = 110 the sheet goes on
        // to x = 180, in shade (170) and printed; or the page lies on a second printed sheet (200)
        // reaching past it, from x = 100 to 190 and from above its top down to its bottom's line.
        func views(secondSheet: Bool) throws -> (field: GradientField, textless: GradientField) {
            var pixels = [UInt8](repeating: 60, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let onPage = x >= 20 && x < 110 && y >= 20 && y < 150
                    let onFlap = !secondSheet && x >= 110 && x < 180 && y >= 20 && y < 150
                    let onSheet = secondSheet && x >= 100 && x < 190 && y >= 5 && y < 150
                    guard onPage || onFlap || onSheet else { continue }
                    let printed = y >= 30 && y < 140 && (y - 30) % 6 < 2 && x >= 28 && x < 172 && (x / 7) % 4 != 3
                    pixels[y * w + x] = printed ? 40 : onPage ? 215 : onFlap ? 170 : 200
                }
            }
            let photo = try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels)
            return GradientField.views(of: photo, closingRadius: max(2, Int((GradientField.closingShare * Double(w)).rounded())))
        }
        let part = Quad(topLeft: Point(20, 20), topRight: Point(110, 20), bottomRight: Point(110, 150), bottomLeft: Point(20, 150))
        let whole = Quad(topLeft: Point(20, 20), topRight: Point(180, 20), bottomRight: Point(180, 150), bottomLeft: Point(20, 150))
        let folded = try views(secondSheet: false)
        let flapSides = folded.field.sidesGoOn(from: part, into: whole, textless: folded.textless)
        #expect(flapSides.count == 2 && flapSides.allSatisfy { $0 >= 0.5 }, "\(flapSides)")
        // On the second sheet, print runs on and the page's bottom goes on along the sheet's, so
        // the checks a region round both passes cannot tell it from a crease; the page's top,
        // carried on over the sheet, is backed by no edge.
        let onSheet = try views(secondSheet: true)
        let printed = onSheet.field.printContinues(from: part, into: whole), goesOn = onSheet.field.paperContinues(from: part, into: whole)
        #expect(printed && goesOn)
        let sheetSides = onSheet.field.sidesGoOn(from: part, into: whole, textless: onSheet.textless)
        #expect(sheetSides.count == 2 && sheetSides.contains { $0 < 0.5 }, "\(sheetSides)")
    }

    @Test("a sheet's part past a crease has edges along both sides carried on; a strip of desk has one at most")
    func paperContinuesOnBothSides() throws {
        let w = 200, h = 170
        // The part in light (215) below y = 80, between x = 40 and 160, on a desk lit unevenly:
        // 100 left of x = 100, 140 right of it. Past the crease, a band at 120 between the
        // sides carried on: the sheet's part in shade, or (`deskBeyond`) the desk itself in
        // something's shade, at the band's own level right of the page's corner.
        func photo(deskBeyond: Bool) throws -> GradientField {
            var pixels = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let inBand = y < 80 && x >= 40 && (x < 160 || deskBeyond && x >= 100)
                    pixels[y * w + x] = y >= 80 && y < 160 && x >= 40 && x < 160 ? 215 : inBand ? 120 : x < 100 ? 100 : 140
                }
            }
            return GradientField(try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels))
        }
        let part = Quad(topLeft: Point(40, 80), topRight: Point(160, 80), bottomRight: Point(160, 160), bottomLeft: Point(40, 160))
        let whole = Quad(topLeft: Point(40, 20), topRight: Point(160, 20), bottomRight: Point(160, 160), bottomLeft: Point(40, 160))
        let sheet = try photo(deskBeyond: false), desk = try photo(deskBeyond: true)
        // Either way the left side keeps a paper step up into the band.
        let sheetOneSide = sheet.paperContinues(from: part, into: whole, step: 6)
        let deskOneSide = desk.paperContinues(from: part, into: whole, step: 6)
        #expect(sheetOneSide && deskOneSide)
        let sheetBoth = sheet.paperContinues(from: part, into: whole, step: 6, bothSides: true)
        let deskBoth = desk.paperContinues(from: part, into: whole, step: 6, bothSides: true)
        #expect(sheetBoth && !deskBoth)
    }

    @Test("closing wipes out strokes narrower than its square and keeps a bright square where it was")
    func closing() {
        let w = 60, h = 60
        var image = [Float](repeating: 20, count: w * h)
        for y in 15..<45 { for x in 15..<45 { image[y * w + x] = 240 } }
        for x in 15..<45 { image[30 * w + x] = 20; image[31 * w + x] = 20 }  // a two-pixel rule across it
        let closed = GradientField.closing(image, w, h, radius: 3)
        #expect(closed[30 * w + 30] == 240)
        #expect(closed[15 * w + 15] == 240 && closed[44 * w + 44] == 240)
        #expect(closed[14 * w + 30] == 20 && closed[30 * w + 45] == 20)
    }

    @Test("closing a wide image equals the maximum, then the minimum, over each clipped square", arguments: [1, 2, 4])
    func closingMatchesDirectScan(radius: Int) {
        // Wider than tall, so that rows and columns swapped at the wrong size would show.
        var rng = SyntheticPhoto.Random(seed: UInt64(100 + radius))
        let w = 29, h = 13
        let values = (0..<(w * h)).map { _ in Float(rng.next() % 256) }
        func square(_ p: [Float], max useMax: Bool) -> [Float] {
            (0..<(w * h)).map { i in
                let x = i % w, y = i / w
                var extreme = p[i]
                for yy in max(0, y - radius)...min(h - 1, y + radius) {
                    for xx in max(0, x - radius)...min(w - 1, x + radius) {
                        extreme = useMax ? max(extreme, p[yy * w + xx]) : min(extreme, p[yy * w + xx])
                    }
                }
                return extreme
            }
        }
        let closed = GradientField.closing(values, w, h, radius: radius), expected = square(square(values, max: true), max: false)
        let wrong = closed.indices.filter { closed[$0] != expected[$0] }
        #expect(wrong.isEmpty, "\(wrong.count) pixels differ, the first at (\(wrong.first.map { $0 % w } ?? 0), \(wrong.first.map { $0 / w } ?? 0))")
    }

    @Test("the largest quad in a hull: a rectangle with clipped corners gives the rectangle's corners within the clip")
    func inscribedQuad() throws {
        var points: [Point] = []
        for (x, y) in [(10.0, 12.0), (12.0, 10.0), (88.0, 10.0), (90.0, 12.0), (90.0, 58.0), (88.0, 60.0), (12.0, 60.0), (10.0, 58.0), (50.0, 35.0)] {
            points.append(Point(x, y))
        }
        let hull = GradientField.convexHull(points)
        #expect(hull.count == 8)
        let quad = try #require(GradientField.largestInscribedQuad(hull))
        let truth = Quad(topLeft: Point(10, 10), topRight: Point(90, 10), bottomRight: Point(90, 60), bottomLeft: Point(10, 60))
        #expect(SyntheticPhoto.cornerError(quad, truth) <= 2 * 2.0.squareRoot() + 1e-9, "\(quad)")
        #expect(quad.signedArea > 0)
    }
}
