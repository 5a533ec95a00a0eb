import Foundation
import ScanTestSupport
import Testing
@testable import ScanCore

/// A folded page whose part past the crease lies in shade at about the desk's level: its edges
/// step by a grey level or two, and it is found by their gradients lining up
/// (`extendedOverFaintSheet`).
@Suite struct FaintSheetExtensionTests {
    @Test("chance lines up none of a stretch's points always, and all of n of them at one in 8^n")
    func tails() {
        #expect(abs(GradientField.logTail((0, 20))) < 1e-9)
        #expect(abs(GradientField.logTail((20, 20)) - 20 * log10(1.0 / 8)) < 1e-9)
        // More points lined up is always less likely, and so is the same share of more points.
        #expect(GradientField.logTail((6, 20)) < GradientField.logTail((5, 20)))
        #expect(GradientField.logTail((12, 40)) < GradientField.logTail((6, 20)))
    }

    /// On a desk at 200, the part past the crease at `shade`; the part in light at 235.
    @Test("the part in light grows over the rest of the sheet in shade a level or two below the desk", arguments: [196.0, 197.0])
    func growsOverFaintSheet(shade: Double) throws {
        let (photo, page, lit) = try PageDetectorTests.foldedOnLightDesk(crease: 0.45, shade: shade, printedShade: false, heading: false)
        let (field, textless) = PageDetectorTests.workingViews(photo)
        let part = ScoredQuad(quad: PageDetectorTests.halved(lit), confidence: 1, isFrame: false)
        let grown = try #require(field.extendedOverFaintSheet(part, textless: textless)?.quad)
        let half = PageDetectorTests.halved(page)
        #expect(grown.bottomLeft.distance(to: half.bottomLeft) < 3, "\(grown)")
        #expect(grown.bottomRight.distance(to: half.bottomRight) < 3, "\(grown)")
        #expect(grown.topLeft == part.quad.topLeft && grown.topRight == part.quad.topRight, "\(grown)")
    }

    /// A whole page, not folded, on a desk whose light falls off across it (from 150 to 250 over
    /// the frame), or on a speckled desk: past each of its sides nothing lines up with its sides
    /// carried on, and it stays as it is.
    @Test("a whole page on a desk under falling light, or on a speckled desk, is not grown", arguments: [false, true])
    func wholePageStays(speckled: Bool) throws {
        var rng = SyntheticPhoto.Random(seed: 5)
        let speckle = (0..<(800 * 600)).map { _ in Double(Int(rng.next() % 61) - 30) }
        let (photo, page, _) = try PageDetectorTests.foldedOnLightDesk(crease: 0.45, shade: 235, heading: false) { x, y in
            speckled ? 150 + speckle[(y / 6) * 800 + x / 6] : 150 + 0.125 * Double(x)
        }
        let (field, textless) = PageDetectorTests.workingViews(photo)
        let whole = ScoredQuad(quad: PageDetectorTests.halved(page), confidence: 1, isFrame: false)
        let grown = field.extendedOverFaintSheet(whole, textless: textless)?.quad
        #expect(grown == nil, "\(String(describing: grown))")
    }

    /// The same page folded as in `growsOverFaintSheet`, through the whole detector: found whole.
    /// (Two levels below the desk, its part in light alone is found: its far edge lines up too
    /// little in the detector's coarser working copy to stand on its own.)
    @Test("a folded page whose part in shade lies three levels below the desk is found whole")
    func foundWhole() throws {
        let (photo, page, _) = try PageDetectorTests.foldedOnLightDesk(crease: 0.45, shade: 197, printedShade: false, heading: false)
        let detection = try #require(PageDetector().detect(in: photo))
        let error = SyntheticPhoto.cornerError(detection.quad, page)
        #expect(error < 8, "corner error \(error) px: \(detection.quad)")
    }
}
