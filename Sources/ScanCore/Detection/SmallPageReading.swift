import Foundation

// A receipt or a ticket photographed on a desk may fill under a tenth of the frame, and the
// readings before this one look only for pages of `minimumAreaFraction` and up. So small, a
// lit part of a larger page (the half above a fold or a shadow's edge, the rest as grey as the
// desk) would read as a page too; a strip of paper with print on it, long and narrow, is what
// a small document on its own looks like, and a sheet's lit part seldom does.

extension PageDetector {
    /// The page read from `grey` as the grey reading does, down to `smallestPageShare` of the
    /// frame (`workingGrey` is its working copy): the last reading, made only where no other
    /// found a page in colour photo `colour`, or only one reported below the bar, and only
    /// where a surface shows along its frame.
    /// The outline must be well backed, carry some print (`leastPrint`: a till receipt's few
    /// lines may fill a third of it, a blank strip of light or a white box none), run at least `narrowPage`
    /// times as long as it is wide, and hold no more colour than paper (`paperChroma`), where
    /// an arm or a coloured card holds more.
    func smallPageReading(grey: PixelBuffer, workingGrey: PixelBuffer, colour: PixelBuffer) -> PageDetection? {
        // A flat scan shows no surface along its frame, only its white paper (`photoSurface`).
        guard Self.photoSurface(of: colour) != nil else { return nil }
        var small = self
        small.minimumAreaFraction = Self.smallestPageShare
        guard case .page(let page, let print) = small.reading(of: grey, working: workingGrey, leastConfidence: GradientField.laterPlaceConfidence),
              print >= GradientField.leastPrint
        else { return nil }
        let corners = page.quad.corners
        let across = corners[0].distance(to: corners[1]) + corners[2].distance(to: corners[3])
        let along = corners[1].distance(to: corners[2]) + corners[3].distance(to: corners[0])
        guard max(across, along) >= Self.narrowPage * min(across, along),
              let (inside, _) = Self.chromaMedians(across: page.quad, colour: colour), inside <= Self.paperChroma
        else { return nil }
        return page
    }

    /// The least share of the frame a page found by `smallPageReading` covers: a till receipt
    /// photographed whole from above, or a ticket, on a 1080p frame.
    static let smallestPageShare = 0.04
    /// How many times longer than wide a small page must be: a receipt or a ticket is, and a
    /// sheet's part in light that its side edges and a fold or shadow's edge cut off is seldom so.
    static let narrowPage = 2.0
    /// The most chroma (doubled, as `colourStep` reads it) a small page's band inside its sides
    /// may hold: cream thermal paper under warm light holds about 30, skin, wood or a coloured
    /// card several times that.
    static let paperChroma: Float = 48
}
