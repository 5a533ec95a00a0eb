import Foundation
import ImageInput
import ScanTestSupport
import Testing
@testable import ScanCore

/// A booklet's cover with a white band across one end: the surface reading finds its coloured
/// part, and the outline grows over the band, read in brightness (`extendedOverSheetBand`).
@Suite struct SheetBandExtensionTests {
    /// The coloured part of a cover (90) on a grey desk (160) in an 800×600 photo, tilted a
    /// little; past its top side, when `band` is given, white paper (225) out to `band` (the
    /// far edge's corners), between the cover's sides carried on, or any other shape.
    static let part = Quad(topLeft: Point(262, 250), topRight: Point(552, 262), bottomRight: Point(540, 530), bottomLeft: Point(250, 518))
    static func photo(band: Quad?) throws -> (field: GradientField, textless: GradientField) {
        let photo = try PageDetectorTests.drawn(seed: 77) { _, _, p in
            if part.contains(p) { return 90 }
            return band?.contains(p) ?? false ? 225 : 160
        }
        return PageDetectorTests.workingViews(photo)
    }

    /// The cover's sides, carried on past its top side to a far edge `depth` pixels up.
    static func carriedOn(_ depth: Double) -> Quad {
        let left = (part.topLeft - part.bottomLeft).unit, right = (part.topRight - part.bottomRight).unit
        return Quad(topLeft: part.topLeft + left * depth, topRight: part.topRight + right * depth, bottomRight: part.topRight, bottomLeft: part.topLeft)
    }

    @Test("the coloured part grows over a white band between its sides carried on, to the band's far edge")
    func growsOverBand() throws {
        let band = Self.carriedOn(90)
        let (field, textless) = try Self.photo(band: band)
        let grown = try #require(field.extendedOverSheetBand(PageDetectorTests.halved(Self.part), textless: textless))
        #expect(grown.topLeft.distance(to: band.topLeft * 0.5) < 2, "\(grown)")
        #expect(grown.topRight.distance(to: band.topRight * 0.5) < 2, "\(grown)")
        #expect(grown.bottomRight.distance(to: Self.part.bottomRight * 0.5) < 0.01, "\(grown)")
    }

    /// With no band, or with a white sheet past the part that runs on past its sides (another
    /// sheet beside the cover, not a band of it: past each side carried on lies white paper
    /// too), the outline stays as it is. Nor does it grow over a band that runs off the frame,
    /// with no far edge in view.
    @Test("no band, a sheet wider than the part, or a band running off the frame leaves the outline as it is")
    func leavesOtherwise() throws {
        let wider = Quad(topLeft: Point(150, 60), topRight: Point(700, 70), bottomRight: Point(700, 262), bottomLeft: Point(150, 250))
        for band in [nil, wider, Self.carriedOn(300)] {
            let (field, textless) = try Self.photo(band: band)
            #expect(field.extendedOverSheetBand(PageDetectorTests.halved(Self.part), textless: textless) == nil, "\(String(describing: band))")
        }
    }

    /// Photo 59 of `scripts/make-photos --conditions documents` (dev), scaled down five times in
    /// each direction, in colour: a magenta cover with a white band across its upper end, on a
    /// pale desk with a shaded stripe across it. Seen in distance from the desk's colour, the
    /// band lies nearer it than the stripe does, and the outline found is the magenta part
    /// alone (IoU 0.81 with the cover).
    @Test("a cover with a white band across one end is found whole")
    func coverWithWhiteBand() throws {
        let photo = try ImageSource.open(path: Fixtures.testImage("cover-with-white-band.png")).page(0).image
        #expect(photo.format == .rgb)
        let cover = Quad(topLeft: Point(67.34, 72.67), topRight: Point(153.51, 11.15), bottomRight: Point(254.66, 142.55), bottomLeft: Point(163.03, 210.26))
        let detection = try #require(PageDetector().detect(in: photo))
        #expect(detection.quad.intersectionOverUnion(cover) > 0.97, "\(detection.quad.corners)")
        #expect(SyntheticPhoto.cornerError(detection.quad, cover) < 2, "\(detection.quad.corners)")
    }
}
