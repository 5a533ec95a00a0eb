import CTesseract
import Foundation
import ScanCore
import SystemPackage

/// An image file (or standard input) read into memory, with its format known and its pages
/// counted. Pages are decoded one at a time, on demand, so a many-page TIFF never sits
/// decoded in memory all at once.
///
/// Immutable after init, so it is `Sendable`: workers decode different pages of one source
/// concurrently, and Leptonica's memory readers only read the bytes.
public final class ImageSource: Sendable {
    /// The name as the user gave it (`-` for stdin).
    public let name: String
    public let format: ImageFormat
    /// Pages that can be read; a damaged file's pages before the damage.
    public let pageCount: Int
    /// What the file's structure says is missing or unread (a multi-page file cut short, frames
    /// of an animation, bytes after the end); nil for a sound file. The `pageCount` pages before
    /// it are read all the same, and the input counts as failed.
    public let damage: InputError?
    /// A TIFF's page sizes from its directories, to refuse a huge page before decoding it.
    private let pageSizes: [[Int]]
    /// The image file's bytes; empty for a PDF, whose `PDFDocument` holds them.
    let bytes: Data

    public enum ImageFormat: String, Sendable {
        case png, jpeg, tiff, webp, bmp, pnm, gif, jp2, pdf
    }

    /// The pages of a PDF, rendered on demand at `pdfResolution` dots per inch.
    let pdf: PDFDocument?
    public let pdfResolution: Int
    public static let defaultPDFResolution = 300

