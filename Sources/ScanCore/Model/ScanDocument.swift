/// One geometric step applied to a page since it was decoded, in order. Together they let any
/// output coordinate be mapped back to the source image.
public enum PageStep: Sendable, Equatable, Codable {
    /// Decoded from the source at this size and resolution (pixels per inch, if the file says).
    case decoded(width: Int, height: Int, resolution: Int?)
    /// Turned upright while decoding, as the file's EXIF orientation (2–8) said. Source pixels
    /// are the upright image's, as every viewer shows it, so this step maps nothing.
    case oriented(exif: Int)
    /// Rectified: the page inside `quad` (source pixels) warped to `width`×`height` by
    /// `homography` (source → corrected). `detected` is false for a quad the user gave.
    case perspective(quad: Quad, homography: Homography, width: Int, height: Int, detected: Bool)
    /// A same-size pixel filter, by name (e.g. `illumination`); it moves no pixel.
    case filtered(String)
    /// Rendered from a vector page (a PDF's) of this size in points at `dpi`: source pixels are
    /// the rendering's, at `dpi / 72` pixels a point.
    case rendered(PageRendering)
}

/// A vector page's size and the resolution it was rendered at.
public struct PageRendering: Sendable, Equatable, Codable {
    public var widthPoints: Double
    public var heightPoints: Double
    public var dpi: Int

    public init(widthPoints: Double, heightPoints: Double, dpi: Int) {
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.dpi = dpi
    }
}

/// One page of a scan: where it came from, its pixels now, and what was done to them.
public struct ScanPage: Sendable {
    /// The source as the user named it (a path, or `-` for standard input).
    public let source: String
    /// 0-based position of the page inside its source file.
    public let index: Int
    /// The pixels as they are after every step in `steps`.
    public private(set) var image: PixelBuffer
    /// Pixels per inch as recorded in the file, when it records one Tesseract would trust.
    public let resolution: Int?
    public private(set) var steps: [PageStep]

    /// `exifOrientation` is the EXIF orientation the decoder already applied to `image`
    /// (1: none).
    public init(source: String, index: Int, image: PixelBuffer, resolution: Int?, exifOrientation: Int = 1,
                rendering: PageRendering? = nil) {
        self.source = source
        self.index = index
        self.image = image
        self.resolution = resolution
        self.steps = [.decoded(width: image.width, height: image.height, resolution: resolution)]
        if let rendering { steps.append(.rendered(rendering)) }
        if exifOrientation != 1 { steps.append(.oriented(exif: exifOrientation)) }
    }

    /// The vector page this page was rendered from, when it was.
    public var rendering: PageRendering? {
        for step in steps { if case .rendered(let r) = step { return r } }
        return nil
    }

    /// Whether the image is still the source's own pixel grid: no step has moved a pixel.
    public var keepsSourceGeometry: Bool {
        steps.allSatisfy { step in
            switch step {
            case .decoded, .oriented, .filtered, .rendered: true
            case .perspective: false
            }
        }
    }

    /// 1-based page number, as users count.
    public var number: Int { index + 1 }

    /// Size of the image as decoded, before any step.
    public var sourceSize: (width: Int, height: Int) {
        if case let .decoded(w, h, _) = steps.first { return (w, h) }
        return (image.width, image.height)
    }

    /// The quad of the last perspective step, in source pixels.
    public var quad: Quad? {
        for step in steps.reversed() { if case let .perspective(q, _, _, _, _) = step { return q } }
        return nil
    }

    /// Source pixels → current pixels, the product of every geometric step.
    public var sourceToCurrent: Homography {
        steps.reduce(Homography.identity) { acc, step in
            if case let .perspective(_, h, _, _, _) = step { return h * acc }
            return acc
        }
    }

    /// Maps a point in the current pixels back to the source image.
    public func mapToSource(_ p: Point) -> Point? {
        guard let inverse = try? sourceToCurrent.inverted() else { return nil }
        return inverse.apply(p)
    }

    /// Rectifies the page inside `quad` (in the current pixels) and records the step.
    public mutating func correctPerspective(
        _ quad: Quad, detected: Bool, using corrector: PerspectiveCorrector = PerspectiveCorrector()
    ) throws(ScanCoreError) {
        let result = try corrector.correct(image, quad: quad)
        // Record the quad in source pixels, whatever came before.
        let toSource = try sourceToCurrent.inverted()
        let sourceQuad = try Quad(quad.corners.map { toSource.apply($0) ?? $0 })
        let total = result.homography * sourceToCurrent
        image = result.image
        steps.append(.perspective(
            quad: sourceQuad, homography: total, width: result.image.width, height: result.image.height,
            detected: detected))
    }

    /// Replaces the pixels by a same-size version (a filter) and records it.
    public mutating func applyFilter(_ name: String, _ filtered: PixelBuffer) throws(ScanCoreError) {
        guard filtered.width == image.width, filtered.height == image.height else {
            throw ScanCoreError(.invalidImage, "a filter must keep the page size")
        }
        image = filtered
        steps.append(.filtered(name))
    }

    /// Applies a filter that rewrites the page's pixels in place, recorded as `name`. The page
    /// lets go of its pixels while the filter runs, so the filter writes into them without a
    /// copy. A filter must keep the size: one that does not throws, and the page then holds what
    /// the filter left, unrecorded.
    public mutating func applyFilter(_ name: String, inPlace filter: (inout PixelBuffer) -> Void) throws(ScanCoreError) {
        var pixels = image
        image = PixelBuffer(unchecked: 0, 0, image.format, [])
        let before = (pixels.width, pixels.height)
        filter(&pixels)
        image = pixels
        guard pixels.width == before.0, pixels.height == before.1 else {
            throw ScanCoreError(.invalidImage, "a filter must keep the page size")
        }
        steps.append(.filtered(name))
    }
}

/// A document: the ordered pages of one source.
public struct ScanDocument: Sendable {
    public let source: String
    public var pages: [ScanPage]

    public init(source: String, pages: [ScanPage]) {
        self.source = source
        self.pages = pages
    }
}
