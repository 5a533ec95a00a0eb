import Foundation

// Paper is white: bright and nearly neutral, its channels close together. A cream, wooden or
// coloured desk, or a tinted wall, lit as brightly as the paper or clipped with it, holds some
// colour. A page the grey reading cannot tell from such a surface (over-exposed, light on
// light, held up before a pale wall) may step from it in whiteness (`PixelBuffer.whiteness`).
// A camera's white balance brings paper under one light back towards neutral; a page lit by
// two lights of different colours is not, and its part in one may read as white against its
// part in the other. The grey reading, which comes first, sees such a page whole.

extension PageDetector {
    /// The page read from `colour`'s whiteness, where its brightness shows none.
    /// This reading comes after the grey one, whose steps are those measured on every kind of
    /// photo, and it must be well backed. And colour must be what tells the page from what
    /// lies round it: there the surface must hold a paper step more colour than the paper does
    /// (`colourStep`). Where it does not, as round a part of a flat scan or a box of a
    /// newspaper's page, what the whiteness shows, the brightness shows too, and
    /// the grey reading has judged it. `workingGrey` is the working copy of its brightness, which
    /// the grey reading has made.
    func whitenessReading(of colour: PixelBuffer, workingGrey: PixelBuffer) -> PageDetection? {
        let whiteness = colour.whiteness()
        let smallWhiteness = workingCopy(of: whiteness)
        // Where next to none of the photo holds that much colour (a receipt or a page scanned
        // flat, a grey room), no surface round a page can: the reading is not made at all.
        guard colouredShare(grey: workingGrey, whiteness: smallWhiteness) >= Self.leastColouredShare,
              case .page(let page, _) = reading(of: whiteness, working: smallWhiteness, leastConfidence: GradientField.laterPlaceConfidence),
              let step = Self.colourStep(across: page.quad, colour: colour),
              step >= GradientField.minimumPaperStep
        else { return nil }
        return page
    }

    /// How much more colour (twice the chroma: what the whiteness takes off the brightness, but
    /// not cut off at black, as a dark wooden desk's whiteness is) lies in a band just outside
    /// `quad`'s sides (in `colour`'s pixels) than in one just inside, in grey levels: medians
    /// over each band, sampled along the middle 80% of every side from 1% to 3% of the photo's
    /// long side away from it. Nil where too little of either band lies in the frame.
    static func colourStep(across quad: Quad, colour image: PixelBuffer) -> Float? {
        guard let (within, beyond) = chromaMedians(across: quad, colour: image) else { return nil }
        return beyond - within
    }

    /// Medians of twice the chroma (not cut off at black) over the bands just inside and just
    /// outside `quad`'s sides (`bandMedians`), in `colour`'s pixels. Nil for a grey image or
    /// where too little of either band lies in the frame.
    static func chromaMedians(across quad: Quad, colour image: PixelBuffer) -> (inside: Float, outside: Float)? {
        guard image.format == .rgb else { return nil }
        func colour(at p: Point) -> Float? {
            guard let i = image.pixelIndex(at: p).map({ 3 * $0 }) else { return nil }
            let r = image.pixels[i], g = image.pixels[i + 1], b = image.pixels[i + 2]
            return 2 * (Float(max(r, g, b)) - Float(min(r, g, b)))
        }
        return bandMedians(across: quad, longSide: Double(max(image.width, image.height)), value: colour)
    }

    /// The share of an image (the working copy, for `whitenessReading`) whose chroma is at least
    /// a step: more than paper tinted as the light is, or JPEG's noise, holds. Brightness `grey`
    /// less `whiteness` is twice the chroma, or the brightness where whiteness is cut off at
    /// black (a dark, saturated surface): such a pixel counts only where it is 20 levels bright.
    func colouredShare(grey: PixelBuffer, whiteness: PixelBuffer) -> Double {
        let step = 2 * Int(GradientField.minimumStep)
        let coloured = zip(grey.pixels, whiteness.pixels).reduce(0) { $0 + (Int($1.0) - Int($1.1) >= step ? 1 : 0) }
        return Double(coloured) / Double(max(1, grey.pixelCount))
    }

    /// The least share of the photo so coloured for the whiteness to be read. What a page lies
    /// on shows round it over a tenth of the frame or more (a page filling 90% of it); colour
    /// JPEGs of receipts and pages scanned flat hold 0–2%, the photos of white pages on coloured
    /// surfaces or before tinted walls that the whiteness reading finds 17–85%.
    static let leastColouredShare = 0.1
}