    /// Reads a file. Throws an `InputError` naming the file for every way a file can be bad.
    public static func open(path: String, limits: DecodeLimits = .default, pdfResolution: Int = defaultPDFResolution) throws(InputError) -> ImageSource {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        } catch {
            switch error as? Errno {
            case .noSuchFileOrDirectory?: throw InputError(.notFound, source: path, "no such file", remedy: "check the path")
            case .permissionDenied?, .notPermitted?:
                throw InputError(.unreadable, source: path, "permission denied", remedy: "check the file's permissions")
            default:
                throw InputError(.unreadable, source: path, "could not be opened (\(error))", remedy: "check the file and the disk")
            }
        }
        defer { try? fd.close() }
        let data: Data
        do throws(FileReading.Failure) {
            data = try FileReading.readAll(fd, limit: limits.maxFileBytes)
        } catch {
            switch error {
            case .isDirectory:
                throw InputError(
                    .isDirectory, source: path, "is a directory",
                    remedy: "name image files, or pass --output-dir DIR to process a directory tree")
            case .tooLarge(let size):
                throw InputError(
                    .tooLarge, source: path, "the file is \(size >> 20) MiB, over the \(limits.maxFileBytes >> 20) MiB limit",
                    remedy: "split or shrink it")
            case .failed(let errno):
                throw InputError(.unreadable, source: path, "could not be read (\(errno))", remedy: "check the file and the disk")
            }
        }
        return try ImageSource(name: path, data: data, limits: limits, pdfResolution: pdfResolution)
    }

    /// Reads all of standard input as one image file.
    public static func standardInput(limits: DecodeLimits = .default, pdfResolution: Int = defaultPDFResolution) throws(InputError) -> ImageSource {
        let data: Data
        do throws(FileReading.Failure) {
            data = try FileReading.readAll(.standardInput, limit: limits.maxFileBytes)
        } catch {
            switch error {
            case .isDirectory:
                throw InputError(.unreadable, source: "-", "is a directory", remedy: "pipe an image file into scantext")
            case .tooLarge:
                throw InputError(
                    .tooLarge, source: "-", "standard input holds over \(limits.maxFileBytes >> 20) MiB",
                    remedy: "split or shrink the image")
            case .failed(let errno):
                throw InputError(
                    .unreadable, source: "-", "standard input could not be read (\(errno))",
                    remedy: "pipe an image file into scantext")
            }
        }
        return try ImageSource(name: "-", data: data, limits: limits, pdfResolution: pdfResolution)
    }

    /// Wraps bytes already in memory.
    public convenience init(name: String, data: Data, limits: DecodeLimits = .default, pdfResolution: Int = defaultPDFResolution) throws(InputError) {
        guard !data.isEmpty else {
            throw InputError(.empty, source: name, "is empty (0 bytes)", remedy: "re-copy or re-scan the file")
        }
        if Self.isPDF(data) {
            try self.init(pdf: data, name: name, limits: limits, pdfResolution: pdfResolution)
        } else {
            try self.init(image: data, name: name, limits: limits)
        }
    }

    private init(image data: Data, name: String, limits: DecodeLimits) throws(InputError) {
        _ = Leptonica.configured
        self.name = name
        pdf = nil
        pdfResolution = Self.defaultPDFResolution
        var iff: Int32 = 0
        let found = data.withUnsafeBytes { raw -> Bool in
            guard raw.count >= 12 else { return false }
            return findFileFormatBuffer(raw.bindMemory(to: UInt8.self).baseAddress, &iff) == 0
        }
        guard found, let format = Self.format(iff) else {
            if let kind = Self.unreadableImageKind(data) {
                throw InputError(
                    .unsupportedFormat, source: name, "is \(kind.name) image, which scantext cannot read",
                    remedy: "convert it to JPEG or PNG first, e.g. \(kind.converter) \(name == "-" ? "IMAGE" : name) page.\(kind.converter == "djxl" ? "png" : "jpg")")
            }
            throw InputError(
                .notAnImage, source: name, "is not an image or PDF scantext can read",
                remedy: "give a PNG, JPEG, TIFF, WebP, BMP, PNM, GIF or PDF file")
        }
        self.format = format
        let structure = FileStructure.check(data, format: format)
        // A GIF cut after its first image decodes from that image alone.
        bytes = structure.firstImageEnd.map { data.prefix($0) + [0x3B] } ?? data
        var damage = structure.damage.map { problem in
            structure.unreadFrames
                ? InputError(.unsupportedFormat, source: name, problem, remedy: "save each frame as an image of its own, e.g. convert \(name) frame-%d.png")
                : InputError(.corrupt, source: name, problem, remedy: "re-copy or re-export it")
        }
        var pages = format == .tiff ? Self.tiffPageCount(data) : 1
        if let whole = structure.pages {
            if format == .tiff, damage == nil, pages < whole {
                damage = InputError(
                    .corrupt, source: name, "is corrupt: only \(pages) of its \(whole) pages could be read", remedy: "re-export or re-scan it")
            }
            pages = min(pages, whole)
        }
        guard pages > 0 else {
            throw damage ?? InputError(.corrupt, source: name, "is a corrupt TIFF with no readable page", remedy: "re-export or re-scan it")
        }
        if let damage, pages > 0 {
            // The pages before the damage are still read; this reports the rest.
            self.damage = InputError(damage.code, source: name, damage.problem, remedy: damage.remedy + (
                damage.code == .corrupt ? "; the \(pages == 1 ? "first page was" : "first \(pages) pages were") read" : ""))
        } else {
            self.damage = nil
        }
        try Self.checkPageCount(pages, name: name, limits: limits)
        pageCount = pages
        pageSizes = structure.pageSizes.map { [$0.width, $0.height] }
        // Refuse decompression bombs before decoding a single pixel.
        var w: Int32 = 0, h: Int32 = 0
        let headerRead = data.withUnsafeBytes { raw in
            pixReadHeaderMem(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, nil, &w, &h, nil, nil, nil) == 0
        }
        if headerRead {
            try Self.checkSize(width: Int(w), height: Int(h), name: name, limits: limits)
        }
    }

    private init(pdf data: Data, name: String, limits: DecodeLimits, pdfResolution: Int) throws(InputError) {
        self.name = name
        self.pdfResolution = pdfResolution
        format = .pdf
        // The PDF's bytes are kept once, by the document (`pdfData` copies them when asked).
        bytes = Data()
        pageSizes = []
        do throws(PDFDocument.Failure) {
            pdf = try PDFDocument(data)
        } catch {
            switch error {
            case .encrypted:
                throw InputError(
                    .encrypted, source: name, "is an encrypted PDF and needs a password",
                    remedy: "decrypt it first, e.g. qpdf --decrypt --password=PASSWORD IN.pdf OUT.pdf")
            case .damaged(let reason):
                throw Self.pdfEndsWhole(data)
                    ? InputError(.corrupt, source: name, "is a damaged PDF (\(reason))", remedy: "re-export or re-download it")
                    : InputError(.corrupt, source: name, "is truncated: the PDF ends before its %%EOF marker and no page could be read",
                                 remedy: "re-copy or re-download it")
            }
        }
        let pages = pdf?.pageCount ?? 0
        guard pages > 0 else {
            throw Self.pdfEndsWhole(data)
                ? InputError(.corrupt, source: name, "is a PDF with no pages", remedy: "check that it is the right file")
                : InputError(.corrupt, source: name, "is truncated: the PDF ends before its %%EOF marker and no page could be read",
                             remedy: "re-copy or re-download it")
        }
        try Self.checkPageCount(pages, name: name, limits: limits)
        pageCount = pages
        // Poppler rebuilds a cut file's cross-reference table and reads what it finds; the
        // end-of-file marker says whether that was all.
        damage = Self.pdfEndsWhole(data) ? nil : InputError(
            .corrupt, source: name, "is truncated: the PDF ends before its %%EOF marker",
            remedy: "re-copy or re-download it; " + (pages == 1 ? "the page found in it was read" : "the \(pages) pages found in it were read"))
    }

    /// Refuses more pages than the limit before any is decoded: a small file can hold thousands.
    static func checkPageCount(_ pages: Int, name: String, limits: DecodeLimits) throws(InputError) {
        guard pages <= limits.maxPages else {
            throw InputError(
                .tooLarge, source: name, "has \(pages) pages, over the limit of \(limits.maxPages)",
                remedy: "split it, or raise the limit with --max-pages")
        }
    }

    static func checkSize(width: Int, height: Int, name: String, limits: DecodeLimits) throws(InputError) {
        guard width > 0, height > 0 else {
            throw InputError(.corrupt, source: name, "has an invalid size \(width)×\(height)", remedy: "re-export or re-scan it")
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > limits.maxPixels {
            throw InputError(
                .tooLarge, source: name,
                "is \(width)×\(height) pixels, over the limit of \(limits.maxPixels / 1_000_000) megapixels",
                remedy: "shrink it, or raise the limit with --max-megapixels")
        }
    }

    /// Image formats Leptonica does not decode, named from their signatures so that a phone's
    /// HEIC photo is not called "not an image": the name ("a HEIC") and the command-line tool
    /// that converts it; nil for anything else.
    static func unreadableImageKind(_ data: Data) -> (name: String, converter: String)? {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return ("a JPEG XL", "djxl") }
        // ISO base media: a box size, "ftyp", then the major brand.
        guard head.count == 12, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        switch String(decoding: head[8..<12], as: UTF8.self) {
        case "avif", "avis": return ("an AVIF", "heif-convert")
        case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1": return ("a HEIC", "heif-convert")
        default: return nil
        }
    }

    private static func format(_ iff: Int32) -> ImageFormat? {
        switch Int(iff) {
        case IFF_PNG: return .png
        case IFF_JFIF_JPEG: return .jpeg
        case IFF_TIFF, IFF_TIFF_PACKBITS, IFF_TIFF_RLE,
             IFF_TIFF_G3, IFF_TIFF_G4, IFF_TIFF_LZW,
             IFF_TIFF_ZIP, IFF_TIFF_JPEG:
            return .tiff
        case IFF_WEBP: return .webp
        case IFF_BMP: return .bmp
        case IFF_PNM: return .pnm
        case IFF_GIF: return .gif
        case IFF_JP2: return .jp2
        default: return nil
        }
    }

    /// Counts the pages of a TIFF by reading its directory chain through Leptonica.
    private static func tiffPageCount(_ data: Data) -> Int {
        var copy = data  // fmemopen needs a mutable buffer; it is only read.
        return copy.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress, let fp = fmemopen(base, raw.count, "r") else { return 0 }
            defer { fclose(fp) }
            var n: Int32 = 0
            return tiffGetCount(fp, &n) == 0 ? Int(n) : 0
        }
    }

    /// Decodes page `index` (0-based) into a `ScanPage`. With `luminanceOnly`, a colour JPEG is
    /// decoded straight to grey (libjpeg skips the chroma planes' transform, upsampling and
    /// colour conversion), which is all recognition needs and about half the work; other
    /// formats decode as they are.
    public func page(_ index: Int, limits: DecodeLimits = .default, luminanceOnly: Bool = false) throws(InputError) -> ScanPage {
        try CodecOutput.quietly { () throws(InputError) -> ScanPage in
            try decodePage(index, limits: limits, luminanceOnly: luminanceOnly)
        }
    }

    private func decodePage(_ index: Int, limits: DecodeLimits, luminanceOnly: Bool) throws(InputError) -> ScanPage {
        guard index >= 0, index < pageCount else {
            throw InputError(.corrupt, source: name, "has no page \(index + 1)", remedy: "it has \(pageCount) page(s)")
        }
        if let pdf { return try renderPDFPage(pdf, index: index, limits: limits, luminanceOnly: luminanceOnly) }
        if index < pageSizes.count, pageSizes[index][0] > 0, pageSizes[index][1] > 0 {
            try Self.checkSize(width: pageSizes[index][0], height: pageSizes[index][1], name: name, limits: limits)
        }
        if format == .jpeg, luminanceOnly, let page = try turboLuminance(limits: limits) { return page }
        var jpegWarning: Int32 = 0
        let decoded: LeptonicaImage? = bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> LeptonicaImage? in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            switch format {
            case .tiff: return LeptonicaImage(taking: pixReadMemTiff(base, raw.count, Int32(index)))
            case .jpeg:
                let hint = luminanceOnly ? Int32(L_JPEG_READ_LUMINANCE) : 0
                return LeptonicaImage(taking: pixReadMemJpeg(base, raw.count, 0, 1, &jpegWarning, hint))
            default: return LeptonicaImage(taking: pixReadMem(base, raw.count))
            }
        }
        guard let decoded else {
            throw InputError(
                .corrupt, source: name, "is truncated or corrupt (\(format.rawValue) data could not be decoded)",
                remedy: "re-export or re-scan it")
        }
        if jpegWarning != 0 && !jpegHasEndMarker {
            throw InputError(
                .corrupt, source: name, "is a truncated JPEG (the data ends before the image does)",
                remedy: "re-copy or re-export it")
        }
        try Self.checkSize(width: decoded.width, height: decoded.height, name: name, limits: limits)
        let resolution = decoded.resolution
        guard let buffer = decoded.pixelBuffer() else {
            throw InputError(
                .corrupt, source: name, "has a pixel format scantext cannot convert (depth \(decoded.depth))",
                remedy: "re-export it as 8-bit grey or RGB")
        }
        return uprightPage(buffer, index: index, resolution: resolution)
    }

    /// The decoded pixels as a page: turned upright as a JPEG's EXIF orientation says (phones
    /// store photos sideways; pages must be upright to be read), with the file's resolution
    /// kept only when Tesseract would trust it. Both decoding paths end here.
    private func uprightPage(_ pixels: PixelBuffer, index: Int, resolution: Int?) -> ScanPage {
        let orientation = format == .jpeg ? ExifOrientation.read(jpeg: bytes).rawValue : ExifOrientation.upright.rawValue
        let credible = resolution.flatMap { Self.credibleResolutions.contains($0) ? $0 : nil }
        return ScanPage(
            source: name, index: index, image: pixels.reoriented(exif: orientation), resolution: credible,
            exifOrientation: orientation)
    }

    /// The file resolutions passed on to Tesseract: the range Tesseract itself trusts
    /// (kMinCredibleResolution to kMaxCredibleResolution), so a flat scan is read as the
    /// `tesseract` CLI reads it. Outside it (no resolution, or a nonsense one) Tesseract
    /// estimates one from the text. Many scanners and converters write 96 dpi whatever the
    /// scan's real resolution; trusting it as Tesseract does gave better reading order and
    /// recall on the corpus's pages and receipts than estimating (see the README).
    static let credibleResolutions = 70...2400

    /// Whether a page decoded `luminanceOnly` leaves out colour the file holds: so a colour JPEG
    /// is decoded. Other images decode as they are, and a PDF page renders grey, as it reads.
    public var dropsColourWhenLuminanceOnly: Bool {
        guard format == .jpeg, let decoder = TurboJPEGDecoder() else { return false }
        return bytes.withUnsafeBytes { decoder.header(of: $0)?.colour } ?? false
    }

    /// A JPEG's luma plane through libjpeg-turbo (see `TurboJPEGDecoder`), turned upright; nil
    /// when that path declines it and Leptonica should decode it instead.
    private func turboLuminance(limits: DecodeLimits) throws(InputError) -> ScanPage? {
        guard let decoder = TurboJPEGDecoder() else { return nil }
        guard let size = bytes.withUnsafeBytes({ decoder.header(of: $0) }) else { return nil }
        try Self.checkSize(width: size.width, height: size.height, name: name, limits: limits)
        let decoded = bytes.withUnsafeBytes { raw -> (PixelBuffer, Int?)? in
            guard let image = decoder.luminance(of: raw, width: size.width, height: size.height) else { return nil }
            return (image, TurboJPEGDecoder.jfifResolution(raw))
        }
        guard let (image, resolution) = decoded else { return nil }
        return uprightPage(image, index: 0, resolution: resolution)
    }

    /// Whether a JPEG's last bytes hold the end-of-image marker (FF D9). Trailing padding is
    /// common, so the last kilobyte is searched.
    private var jpegHasEndMarker: Bool {
        let tail = bytes.suffix(1024)
        var previous: UInt8 = 0
        for b in tail {
            if previous == 0xFF && b == 0xD9 { return true }
            previous = b
        }
        return false
    }
}
