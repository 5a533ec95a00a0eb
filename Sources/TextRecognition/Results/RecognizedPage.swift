import Foundation
import ImageInput
import PagePreparation
import ScanCore

/// An axis-aligned box in pixels: left, top, width, height.
public struct WordBox: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var array: [Int] { [x, y, width, height] }

    /// The bounding box of this box's four corners mapped through `h`.
    public func mapped(through h: Homography) -> WordBox {
        let corners = [
            Point(Double(x), Double(y)), Point(Double(x + width), Double(y)),
            Point(Double(x + width), Double(y + height)), Point(Double(x), Double(y + height)),
        ].compactMap { h.apply($0) }
        guard corners.count == 4 else { return self }
        let minX = corners.map(\.x).min() ?? 0, maxX = corners.map(\.x).max() ?? 0
        let minY = corners.map(\.y).min() ?? 0, maxY = corners.map(\.y).max() ?? 0
        return WordBox(x: Int(minX.rounded()), y: Int(minY.rounded()),
                       width: Int((maxX - minX).rounded()), height: Int((maxY - minY).rounded()))
    }
}

/// One recognised word.
public struct RecognizedWord: Sendable, Hashable {
    public var text: String
    /// Tesseract's confidence, 0–100.
    public var confidence: Double
    /// The box in the recognised (corrected) page's pixels.
    public var box: WordBox
    /// The box mapped back to the source image's pixels through the recorded homography: the
    /// bounding box of the four mapped corners. Equal to `box` when the page was not warped.
    public var sourceBox: WordBox?

    public init(text: String, confidence: Double, box: WordBox, sourceBox: WordBox? = nil) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.sourceBox = sourceBox
    }
}

/// Seconds spent in each stage of one page, for benchmarks.
public struct StageTimings: Sendable, Hashable {
    public var decode: Double = 0
    public var detect: Double = 0
    public var warp: Double = 0
    /// Reading the text's geometry, turning and levelling the page.
    public var upright: Double = 0
    /// Starting the worker's Tesseract engine (reading the language data): non-zero only on
    /// the first page each worker recognises.
    public var engine: Double = 0
    public var recognize: Double = 0

    public init() {}

    /// Time in Tesseract: starting the engine and recognising.
    public var tesseract: Double { engine + recognize }
    public var total: Double { decode + detect + warp + upright + engine + recognize }
}

/// A page of a PDF input, by its source and 0-based index.
public struct OriginalPDFPage: Sendable {
    public let source: ImageSource
    public let index: Int
}

/// The result for one page: its text, or the error that stopped it.
public struct RecognizedPage: Sendable {
    /// The source as the user named it (`-` for stdin).
    public var source: String
    /// 1-based page number within the source.
    public var page: Int
    /// 0-based position of this page in the whole run (across every input).
    public var sequence: Int
    /// 0-based position of the source among the run's inputs.
    public var inputIndex: Int
    /// How many pages the source has (1 when it could not be opened).
    public var pagesInSource = 1
    /// The size of the source image (0 when it could not be decoded).
    public var width: Int = 0
    public var height: Int = 0
    /// The size of the page that was recognised (after perspective correction).
    public var pageWidth: Int = 0
    public var pageHeight: Int = 0
    /// The page outline in source pixels (TL, TR, BR, BL), when the page was rectified.
    public var quad: Quad?
    /// True when `quad` came from page detection, false when the user gave it.
    public var quadDetected = false
    /// Detection confidence (0–1) when detection ran, else nil.
    public var detectionConfidence: Double?
    /// Degrees clockwise the page was turned to stand upright: 0, 90, 180 or 270.
    public var rotation: Int { steps.quarterTurns * 90 }
    /// Degrees clockwise the page was rotated to level its text lines (their tilt), 0 if not.
    public var skew: Double { steps.deskewDegrees }
    /// How much the page was scaled before recognition, 1 when it was not.
    public var scale: Double { steps.legibilityScale }
    /// How Tesseract laid the page out to read it, when it was read.
    public var layout: PageLayout?
    /// What the page's text showed of its lines and orientation, when it was read.
    public var textGeometry: TextGeometry? { legibility?.geometry }
    /// When the way up was unsure, Tesseract's mean confidence reading a band of the page as it
    /// stood and turned half-way: the larger decided. The band is not read half-turned (nil)
    /// when it read too well as it stood for the other way to win.
    public var uprightCheck: (asIs: Double, halfTurned: Double?)?
    /// What page preparation did to stand the page up, for the recogniser to finish.
    var legibility: Legibility.Outcome?
    public var text = ""
    /// Tesseract's mean word confidence, 0–100.
    public var confidence: Double = 0
    public var words: [RecognizedWord] = []
    /// Tesseract's own TSV and hOCR renderings, when asked for.
    public var tsv: String?
    public var hocr: String?
    public var alto: String?
    /// The page as a one-page searchable PDF, when asked for (`--format pdf`); with
    /// `textLayerPage`, its text layer alone.
    public var pdf: Data?
    /// The PDF page `pdf` is a text layer for: the page is kept as it is, the layer over it.
    public var textLayerPage: OriginalPDFPage?
    /// For a PDF page whose own text was taken (`PDFTextMode.use`): the page, to copy unchanged.
    public var originalPage: OriginalPDFPage?
    /// The page as recognised, when the options keep it (for `--save-pages`).
    public var correctedImage: PixelBuffer?
    /// The steps applied to the page since decoding.
    public var steps: [PageStep] = []
    /// For a PDF page: its size in points and the resolution it was rendered at.
    public var rendering: PageRendering?
    public var timings = StageTimings()
    /// Nil on success; otherwise `text` is empty and this says why.
    public var error: RecognitionError?

    public init(source: String, page: Int, sequence: Int, inputIndex: Int) {
        self.source = source
        self.page = page
        self.sequence = sequence
        self.inputIndex = inputIndex
    }

    public var succeeded: Bool { error == nil }
}
