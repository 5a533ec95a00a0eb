import Foundation

/// A page found in a photo.
public struct PageDetection: Sendable, Equatable {
    /// Corners in source pixels: top-left, top-right, bottom-right, bottom-left.
    public var quad: Quad
    /// 0–1: how much of the outline is backed by image edges, less a tenth for each side
    /// past which the sides meeting it run on (there a crease, a shadow's edge or a rule may
    /// cut the page, however well backed that side is), times the backing of its weakest side
    /// (one running over the desk makes the whole outline doubtful), and less up to a half
    /// where it holds little print: a blank sheet, a pale door or a window pane has nothing to
    /// read.
    public var confidence: Double
}

/// Finds the page quadrilateral in a photo.
///
/// The method works on line segments, in the manner of the strongest published SmartDoc
/// methods, not on contour approximation:
/// 1. a small working copy (long side `workingSize`) of the photo's brightness, smoothed.
///    (Gradients taken in each channel of a colour image found worse outlines on real photos;
///    colour is read apart, and last, below.)
/// 2. an orientation-restricted Hough transform: each edge pixel votes only for lines
///    perpendicular to its gradient, which keeps peaks sharp;
/// 3. every pair of roughly horizontal and pair of roughly vertical candidate lines (the image
///    borders included, for pages cut by the frame, or running off it at two opposite edges)
///    forms a quad, scored by the length of its
///    outline backed by an edge pointing across it less the length that is not, so clutter and
///    text lines inside the page lose to the long continuous outline, a fold loses to the
///    whole page, and an occluding hand costs only part of a side (one side may be darker
///    inside, along a photo bled off the page; such outlines are ranked apart); a side must
///    keep its step with the print wiped out (step 6's view), unless it runs so near the frame that the
///    strip of desk beyond it is wiped out too (a page filling the photo);
/// 4. the best-scored quads are refined by a weighted least-squares fit to their edge pixels
///    and checked for paper (brighter inside each side and in the middle than round it; darker
///    where a light source, a window or lamp, lies just outside a side; paper up to the frame
///    along a side on it, and on the frame no side with no step along a third of it, as one
///    carried on past a corner over the desk to take in a second sheet has); of those that pass,
///    the one whose score times its refined sides' backing is highest wins;
/// 5. each corner moves to where the parts of its two sides nearest it meet, as a curled or
///    folded page's sides bend (`CornerFit`); where the paper boundary of a side runs on past
///    a corner (a curled edge, a page standing up at a fold), the corner moves to its end;
/// 6. a second cue reads the page as a bright region of a copy with the print wiped out (a grey
///    closing): its lines (there only the ridges of edges vote, by length more than
///    contrast, and the lines are taken longest unbroken edge first) join step 3's
///    candidates, and its most quadrilateral level set
///    replaces the edge outline where that is a larger pale surface around the page (under
///    light falling off across the surface, no level set holds the page alone: then the line
///    search runs again within the surface's outline), where the
///    region fits the page far better (a crumpled sheet), where the edge outline is the part
///    of a sheet in light, cut off at a crease, with print running on beyond it, or where the
///    edge outline is too poorly backed to keep. See `OutlineChoice`. A textless line a few
///    pixels from a first-view line joins too where that line is a parallel row of print;
/// 7. where a band darker than the desk, but not than half the paper, lies past one side
///    between its neighbours carried on and ends at a straight edge, that side is a crease with
///    the rest of the sheet in shade darker than the desk: the outline grows over the band
///    (`ShadeExtension`; a shadow cast across the page leaves a band lighter than the desk in
///    shade, grown over where the page's sides go on into it unbroken); else, where rows of
///    print lie past one side (past a blank margin, at
///    most) and end a margin short of the frame, that side is a crease with the rest of the
///    sheet in shade as dark as the desk: the outline grows over the print (`CreaseExtension`).
///    Where no page is found, or only an outline too poorly backed to keep, a second search
///    looks for a part in light too small to be a page alone, grown either way (there the band
///    in shade may be lighter than the desk in places, where the desk's light falls off, or at
///    its level beside one of its sides);
/// 8. in the outline chosen, a corner where a side bends further than step 5 looks across it (a
///    page folded near its end) moves to where both sides' edges, followed from their middles
///    with the print and without, end and meet (`bentCorners`);
/// 9. each corner is placed again in the source's own pixels, where the edges of its two sides,
///    found across them to a fraction of a pixel, meet near it (`SourceRefinement`).
///
/// Where no page is found that the reading would keep, all of this runs again on the working
/// copy exposed brighter (a gain of 1.1, then 1.2): a page held up before a wall brighter than
/// it, or stepping faintly from its desk in dim light, may then pass; so found, it must be well
/// backed. Where none is found still, steps 3 and 4 run once more for a page held up before a
/// wall far brighter than its paper, which no gain brings to a light's level: there each
/// outline is judged against a light at the level of what lies beyond it, and must carry print
/// (`heldUpReading`). An outline found with little or nothing printed in it (a stretch of
/// wall, a window pane in its frame) gives way to a page found so with clearly more print, or
/// last, to one found with that outline painted over (`readingPast`).
///
/// Where the grey reading finds neither a page nor the frame, all of this runs once more on
/// the photo's whiteness (brightness less twice the chroma), for a page that steps from what it
/// lies on only in colour (`whitenessReading`), and where that finds none, on each pixel's
/// distance in colour from the surface along the frame, for a page that is not paper-white: a
/// booklet's coloured cover (`surfaceReading`), grown over a white band across one end of it,
/// near a pale desk's colour but brighter than the desk (`extendedOverSheetBand`). Where that
/// finds none either, the grey reading
/// runs once more for a long, narrow, printed page down to 4% of the frame: a receipt or a
/// ticket lying alone (`smallPageReading`). Where the grey reading's best outline is the frame,
/// but a surface, not a flat scan's white paper, shows along it (`photoSurface`), the whiteness
/// and then the distance from the surface's colour are read too, for a page that steps from
/// what it lies on in colour alone. And where the grey reading's page is reported below the bar
/// it was kept at (a side against something as bright as the paper but coloured), the whiteness
/// is read too: a page it shows better backed stands instead, unless it is a part of the grey
/// outline (`isPart`), as a sheet lit by two lights of different colours reads in one of them;
/// where it shows none, a small page read better backed stands instead (a receipt beside a dark
/// box, whose edge the search, looking for larger pages, took for a side).
///
/// It returns nil for flat scans (the best outline is the image frame itself) and whenever the
/// best outline is not convincing: a wrong crop is worse than none.
public struct PageDetector: Sendable {
    /// Long side of the working copy, in pixels.
    public var workingSize: Int
    /// Detections backed below this confidence are dropped.
    public var minimumConfidence: Double
    /// The page must cover at least this share of the image.
    public var minimumAreaFraction: Double

