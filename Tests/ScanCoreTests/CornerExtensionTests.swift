import ScanTestSupport
import Testing
@testable import ScanCore

/// The corner step on its own: carried out past a crease to a folded page's corners, held back
/// where what runs on past a corner is another edge.
@Suite struct CornerExtensionTests {
    static let page = Quad(topLeft: Point(200, 100), topRight: Point(620, 90), bottomRight: Point(650, 700), bottomLeft: Point(150, 690))
    /// The crease's ends: the top fifth stands up askew, so its left end lies 8% of the width
    /// inside the page's outline and its right end 3%. The side edges bend there by about 20°
    /// on the left and 8° on the right.
    static let foldLeft = Point(224, 230), foldRight = Point(613, 224)
    static let crease = Quad(topLeft: foldLeft, topRight: foldRight, bottomRight: page.bottomRight, bottomLeft: page.bottomLeft)

    /// An 800×800 photo of the fold: desk at 110 (`deskAbove` above the crease's height), the
    /// part below the crease at 208, and `upper` (when given) at `upperLevel`, turned from the light.
    static func photo(upper: [Point]?, upperLevel: Double = 178, deskAbove: Double = 110) throws -> GradientField {
        let lower = crease
        var rng = SyntheticPhoto.Random(seed: 56)
        var pixels = [UInt8](repeating: 0, count: 800 * 800)
        for y in 0..<800 {
            for x in 0..<800 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                var value = p.y < foldRight.y ? deskAbove : 110.0
                if lower.contains(p) { value = 208 } else if let upper, contains(upper, p) { value = upperLevel }
                pixels[y * 800 + x] = UInt8(max(0, min(255, value + Double(Int(rng.next() % 7) - 3))))
            }
        }
        return GradientField(try PixelBuffer(width: 800, height: 800, format: .gray, pixels: pixels))
    }

    /// Whether `p` lies inside the convex polygon `points` (clockwise on screen).
    static func contains(_ points: [Point], _ p: Point) -> Bool {
        (0..<points.count).allSatisfy { Point.cross(points[($0 + 1) % points.count] - points[$0], p - points[$0]) >= 0 }
    }

    @Test("both ends of a crease are carried out to the page's corners, though one side bends 20° at the fold")
    func standingFold() throws {
        let field = try Self.photo(upper: [Self.page.topLeft, Self.page.topRight, Self.foldRight, Self.foldLeft])
        let q = field.extendedCorners(Self.crease, page: 208, ground: 110)
        #expect(q.topLeft.distance(to: Self.page.topLeft) < 8, "\(q)")
        #expect(q.topRight.distance(to: Self.page.topRight) < 8, "\(q)")
        #expect(q.bottomRight.distance(to: Self.page.bottomRight) < 3, "\(q)")
        #expect(q.bottomLeft.distance(to: Self.page.bottomLeft) < 3, "\(q)")
    }

    @Test("a standing part much dimmer than the page, on a desk lit brighter behind it, still carries the corners")
    func dimFlapOnBrighterDesk() throws {
        // The flap is 43 levels dimmer (under half the page's contrast with the desk) and the
        // desk behind it 15 brighter: the step across its sides is 40 of the page's 98, but it
        // is most of what the flap's own paper makes against the desk.
        let field = try Self.photo(upper: [Self.page.topLeft, Self.page.topRight, Self.foldRight, Self.foldLeft], upperLevel: 165, deskAbove: 125)
        let q = field.extendedCorners(Self.crease, page: 208, ground: 110)
        #expect(q.topLeft.distance(to: Self.page.topLeft) < 8, "\(q)")
        #expect(q.topRight.distance(to: Self.page.topRight) < 8, "\(q)")
    }

    @Test("a bent run past one corner alone is not followed: only a crease's other end may bend")
    func bentRunAlone() throws {
        // Something as bright lies beyond the left end, its edge bent as the fold's would be,
        // but nothing runs on past the right end: the outline's top is the page's own edge.
        let field = try Self.photo(upper: [Self.page.topLeft, Point(420, 96), Point(420, 227), Self.foldLeft])
        let q = field.extendedCorners(Self.crease, page: 208, ground: 110)
        #expect(q.topLeft.distance(to: Self.foldLeft) < 1, "\(q)")
        #expect(q.topRight.distance(to: Self.foldRight) < 1, "\(q)")
    }

    @Test("a pen along the page's edge on a pale desk, running on past its corner, does not carry the corner")
    func penOnPaleDesk() throws {
        // The desk brightens to the right, past halfway from it to the page: there it passes
        // for paper, and the pen's edge bounds that "paper" as it bounds the page.
        let page = Quad(topLeft: Point(200, 150), topRight: Point(560, 130), bottomRight: Point(600, 620), bottomLeft: Point(180, 640))
        let along = (page.bottomRight - page.bottomLeft).unit
        let below = Point(-along.y, along.x)
        var pixels = [UInt8](repeating: 0, count: 800 * 800)
        for y in 0..<800 {
            for x in 0..<800 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                let depth = Point.dot(p - page.bottomLeft, below), run = Point.dot(p - page.bottomLeft, along)
                let pen = depth > 1 && depth < 8 && run > -20 && run < page.bottomLeft.distance(to: page.bottomRight) + 160
                pixels[y * 800 + x] = pen ? 45 : Self.contains(page.corners, p) ? 222 : UInt8(180 + 20 * x / 800)
            }
        }
        let field = GradientField(try PixelBuffer(width: 800, height: 800, format: .gray, pixels: pixels))
        // The page's median, lowered by its print, and the desk's.
        let q = field.extendedCorners(page, page: 200, ground: 186)
        #expect(q.bottomRight.distance(to: page.bottomRight) < 1, "\(q)")
        #expect(q.topRight.distance(to: page.topRight) < 1, "\(q)")
    }

    @Test("a sheet beside the page, its top in line with the page's but against a dark cable, does not carry the corner")
    func neighbourAgainstCable() throws {
        // Past the page's top-right corner, the top's line goes on as the edge between a
        // second sheet and a cable lying along it: paper inside, but not the desk outside.
        let page = Quad(topLeft: Point(200, 150), topRight: Point(520, 150), bottomRight: Point(520, 650), bottomLeft: Point(200, 650))
        let sheet = Quad(topLeft: Point(520, 150), topRight: Point(700, 150), bottomRight: Point(700, 450), bottomLeft: Point(520, 450))
        var pixels = [UInt8](repeating: 110, count: 800 * 800)
        for y in 0..<800 {
            for x in 0..<800 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                if Self.contains(page.corners, p) || Self.contains(sheet.corners, p) {
                    pixels[y * 800 + x] = 210
                } else if x >= 524, x < 700, y >= 140, y < 150 {
                    pixels[y * 800 + x] = 40
                }
            }
        }
        let field = GradientField(try PixelBuffer(width: 800, height: 800, format: .gray, pixels: pixels))
        let q = field.extendedCorners(page, page: 210, ground: 110)
        #expect(q.topRight.distance(to: page.topRight) < 1, "\(q)")
    }

    @Test("an outline whose side lies on the floor's edge past a page on a pale desk keeps its corners: no side turns out over the desk")
    func floorEdgeRun() throws {
        // The desk (214) is paper-bright between the page (236) and the ring the outline lies
        // on, which takes in the dark floor (90) from row 650 down. The outline's bottom lies on
        // the floor's edge, 12 px past the page's own, and that edge runs on to the frame past
        // both bottom corners; following it would turn both sides out over the desk.
        let page = Quad(topLeft: Point(250, 120), topRight: Point(560, 110), bottomRight: Point(575, 638), bottomLeft: Point(235, 638))
        var pixels = [UInt8](repeating: 214, count: 800 * 800)
        for y in 0..<800 {
            for x in 0..<800 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                if y >= 650 { pixels[y * 800 + x] = 90 } else if Self.contains(page.corners, p) { pixels[y * 800 + x] = 236 }
            }
        }
        let field = GradientField(try PixelBuffer(width: 800, height: 800, format: .gray, pixels: pixels))
        let outline = Quad(topLeft: page.topLeft, topRight: page.topRight, bottomRight: Point(575.6, 650), bottomLeft: Point(234.6, 650))
        let q = field.extendedCorners(outline, page: 236, ground: 150)
        #expect(q == outline, "\(q)")
    }

    @Test("a corner placed a few pixels inside the page's edge still runs on along that edge to the page's corner")
    func cornerInsideEdge() throws {
        // The outline's top is a chord 11 px below the page's top-left corner (a flap standing
        // up past a fold), and its top-left corner, where the lines of its sides met, lies 3 px
        // inside the page's left edge. The edge runs on straight from beside it; the 3 px are the
        // corner's own error, not the run straying.
        let page = Quad(topLeft: Point(300, 300), topRight: Point(560, 290), bottomRight: Point(570, 560), bottomLeft: Point(290, 560))
        var pixels = [UInt8](repeating: 110, count: 800 * 800)
        for y in 0..<800 {
            for x in 0..<800 where Self.contains(page.corners, Point(Double(x) + 0.5, Double(y) + 0.5)) { pixels[y * 800 + x] = 208 }
        }
        let field = GradientField(try PixelBuffer(width: 800, height: 800, format: .gray, pixels: pixels))
        let up = (page.topLeft - page.bottomLeft).unit, inward = Point(-up.y, up.x) * -1
        let corner = page.topLeft - up * 11 + inward * 3
        let outline = Quad(topLeft: corner, topRight: page.topRight, bottomRight: page.bottomRight, bottomLeft: page.bottomLeft)
        let q = field.extendedCorners(outline, page: 208, ground: 110)
        #expect(q.topLeft.distance(to: page.topLeft) < 2.5, "\(q)")
        #expect(q.topRight == page.topRight && q.bottomLeft == page.bottomLeft, "\(q)")
    }
}
