import Foundation
import ScanTestSupport
import Testing
@testable import ScanCore

@Suite struct SourceRefinementTests {
    static let page = SyntheticPhoto.textLikePage(width: 425, height: 550)
    /// Corners off whole pixels, so that an edge found on whole pixels is off by a fraction.
    static let corners = Quad(topLeft: Point(301.3, 142.6), topRight: Point(905.7, 188.2),
                              bottomRight: Point(958.4, 1041.9), bottomLeft: Point(236.8, 987.5))

    static func photo(_ background: SyntheticPhoto.Background = .dark) throws -> PixelBuffer {
        try SyntheticPhoto.make(page: page, corners: corners, width: 1200, height: 1200, background: background)
    }

    /// `quad` with each corner moved by `shift` pixels along a fixed direction of its own.
    static func displaced(_ quad: Quad, by shift: Double) -> Quad {
        let d = [Point(0.6, 0.8), Point(-0.8, 0.6), Point(-0.6, -0.8), Point(0.8, -0.6)]
        let c = zip(quad.corners, d).map { $0 + $1 * shift }
        return Quad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
    }

    @Test("an outline a working pixel off is placed on the page's edges to within a pixel", arguments: [SyntheticPhoto.Background.dark, .light, .window])
    func placesCorners(_ background: SyntheticPhoto.Background) throws {
        let photo = try Self.photo(background)
        // One working pixel is 3 source pixels here (1200 / 400).
        let refined = photo.refinedOutline(Self.displaced(Self.corners, by: 3.5), scale: 3)
        let error = SyntheticPhoto.cornerError(refined, Self.corners)
        #expect(error < 1, "corner error \(error) px on \(background): \(refined)")
    }

    /// On a sharp page the working copy's fit is already close; the refinement keeps it there.
    @Test("the detector's corners lie within half a pixel of a sharp page's")
    func detectorCorners() throws {
        let detection = try #require(PageDetector().detect(in: try Self.photo()))
        let error = SyntheticPhoto.cornerError(detection.quad, Self.corners)
        #expect(error < 0.5, "corner error \(error) px: \(detection.quad)")
    }

    /// Where no edge lies within reach of a corner (a quad well off the page), it stays put.
    @Test("an outline far from any edge is left as it is")
    func farOutlineStays() throws {
        let photo = try Self.photo()
        let far = Self.displaced(Self.corners, by: 40)
        #expect(photo.refinedOutline(far, scale: 3) == far)
    }

    /// A dark bar lies across the page's left side near its top corner, over a quarter of the
    /// part of the side nearest the corner: the bar's own edges are outvoted there, and the
    /// corner stays on the page's.
    @Test("an object across a side near a corner does not pull the corner")
    func objectAcrossSide() throws {
        var photo = try Self.photo().grayscale()
        for y in 230..<290 {
            for x in 150..<420 { photo.pixels[y * photo.width + x] = 30 }
        }
        let refined = photo.refinedOutline(Self.displaced(Self.corners, by: 3), scale: 3)
        let error = SyntheticPhoto.cornerError(refined, Self.corners)
        #expect(error < 1.5, "corner error \(error) px: \(refined)")
    }

    /// A side along the frame (a page cut by it) is no edge to find: it keeps its line.
    @Test("a side along the frame keeps its line")
    func frameSide() throws {
        let photo = try Self.photo()
        let cut = Quad(topLeft: Point(0, 142.6), topRight: Self.corners.topRight, bottomRight: Self.corners.bottomRight, bottomLeft: Point(0, 987.5))
        let refined = photo.refinedOutline(cut, scale: 3)
        #expect(abs(refined.topLeft.x) < 1e-6 && abs(refined.bottomLeft.x) < 1e-6, "\(refined)")
    }
}