    public init(workingSize: Int = 400, minimumConfidence: Double = 0.55, minimumAreaFraction: Double = 0.12) {
        self.workingSize = workingSize
        self.minimumConfidence = minimumConfidence
        self.minimumAreaFraction = minimumAreaFraction
    }

    /// The gains by which a photo with no page found is read again (`detect`). More clips paper
    /// lit a little more than the rest of it, and a shadow's edge across a page then reads as a
    /// side.
    static let exposureGains: [Float] = [1.1, 1.2]

    /// The page in `image`, grey or colour. `colour` gives the colour photo a grey `image` was
    /// decoded from, when it is wanted: only where the grey reading finds no page
    /// (`whitenessReading`).
    public func detect(in image: PixelBuffer, colour: () -> PixelBuffer? = { nil }) -> PageDetection? {
        let grey = image.format == .gray ? image : image.grayscale()
        let small = workingCopy(of: grey)
        // The photo in colour, the size of its brightness; nil for a grey one.
        func colourPhoto() -> PixelBuffer? {
            guard let colour = image.format == .rgb ? image : colour(), colour.format == .rgb,
                  colour.width == grey.width, colour.height == grey.height else { return nil }
            return colour
        }
        switch reading(of: grey, working: small, leastConfidence: minimumConfidence) {
        case .page(let page, _):
            // Paper is white as well as bright. An outline that the search kept, but whose
            // weakest side (or print) leaves it reported below the bar it was kept at, may have
            // a side against something as bright as the page but coloured (an orange bowl on a
            // poster, a yellow board): where the whiteness shows a page better backed, and
            // colour tells it from what lies round it, that page stands instead; unless it is a
            // part of that outline (`isPart`): a sheet lit by two lights of different colours
            // (a spread, a folded sheet) reads white in one light alone, and grey sees it whole.
            // Whole, the sheet has edges along each of its sides; an outline with a side that
            // next to nothing backs is no sheet (a page held up and a framed picture beside it,
            // taken in together), and the page in it stands.
            guard page.confidence < minimumConfidence, let colour = colourPhoto() else { return page }
            let (sx, sy) = (Double(small.width) / Double(grey.width), Double(small.height) / Double(grey.height))
            if let white = whitenessReading(of: colour, workingGrey: small), white.confidence > page.confidence,
               white.confidence >= minimumConfidence {
                let wholeSheet = GradientField(small).weakestSideBacking(page.quad.scaled(sx, sy)) >= Self.sheetSideBacking
                return wholeSheet && Self.isPart(white.quad, of: page.quad) ? page : white
            }
            // A receipt or a ticket is under the share of the frame the search looks for: there
            // the outline kept may be one that took in the desk beside it, with a side along a
            // dark box or a case past it. A small page read well backed stands instead, unless
            // the sheet goes on past one of its sides within that outline: then it is a part of
            // a page (the print above a figure, the part in light above a shadow's edge).
            if let receipt = smallPageReading(grey: grey, workingGrey: small, colour: colour),
               receipt.confidence >= minimumConfidence, receipt.confidence > page.confidence {
                let (part, whole) = (receipt.quad.scaled(sx, sy), page.quad.scaled(sx, sy))
                if !GradientField(small).isPartOfSheet(part, within: whole) { return receipt }
            }
            return page
        case .frame(let field, let textless):
            // The frame is the best outline of a flat scan, and of a photo whose page steps from
            // what it lies on in colour alone (a grey page held up before a green wall of its
            // brightness; paper clipped white on a cream desk clipped too; a green cover on a
            // grey desk as bright). Along a flat scan's frame lies its white paper
            // (`photoSurface`), and it is left alone; read first in brightness, so a flat scan's
            // colour is not decoded again for nothing (a page clipped white on a desk clipped
            // with it is left alone too). Else the whiteness is read, then the distance from the
            // surface's colour, and a page found so must not step up in brightness across its
            // sides: one that does, the grey reading has seen and refused (a white box printed
            // on a coloured flat scan). One that steps down (a coloured cover held up before a
            // lighter wall) the grey reading, which reads paper brighter than what it lies on,
            // never weighed, as where it finds nothing. And it must carry some print: a blank
            // coloured card or a painted panel, seen in colour alone, is nothing to read.
            guard let band = Self.surfaceBrightness(of: grey), band < GradientField.lightLevel,
                  let colour = colourPhoto(), Self.photoSurface(of: colour) != nil,
                  let page = whitenessReading(of: colour, workingGrey: small) ?? surfaceReading(of: colour, grey: grey, workingGrey: small),
                  let step = Self.brightnessStep(across: page.quad, grey: grey), step < GradientField.minimumStep,
                  field.printShare(inside: page.quad.scaled(Double(small.width) / Double(grey.width), Double(small.height) / Double(grey.height)),
                                   textless: textless) >= GradientField.leastPrint else { return nil }
            return page
        case .nothing:
            guard let colour = colourPhoto() else { return nil }
            return whitenessReading(of: colour, workingGrey: small) ?? surfaceReading(of: colour, grey: grey, workingGrey: small)
                ?? smallPageReading(grey: grey, workingGrey: small, colour: colour)
        }
    }

