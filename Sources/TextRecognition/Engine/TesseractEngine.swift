import CTesseract
import Dispatch
import Foundation
import ImageInput
import ScanCore

/// What one engine call returns: text, confidence and words in the recognised image's pixels.
struct EngineOutput {
    var text: String
    var confidence: Double
    var words: [RecognizedWord]
    var tsv: String?
    var hocr: String?
    var alto: String?
    /// The page as a one-page searchable PDF: the image, and the text invisible over it.
    var pdf: Data?
    /// How the page was laid out for reading.
    var layout: PageLayout
}

/// The owner of one `TessBaseAPI` handle, ended and deleted in `deinit`.
///
/// Not `Sendable`: an engine belongs to the worker that made it and is used on that worker only.
final class TesseractEngine {
    private let handle: OpaquePointer
    let configuration: EngineConfiguration
    /// What the worker thread does around each recognition (see `RecognitionThreadHooks`).
    let threadHooks: RecognitionThreadHooks?

    /// Starts an engine (about 0.08 s for `eng`). Throws when the language data is missing or
    /// Tesseract refuses it.
    init(_ configuration: EngineConfiguration, threadHooks: RecognitionThreadHooks? = RecognitionThreadHooks.installed) throws(RecognitionError) {
        try configuration.validate()
        guard let handle = TessBaseAPICreate() else {
            throw RecognitionError(.engineFailed, source: nil, "Tesseract could not be created", remedy: "check the installation of libtesseract5")
        }
        // Tesseract prints warnings ("Estimating resolution…") with tprintf; scantext reports
        // what matters itself, so they go nowhere.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        let dir = configuration.resolvedTessdataDirectory
        let status = TessBaseAPIInit3(handle, dir, configuration.languages)
        guard status == 0 else {
            TessBaseAPIDelete(handle)
            throw RecognitionError(
                .missingLanguage, source: nil, "Tesseract could not load '\(configuration.languages)' from \(dir)",
                remedy: "reinstall the tesseract-ocr-LANG packages, or pass --tessdata DIR")
        }
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        // The API's own default is a single block of text (6), which reads columns and tables
        // as one run of lines. The engine keeps automatic layout (3), as the tesseract CLI does,
        // and each page without --psm is laid out from what it shows (`layOut`).
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(configuration.pageSegmentationMode ?? 3)))
        self.handle = handle
        self.configuration = configuration
        self.threadHooks = threadHooks
    }

    /// The page segmentation mode Tesseract will use, as it reports it.
    var pageSegmentationMode: Int { Int(TessBaseAPIGetPageSegMode(handle).rawValue) }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Recognises one image. `shown`, of the same size, is the page as a PDF shows it when
    /// `image` is a cleaned copy. `resolution` is passed to Tesseract when known (otherwise it
    /// estimates one from the text size). `deadline` stops recognition after that many seconds.
    func recognize(
        _ image: PixelBuffer, shown: PixelBuffer? = nil, resolution: Int?, deadline: Double?, pageNumber: Int,
        renderings: Set<TesseractRendering>, cancel: CancellationFlag?
    ) throws(RecognitionError) -> EngineOutput {
        try RecognitionThread.recognizing(hooks: threadHooks) { () throws(RecognitionError) -> EngineOutput in
            try recognizeOnThisThread(
                image, shown: shown, resolution: resolution, deadline: deadline, pageNumber: pageNumber, renderings: renderings,
                cancel: cancel)
        }
    }

    private func recognizeOnThisThread(
        _ image: PixelBuffer, shown: PixelBuffer?, resolution: Int?, deadline: Double?, pageNumber: Int,
        renderings: Set<TesseractRendering>, cancel: CancellationFlag?
    ) throws(RecognitionError) -> EngineOutput {
        defer { TessBaseAPIClear(handle) }
        let start = DispatchTime.now().uptimeNanoseconds
        let monitor = RecognitionMonitor(deadline: deadline, cancel: cancel)
        let layout = layOut(image, shown: shown, resolution: resolution)
        defer { if layout == .singleBlock { TessBaseAPISetPageSegMode(handle, PSM_AUTO) } }

        let status = TessBaseAPIRecognize(handle, monitor.pointer)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if cancel?.isSet == true {
            throw RecognitionError(.cancelled, source: nil, "recognition was cancelled", remedy: "")
        }
        if let deadline, elapsed >= deadline {
            throw RecognitionError(
                .timedOut, source: nil, "recognition took over \(Self.seconds(deadline))",
                remedy: "raise --page-timeout, or check that the page is a document")
        }
        guard status == 0 else {
            throw RecognitionError(.engineFailed, source: nil, "Tesseract failed to recognise the page", remedy: "check that the image holds a document page")
        }

        let text = takeString(TessBaseAPIGetUTF8Text(handle)) ?? ""
        let confidence = Double(TessBaseAPIMeanTextConf(handle))
        let words = ResultIterator(TessBaseAPIGetIterator(handle))?.words() ?? []
        let page = Int32(pageNumber - 1)
        let tsv = renderings.contains(.tsv) ? takeString(TessBaseAPIGetTsvText(handle, page)) : nil
        let hocr = renderings.contains(.hocr) ? takeString(TessBaseAPIGetHOCRText(handle, page)) : nil
        let alto = renderings.contains(.alto) ? takeString(TessBaseAPIGetAltoText(handle, page)) : nil
        let pdf = renderings.contains(.pdfTextLayer) ? try searchablePDF(textOnly: true)
            : renderings.contains(.pdf) ? try searchablePDF(textOnly: false) : nil
        return EngineOutput(
            text: text, confidence: max(confidence, 0), words: words, tsv: tsv, hocr: hocr, alto: alto, pdf: pdf, layout: layout)
    }

    /// Hands Tesseract the page to read, and the page as shown when that is another.
    private func load(_ image: PixelBuffer, shown: PixelBuffer?, resolution: Int?) {
        image.pixels.withUnsafeBufferPointer { px in
            TessBaseAPISetImage(
                handle, px.baseAddress, Int32(image.width), Int32(image.height),
                Int32(image.format.channels), Int32(image.bytesPerRow))
        }
        if let resolution { TessBaseAPISetSourceResolution(handle, Int32(resolution)) }
        // What a PDF shows, and what words are cut from, is the page as it was; the page read
        // for layout is `image`. Tesseract takes ownership of the Pix: it gets its own reference.
        // Set after the image, which replaces it.
        if let shown, let original = LeptonicaImage.from(shown) {
            TessBaseAPISetInputImage(handle, pixClone(original.pix))
        }
    }

    /// Larger pages are first laid out on a copy reduced to this longer side: columns show as
    /// well there, and a page then read as one block throws that look away.
    static let layoutSide = 1800

    /// Loads the page to read in the layout it is read in. With no `--psm`, Tesseract's
    /// automatic layout first looks at the page: pages in columns keep that layout, and a
    /// single column is read as one block, inside the area its lines take up.
    private func layOut(_ image: PixelBuffer, shown: PixelBuffer?, resolution: Int?) -> PageLayout {
        if let mode = configuration.pageSegmentationMode {
            load(image, shown: shown, resolution: resolution)
            return .requested(mode)
        }
        let reduction = max(1, (max(image.width, image.height) + Self.layoutSide - 1) / Self.layoutSide)
        if reduction > 1 {
            load(image.downsampled(by: reduction), shown: nil, resolution: resolution.map { max(1, $0 / reduction) })
        } else {
            load(image, shown: shown, resolution: resolution)
        }
        let lines = LayoutIterator(TessBaseAPIAnalyseLayout(handle))?.textLines() ?? []
        guard !PageLayout.hasColumns(lines),
              let area = TextArea(around: lines, reduction: reduction, width: image.width, height: image.height)
        else {
            // Loading the page again drops the layout found; at full size, recognition reuses it.
            if reduction > 1 { load(image, shown: shown, resolution: resolution) }
            return .automatic
        }
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_BLOCK)
        if area.isSmaller(thanWidth: image.width, height: image.height) {
            load(area.isolated(in: image), shown: shown ?? image, resolution: resolution)
        } else {
            load(image, shown: shown, resolution: resolution)
        }
        return .singleBlock
    }

    /// Tesseract's mean word confidence (0–100) reading `image` as one block of text: how well
    /// it reads that way up, or 0 past `deadline` seconds. The engine's own page segmentation
    /// mode is kept for pages.
    func readingConfidence(of image: PixelBuffer, resolution: Int?, deadline: Double?, cancel: CancellationFlag?) -> Double {
        (try? RecognitionThread.recognizing(hooks: threadHooks) { () -> Double in
            let mode = TessBaseAPIGetPageSegMode(handle)
            TessBaseAPISetPageSegMode(handle, PSM_SINGLE_BLOCK)
            defer {
                TessBaseAPISetPageSegMode(handle, mode)
                TessBaseAPIClear(handle)
            }
            image.pixels.withUnsafeBufferPointer { px in
                TessBaseAPISetImage(handle, px.baseAddress, Int32(image.width), Int32(image.height),
                                    Int32(image.format.channels), Int32(image.bytesPerRow))
            }
            if let resolution { TessBaseAPISetSourceResolution(handle, Int32(resolution)) }
            let monitor = RecognitionMonitor(deadline: deadline, cancel: cancel)
            guard TessBaseAPIRecognize(handle, monitor.pointer) == 0 else { return 0 }
            return max(0, Double(TessBaseAPIMeanTextConf(handle)))
        }) ?? 0
    }

    /// The recognised page through Tesseract's own PDF renderer, which writes a file: one
    /// document of one page, in a private temporary directory, read back and removed.
    /// `textOnly` leaves the image out: the invisible text alone.
    private func searchablePDF(textOnly: Bool) throws(RecognitionError) -> Data {
        let failed = RecognitionError(.engineFailed, source: nil, "Tesseract could not write the page as PDF",
                                      remedy: "check free space in the temporary directory, and that pdf.ttf is in the tessdata directory")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scantext-pdf-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)) != nil else { throw failed }
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = directory.appendingPathComponent("page").path
        guard let renderer = TessPDFRendererCreate(base, configuration.resolvedTessdataDirectory, textOnly ? 1 : 0) else { throw failed }
        defer { TessDeleteResultRenderer(renderer) }
        guard TessResultRendererBeginDocument(renderer, "") != 0, TessResultRendererAddImage(renderer, handle) != 0,
              TessResultRendererEndDocument(renderer) != 0,
              let data = FileManager.default.contents(atPath: base + ".pdf")
        else { throw failed }
        return data
    }

    static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }
}
