import Foundation
import ImageInput
import PagePreparation
import ScanCore

/// Tesseract's own renderings of a page, kept on its result beside the text and words.
public enum TesseractRendering: Sendable, Hashable {
    case tsv
    case hocr
    case alto
    /// A one-page searchable PDF of the page as recognised.
    case pdf
    /// The text layer of that PDF alone, to lay over the page's original in a PDF input.
    case pdfTextLayer
}

/// Everything that shapes a recognition run.
public struct RecognitionOptions: Sendable {
    public var engine: EngineConfiguration
    /// Worker count; each worker owns one Tesseract engine.
    public var jobs: Int
    public var crop: CropMode
    /// Whether pages are turned upright before recognition.
    public var rotation = RotationMode.auto
    /// Whether small tilts of the text are levelled before recognition.
    public var deskew = DeskewMode.auto
    /// Whether pages of small text are scaled up before recognition.
    public var upscale = true
    /// Resolution to tell Tesseract, overriding what the file says.
    public var dpi: Int?
    /// Seconds one page may spend in Tesseract before it becomes an error result.
    public var pageTimeout: Double?
    public var limits: DecodeLimits
    /// Dots per inch PDF pages are rendered at.
    public var pdfResolution = ImageSource.defaultPDFResolution
    /// What to do with a PDF page that already carries text.
    public var pdfText = PDFTextMode.recognize
    /// Tesseract renderings to keep on each result.
    public var renderings: Set<TesseractRendering> = []
    /// Keep each page's pixels, as recognised, on its result (to save corrected pages).
    public var keepsPreparedImages = false

    public init(
        engine: EngineConfiguration = EngineConfiguration(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        crop: CropMode = .auto, dpi: Int? = nil, pageTimeout: Double? = nil, limits: DecodeLimits = .default
    ) {
        self.engine = engine
        self.jobs = max(1, jobs)
        self.crop = crop
        self.dpi = dpi
        self.pageTimeout = pageTimeout
        self.limits = limits
    }
}

/// What to do with a PDF page that already carries text (a born-digital page, or one an
/// earlier OCR run gave a text layer).
public enum PDFTextMode: String, Sendable, CaseIterable {
    /// Recognise it from its rendering like any page.
    case recognize = "ocr"
    /// Take the text it has (fast, and exact for born-digital pages); recognise only pages
    /// without any. With PDF output, such a page is copied unchanged.
    case use
}

/// What a run can read pages from.
public enum RecognitionInput: Sendable {
    /// A path, opened when its turn comes.
    case file(String)
    /// All of standard input, as one image file.
    case standardInput
    /// An image already read into memory.
    case source(ImageSource)
    /// Pages already decoded.
    case document(ScanDocument)
}