    enum Reading {
        /// The page, and the share of its outline's inside that print darkens (`printShare`).
        case page(PageDetection, printShare: Double)
        /// The best outline is the frame: a flat scan. With the views it was read in, where
        /// print is read if a page is found in colour after all.
        case frame(field: GradientField, textless: GradientField)
        case nothing
    }

    /// `image` scaled down to the working copy (long side about `workingSize`).
    func workingCopy(of image: PixelBuffer) -> PixelBuffer {
        image.downsampled(by: max(1, Int((Double(max(image.width, image.height)) / Double(workingSize)).rounded(.up))))
    }

    /// The radius of the closing that wipes the print out of the working copy `small`.
    static func closingRadius(of small: PixelBuffer) -> Int {
        max(2, Int((GradientField.closingShare * Double(max(small.width, small.height))).rounded()))
    }

    /// The page read from one channel (`image` is grey; `small`, its `workingCopy`), kept where
    /// backed `leastConfidence`.
    func reading(of image: PixelBuffer, working small: PixelBuffer, leastConfidence: Double) -> Reading {
        guard small.width >= 16, small.height >= 16 else { return .nothing }
        // With the print wiped out, a faint page edge that the lines of text outvote in the
        // first view is among the strongest lines, and the page is a plain bright region.
        let radius = Self.closingRadius(of: small)
        let (field, textless) = GradientField.views(of: small, closingRadius: radius)
        var found = field.pageOutline(minimumAreaFraction: minimumAreaFraction, minimumConfidence: minimumConfidence, textless: textless)
            .map { (outline: $0, field: field, textless: textless) }
        // The paper checks read fixed steps and a light source's level. A page held up with its
        // face turned from the light is darker than a wall that is no light source, and a page
        // in dim light may step from the desk by less than they ask. Where no page is found
        // that this reading would keep (a flat scan's frame is an answer), the photo is read
        // again as if exposed brighter: the steps grow with the gain, and a wall brighter than
        // the page reaches the light's level. A page found only so must be well backed.
        // The second looks, each read only if those before it are passed over: brighter at each
        // gain, then as a page held up before a wall far brighter than its paper.
        let secondLooks = Self.exposureGains.map { gain in { brighterReading(of: small, gain: gain, closingRadius: radius) } }
            + [{ heldUpReading(from: field, textless: textless) }]
        if found.map({ !$0.outline.isFrame && $0.outline.confidence < leastConfidence }) ?? true {
            found = secondLooks.lazy.compactMap { $0() }.first
        } else if let sparse = found, !sparse.outline.isFrame,
                  case let sparsePrint = field.printShare(inside: sparse.outline.quad, textless: textless), sparsePrint < GradientField.fullyPrinted,
                  case let pastSparse = { readingPast(sparse.outline.quad, in: small, closingRadius: radius) },
                  let printed = (secondLooks + [pastSparse]).lazy.compactMap({ $0() }).first(where: {
                      Self.outweighs($0.field.printShare(inside: $0.outline.quad, textless: $0.textless), over: sparsePrint)
                  }) {
            // An outline with little or nothing printed in it (a stretch of wall, a window pane
            // in its frame, a blank sheet) gives way to a printed page found on a second look:
            // the first reading that outweighs it, not merely the first to find an outline (a
            // pane is found again in a photo read brighter). Last, the photo is read with that
            // outline painted over: its near-copies may fill the search's places in every reading.
            found = printed
        }
        guard let (best, field, textless) = found else { return .nothing }
        if best.isFrame { return .frame(field: field, textless: textless) }
        guard best.confidence >= leastConfidence else { return .nothing }
        // Where a side of the outline chosen bends near a corner, that corner moves to where the
        // sides end (`bentCorners`); the checks above judged the outline as it was.
        let bent = field.bentCorners(best.quad, textless: textless)
        // Working-copy coordinates → source pixels (pixel-corner convention on both sides).
        let sx = Double(image.width) / Double(small.width), sy = Double(image.height) / Double(small.height)
        let print = field.printShare(inside: best.quad, textless: textless)
        return .page(PageDetection(quad: image.refinedOutline(bent.scaled(sx, sy), scale: max(sx, sy)),
                                   confidence: field.reportedConfidence(best, printShare: print)), printShare: print)
    }

