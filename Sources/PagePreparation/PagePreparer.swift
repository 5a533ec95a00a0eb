import ScanCore

/// Makes a decoded page ready for recognition: finds the page in a photo (or takes the corners
/// given), warps it flat and evens out its light, then turns it upright and levels its text. A
/// flat, upright and straight scan passes through untouched. Every step is recorded on the
/// `ScanPage`, so results map back to the source pixels.
public struct PagePreparer: Sendable {
    public let crop: CropMode
    public let legibility: Legibility
    private let detector = PageDetector()
    private let corrector = PerspectiveCorrector()
    private let illumination = IlluminationCorrector()

    public init(crop: CropMode = .auto, rotation: RotationMode = .auto, deskew: DeskewMode = .auto, upscale: Bool = true) {
        self.crop = crop
        legibility = Legibility(rotation: rotation, deskew: deskew, upscale: upscale)
    }

    /// The page's outline: detected (`.auto`), given (`.quad`) or none. `colour` gives the page
    /// in colour where `page` was decoded grey from a colour file; detection asks for it only
    /// where the grey image shows it neither a page nor a flat scan.
    public func outline(of page: ScanPage, colour: () -> PixelBuffer? = { nil }) -> PageOutline {
        switch crop {
        case .none:
            return PageOutline(quad: nil, detected: false, confidence: nil)
        case .quad(let given):
            return PageOutline(quad: given, detected: false, confidence: nil)
        case .auto:
            // Detection reads brightness, whatever the format, so a photo gets the same outline
            // from every decoding path; colour, where the file has it, only where that shows
            // neither a page nor a flat scan.
            let grey = page.image.format == .gray ? page.image : page.image.grayscale()
            let detection = detector.detect(in: grey, colour: page.image.format == .rgb ? { page.image } : colour)
            return PageOutline(quad: detection?.quad, detected: true, confidence: detection?.confidence ?? 0, grey: grey)
        }
    }

    /// Rectifies the page inside `outline` and evens out its light; a page without an outline
    /// is left as it is.
    public func flatten(_ page: inout ScanPage, along outline: PageOutline) throws(PreparationError) {
        guard let quad = outline.quad else { return }
        do throws(ScanCoreError) {
            // The flattened page is grey in the end, so only one channel is warped.
            if page.image.format != .gray { try page.applyFilter("grey", outline.grey ?? page.image.grayscale()) }
            try page.correctPerspective(quad, detected: outline.detected, using: corrector)
        } catch {
            throw PreparationError(
                .geometry, "the page outline \(quad) cannot be rectified (\(error.message))",
                remedy: "give four corners TL;TR;BR;BL of a convex outline, or use --crop none")
        }
        // A rectified photo carries the photo's uneven light; flat scans are left as they are.
        do throws(ScanCoreError) {
            try page.applyFilter("illumination") { illumination.flatten(&$0) }
        } catch {
            throw PreparationError(.geometry, error.message, remedy: "")
        }
    }

    /// Turns the (flattened) page upright and levels its text lines, as the modes say.
    public func makeLegible(_ page: inout ScanPage) throws(PreparationError) -> Legibility.Outcome {
        try legibility.apply(to: &page)
    }
}
