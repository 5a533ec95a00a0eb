import Foundation

// A page is what differs from the surface it lies on, in brightness or in colour. The grey and
// whiteness readings look for paper brighter or whiter than its surround; a booklet's coloured
// cover, or a page printed in colour over most of it, is neither, yet it stands out from a grey
// or wooden desk as plainly. Seen as each pixel's distance in colour from the surface, the
// whole sheet, white parts and coloured ones alike, is bright on a dark ground.

extension PageDetector {
    /// The page read from `colour`'s distance from the surface round it (`surfaceColour`),
    /// where neither its brightness nor its whiteness shows one: the last reading, which must be
    /// well backed, and whose page must stand off the surface by a paper step more than the
    /// band round it does, that band lying nearer the surface's colour than the page's
    /// (`surfaceDistances`): what lies round a page is the surface, where round a picture on a
    /// wall or a stretch of a page may lie anything. Nil for a grey photo, where no surface
    /// shows along the frame, or where what does is white at the light level, as a flat scan's
    /// paper is. The page found grows over a white band of the same sheet past one of its sides,
    /// read in brightness (`extendedOverSheetBand`): `grey` is the photo's brightness, and
    /// `workingGrey` its working copy.
    func surfaceReading(of colour: PixelBuffer, grey: PixelBuffer, workingGrey: PixelBuffer) -> PageDetection? {
        guard let surface = Self.photoSurface(of: colour), let distance = colour.distance(from: surface) else { return nil }
        let small = workingCopy(of: distance)
        guard case .page(let page, _) = reading(of: distance, working: small, leastConfidence: GradientField.laterPlaceConfidence),
              let (inside, outside) = Self.surfaceDistances(across: page.quad, distance: distance),
              inside - outside >= GradientField.minimumPaperStep, outside < inside / 2
        else { return nil }
        let (field, textless) = GradientField.views(of: workingGrey, closingRadius: Self.closingRadius(of: workingGrey))
        let sx = Double(grey.width) / Double(workingGrey.width), sy = Double(grey.height) / Double(workingGrey.height)
        guard let grown = field.extendedOverSheetBand(page.quad.scaled(1 / sx, 1 / sy), textless: textless) else { return page }
        return PageDetection(quad: grey.refinedOutline(grown.scaled(sx, sy), scale: max(sx, sy)), confidence: page.confidence)
    }

    /// `surfaceColour`, unless it is white at the light level. Along a flat scan's frame lies
    /// its own white paper, at the light level no lit desk reaches: there what differs from it
    /// is print (a dark box, a slide's ground, a white box on it). (The surface's whiteness is
    /// read as a pixel's is; its channels' medians are whole levels.)
    static func photoSurface(of colour: PixelBuffer) -> SIMD3<Float>? {
        guard let surface = surfaceColour(of: colour),
              let white = try? PixelBuffer(width: 1, height: 1, format: .rgb, pixels: [surface.x, surface.y, surface.z].map { UInt8($0) }),
              Float(white.whiteness().pixels[0]) < GradientField.lightLevel else { return nil }
        return surface
    }

    /// The colour of what the page lies on: the median of each channel over a band along the
    /// frame (`surfaceBand` of its long side deep), where a page that does not fill the photo
    /// leaves the surface showing along most of it. Nil where the band is too small to tell.
    static func surfaceColour(of image: PixelBuffer) -> SIMD3<Float>? {
        guard image.format == .rgb, let medians = frameBandMedians(of: image) else { return nil }
        return SIMD3(medians[0], medians[1], medians[2])
    }

    /// The brightness of what the page lies on, read as `surfaceColour` reads its colour, in a
    /// grey image. Nil where the band is too small to tell.
    static func surfaceBrightness(of grey: PixelBuffer) -> Float? {
        guard grey.format == .gray else { return nil }
        return frameBandMedians(of: grey)?.first
    }

    /// The median of each of `image`'s channels over the band along its frame.
    private static func frameBandMedians(of image: PixelBuffer) -> [Float]? {
        let count = image.format == .rgb ? 3 : 1
        let band = max(1, Int(surfaceBand * Double(max(image.width, image.height))))
        guard image.width > 2 * band, image.height > 2 * band else { return nil }
        // A sparse grid: a few thousand samples fix a median well.
        let stride = max(1, band / 4)
        var channels = [[Float]](repeating: [], count: count)
        for y in Swift.stride(from: 0, to: image.height, by: stride) {
            let edgeRow = y < band || y >= image.height - band
            for x in Swift.stride(from: 0, to: image.width, by: stride) where edgeRow || x < band || x >= image.width - band {
                let i = count * (y * image.width + x)
                for c in 0..<count { channels[c].append(Float(image.pixels[i + c])) }
            }
        }
        var medians: [Float] = []
        for c in 0..<count {
            guard let m = channels[c].selectKth(channels[c].count / 2) else { return nil }
            medians.append(m)
        }
        return medians
    }

    /// How far from the surface's colour the page lies, and the band just outside its sides, in
    /// grey levels of `distance` (`bandMedians`). Nil where too little of either band lies in
    /// the frame.
    static func surfaceDistances(across quad: Quad, distance image: PixelBuffer) -> (inside: Float, outside: Float)? {
        bandMedians(across: quad, longSide: Double(max(image.width, image.height))) { p in
            image.pixelIndex(at: p).map { Float(image.pixels[$0]) }
        }
    }

    /// Depth of the band along the frame that the surface's colour is read from, as a share of
    /// the photo's long side.
    static let surfaceBand = 0.04
}