    /// Whether `part` lies mostly within `whole` (`withinShare` of its area) and covers at most
    /// `partShare` of it: a part of a sheet in one light, not a page whose outline took in a
    /// strip of what lies beside it, which keeps most of that outline.
    static func isPart(_ part: Quad, of whole: Quad) -> Bool {
        Polygon.intersectionArea(part.corners, whole.corners) >= withinShare * part.area && part.area <= partShare * whole.area
    }

    /// The share of its area by which an outline lies within another it is a part of.
    static let withinShare = 0.9
    /// The largest share of the other's area that a part covers: a sheet's part in one of two
    /// lights is about half of it.
    static let partShare = 2.0 / 3
    /// The least backing by edges of each of a whole sheet's own sides (`weakestSideBacking`):
    /// round a sheet whose part in one of two lights reads white, over a quarter of each side;
    /// along a side taken in over a wall, next to none.
    static let sheetSideBacking = 0.15

    /// Whether an outline found on a second look, with `print` of it printed (`printShare`),
    /// replaces the first outline, with `first` printed (under `fullyPrinted`). Beside one
    /// with nothing printed, any printed page wins; beside one with a little (the closing
    /// takes a pane's dark frame for print), only a fully printed one with clearly more, so a
    /// sparse page is not given up for whatever busier thing a second look finds.
    static func outweighs(_ print: Double, over first: Double) -> Bool {
        first < GradientField.leastPrint ? print >= GradientField.printedPage
            : print >= GradientField.fullyPrinted && print >= clearlyMorePrint * first
    }

    /// How many times as much print as the outline it replaces a page found on a second look
    /// must carry where that outline has a little (`outweighs`).
    static let clearlyMorePrint = 1.5

    /// The page outline read from `small` exposed brighter by `gain`, and the views it was read
    /// in; nil unless it is a page backed as well as a later place must be.
    private func brighterReading(of small: PixelBuffer, gain: Float, closingRadius radius: Int)
        -> (outline: ScoredQuad, field: GradientField, textless: GradientField)? {
        let (field, textless) = GradientField.views(of: small.brightened(by: gain), closingRadius: radius)
        guard let outline = field.pageOutline(minimumAreaFraction: minimumAreaFraction, minimumConfidence: minimumConfidence, textless: textless),
              !outline.isFrame, outline.confidence >= GradientField.laterPlaceConfidence else { return nil }
        return (outline, field, textless)
    }
}

struct ScoredQuad {
    var quad: Quad
    var confidence: Double
    var isFrame: Bool
    /// For an outline read from a bright region, how well the quad explains it.
    var regionFit: Double = 0
    /// `confidence` over the outline's own sides (those along the frame left out), each on its
    /// part in view.
    var backing: Double = 0
}
