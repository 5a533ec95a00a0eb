import ImageInput
@testable import PagePreparation
import ScanCore
import ScanTestSupport
import Testing

/// Turning pages upright and levelling their text, on the sample page turned and tilted by
/// ScanCore's own kernels (exact quarter turns; bilinear tilts). The clean sample's characters
/// are 15 pixels tall, so the tests of turns and tilts leave scaling off to compare pixels.
@Suite struct LegibilityTests {
    static let turnAndLevel = Legibility(upscale: false)

    /// The clean sample page, grey, as decoded.
    static func upright() throws -> ScanPage {
        try ImageSource.open(path: Fixtures.sample("clean.png")).page(0, luminanceOnly: true)
    }

    /// `page`'s pixels as a fresh page from a source of its own.
    static func fresh(_ image: PixelBuffer) -> ScanPage {
        ScanPage(source: "test", index: 0, image: image, resolution: nil)
    }

    @Test("a page turned 90, 180 or 270 degrees is turned back exactly", arguments: [1, 2, 3])
    func quarterTurns(_ q: Int) throws {
        let original = try Self.upright()
        // Turned q quarters counter-clockwise: standing it up takes q clockwise.
        var turned = original
        turned.turn(quarterTurns: 4 - q)
        var page = Self.fresh(turned.image)
        let outcome = try Self.turnAndLevel.apply(to: &page)
        #expect(outcome.quarterTurns == q)
        #expect(page.quarterTurns == q)
        #expect(page.image == original.image, "turned back pixel for pixel")
        // A point of the upright page maps back to where it lies in the turned source.
        let back = try #require(page.mapToSource(Point(10, 20)))
        let forward = try #require(turned.sourceToCurrent.apply(Point(10, 20)))
        #expect(abs(back.x - forward.x) < 1e-9 && abs(back.y - forward.y) < 1e-9)
    }

    @Test("a tilt of 2, 5 or 10 degrees either way is measured within 0.3 degrees and levelled",
          arguments: [2.0, -2.0, 5.0, -5.0, 10.0, -10.0])
    func tilts(_ degrees: Double) throws {
        var tilted = try Self.upright()
        // Tilted counter-clockwise by `degrees` (straighten turns clockwise).
        try tilted.straighten(degrees: -degrees, scale: 1)
        var page = Self.fresh(tilted.image)
        let outcome = try Self.turnAndLevel.apply(to: &page)
        #expect(outcome.quarterTurns == 0)
        #expect(abs(outcome.skewDegrees - degrees) <= 0.3, "measured \(outcome.skewDegrees)")
        #expect(abs(page.deskewDegrees - degrees) <= 0.3)
        // A word at the centre of the levelled page maps back to the tilted page's centre.
        let centre = Point(Double(page.image.width) / 2, Double(page.image.height) / 2)
        let source = try #require(page.mapToSource(centre))
        #expect(abs(source.x - Double(tilted.image.width) / 2) < 0.5 && abs(source.y - Double(tilted.image.height) / 2) < 0.5)
    }

    @Test("an upright, straight page is left untouched")
    func uprightUntouched() throws {
        let original = try Self.upright()
        var page = original
        let outcome = try Self.turnAndLevel.apply(to: &page)
        #expect(outcome.quarterTurns == 0 && outcome.skewDegrees == 0)
        let geometry = try #require(outcome.geometry)
        #expect(!geometry.linesRunVertically && geometry.uprightEvidence > 5)
        #expect(page.steps == original.steps && page.image == original.image)
    }

    @Test("a blank page and a page of noise are not turned or levelled")
    func noText() throws {
        var blank = Self.fresh(PixelBuffer(width: 800, height: 1000, format: .gray, fill: 250))
        #expect(try Legibility().apply(to: &blank) == Legibility.Outcome())
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<(600 * 600)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        var noisy = Self.fresh(try PixelBuffer(width: 600, height: 600, format: .gray, pixels: noise))
        let outcome = try Legibility().apply(to: &noisy)
        #expect(outcome.quarterTurns == 0)
        #expect(noisy.steps.count == 1)
    }

    @Test("faint lines: only up-down evidence strong enough on its own turns the page half-way",
          arguments: [(-14.0, false, 2), (-8.0, false, 0), (12.5, false, 0), (-14.0, true, 0)])
    func faintLines(evidence: Double, vertical: Bool, turns: Int) {
        let g = TextGeometry(characterHeight: 36, linesRunVertically: vertical, directionRatio: 1.4, neighbourRatio: 1.4, skewDegrees: 0,
                             skewConfidence: 1, uprightEvidence: evidence, textBounds: .init(minX: 0, minY: 0, maxX: 100, maxY: 100))
        #expect(Legibility.quarterTurns(for: g) == turns)
        // Clear lines turn at the ordinary threshold.
        var clear = g
        clear.directionRatio = 3
        #expect(Legibility.quarterTurns(for: clear) == (evidence <= -5 ? (vertical ? 3 : 2) : (vertical ? 1 : 0)))
    }

    @Test("--rotate and --deskew none leave a turned, tilted page as it is; a given turn is applied")
    func modes() throws {
        var turned = try Self.upright()
        turned.turn(quarterTurns: 2)
        try turned.straighten(degrees: 4, scale: 1)
        var page = Self.fresh(turned.image)
        #expect(try Legibility(rotation: .none, deskew: .none, upscale: false).apply(to: &page) == Legibility.Outcome())
        #expect(page.image == turned.image)
        var given = try Self.upright()
        let outcome = try Legibility(rotation: .quarterTurns(1), deskew: .none, upscale: false).apply(to: &given)
        #expect(outcome.quarterTurns == 1 && given.quarterTurns == 1)
        #expect(given.image.width == 900 && given.image.height == 1200)
    }

    @Test("a page of small text is scaled up to 20-pixel characters; ordinary text is not; --no-upscale keeps it")
    func upscale() throws {
        var small = try ImageSource.open(path: Fixtures.sample("lowres.png")).page(0, luminanceOnly: true)
        let outcome = try Legibility().apply(to: &small)
        let g = try #require(outcome.geometry)
        #expect(g.characterHeight < 16)
        #expect(abs(outcome.scale - 20 / g.characterHeight) < 1e-9)
        #expect(abs(small.legibilityScale - outcome.scale) < 1e-9)
        #expect(small.image.height >= Int(520 * outcome.scale) - 1)
        #expect(small.currentResolution == nil || small.resolution != nil)
        var kept = try ImageSource.open(path: Fixtures.sample("lowres.png")).page(0, luminanceOnly: true)
        #expect(try Legibility(rotation: .none, deskew: .none, upscale: false).apply(to: &kept).scale == 1)
        // The noisy sample's characters are 16 pixels or more.
        var ordinary = try ImageSource.open(path: Fixtures.sample("noisy.jpg")).page(0, luminanceOnly: true)
        let geometry = try #require(try Legibility().apply(to: &ordinary).geometry)
        #expect(geometry.characterHeight >= 16 && ordinary.legibilityScale == 1)
    }
}
