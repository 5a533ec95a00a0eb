import Foundation

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
    /// Turned upright by `quarterTurns` quarter turns clockwise (1–3), pixel for pixel, to
    /// `width`×`height`; `homography` maps the pixels before the turn to those after it.
    case turned(quarterTurns: Int, homography: Homography, width: Int, height: Int)
    /// Rotated clockwise by `degrees` to level its text lines, and scaled by `scale`, to
    /// `width`×`height`; `homography` maps the pixels before the step to those after it.
    case straightened(degrees: Double, scale: Double, homography: Homography, width: Int, height: Int)

    /// The map from the pixels before this step to those after it, for a step that moves pixels.
    public var homography: Homography? {
        switch self {
        case .perspective(_, let h, _, _, _): h
        case .turned(_, let h, _, _), .straightened(_, _, let h, _, _): h
        case .decoded, .oriented, .filtered, .rendered: nil
        }
    }
}

/// What a page's steps add up to, for anything that keeps them (a page, a result).
extension Array where Element == PageStep {
    /// Quarter turns clockwise the page was turned through (0–3).
    public var quarterTurns: Int {
        reduce(0) { turns, step in
            if case .turned(let q, _, _, _) = step { return (turns + q) % 4 }
            return turns
        }
    }

    /// Degrees clockwise the page was rotated to level its text, 0 when it was not.
    public var deskewDegrees: Double {
        reduce(0) { total, step in
            if case .straightened(let d, _, _, _, _) = step { return total + d }
            return total
        }
    }

    /// How much the page was scaled to make its text legible, 1 when it was not.
    public var legibilityScale: Double {
        reduce(1) { total, step in
            if case .straightened(_, let s, _, _, _) = step { return total * s }
            return total
        }
    }
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
        steps.allSatisfy { $0.homography == nil }
    }

    /// Whether the image is still the source's own page, at most enlarged evenly: no step has
    /// warped, turned or rotated it. Its words map to the source by one scale factor.
    public var keepsSourceFrame: Bool {
        steps.allSatisfy { step in
            if case .straightened(let degrees, _, _, _, _) = step { return degrees == 0 }
            return step.homography == nil
        }
    }

    /// Quarter turns clockwise the page was turned through to stand upright (0–3).
    public var quarterTurns: Int { steps.quarterTurns }

    /// Degrees clockwise the page was rotated to level its text, 0 when it was not.
    public var deskewDegrees: Double { steps.deskewDegrees }

    /// How much the page was scaled to make its text legible, 1 when it was not.
    public var legibilityScale: Double { steps.legibilityScale }

    /// The file's resolution as it applies to the current pixels: scaled with the page, and
    /// nil once a perspective warp has left no single resolution.
    public var currentResolution: Int? {
        guard let resolution, quad == nil else { return nil }
        return Int((Double(resolution) * legibilityScale).rounded())
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
        steps.reduce(Homography.identity) { acc, step in step.homography.map { $0 * acc } ?? acc }
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

    /// Turns the page `quarterTurns` quarter turns clockwise, pixel for pixel, and records it.
    public mutating func turn(quarterTurns: Int) {
        let q = ((quarterTurns % 4) + 4) % 4
        guard q != 0 else { return }
        let w = Double(image.width), h = Double(image.height)
        // In continuous pixel coordinates (pixel edges on integers), so a box maps exactly.
        let (exif, map): (Int, Homography) = switch q {
        case 1: (6, Homography(SIMD3(0, -1, h), SIMD3(1, 0, 0), SIMD3(0, 0, 1)))
        case 2: (3, Homography(SIMD3(-1, 0, w), SIMD3(0, -1, h), SIMD3(0, 0, 1)))
        default: (8, Homography(SIMD3(0, 1, 0), SIMD3(-1, 0, w), SIMD3(0, 0, 1)))
        }
        image = image.reoriented(exif: exif)
        steps.append(.turned(quarterTurns: q, homography: map, width: image.width, height: image.height))
    }

    /// Rotates the page `degrees` clockwise about its centre and scales it by `scale`, onto a
    /// canvas that holds all of it (`background` where nothing was), and records the step.
    public mutating func straighten(degrees: Double, scale: Double, background: UInt8 = 255, maxOutputPixels: Int = 400_000_000) throws(ScanCoreError) {
        guard degrees.isFinite, scale.isFinite, scale > 0, abs(degrees) < 45 else {
            throw ScanCoreError(.invalidImage, "cannot straighten by \(degrees)° at scale \(scale)")
        }
        guard degrees != 0 || scale != 1 else { return }
        let theta = degrees * .pi / 180
        let c = cos(theta), s = sin(theta)
        let w = Double(image.width), h = Double(image.height)
        let outW = max(1, Int(((w * abs(c) + h * abs(s)) * scale).rounded()))
        let outH = max(1, Int(((w * abs(s) + h * abs(c)) * scale).rounded()))
        guard outW.multipliedReportingOverflow(by: outH).partialValue <= maxOutputPixels, outW < 1 << 20, outH < 1 << 20 else {
            throw ScanCoreError(.outputTooLarge, "the straightened page would be \(outW)×\(outH) pixels, over the limit of \(maxOutputPixels)")
        }
        // Centre to the origin, rotate clockwise on screen (y points down), scale, centre again.
        let cx = w / 2, cy = h / 2, ox = Double(outW) / 2, oy = Double(outH) / 2
        let map = Homography(
            SIMD3(scale * c, -scale * s, ox - scale * (c * cx - s * cy)),
            SIMD3(scale * s, scale * c, oy - scale * (s * cx + c * cy)),
            SIMD3(0, 0, 1))
        let inverse = try map.inverted()
        image = PerspectiveCorrector.warp(image, outputWidth: outW, outputHeight: outH, outputToSource: inverse, background: background)
        steps.append(.straightened(degrees: degrees, scale: scale, homography: map, width: outW, height: outH))
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
