import CTesseract
import Foundation
import ScanCore

/// The output formats scantext writes.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Plain text, pages separated by a form feed.
    case text
    /// One JSON object per page.
    case jsonl
    /// Tesseract's TSV, one header then every page's rows.
    case tsv
    /// Tesseract's hOCR, one XHTML document holding every page.
    case hocr

    /// The file extension for batch outputs.
    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .jsonl: "jsonl"
        case .tsv: "tsv"
        case .hocr: "hocr"
        }
    }
}

/// Turns results into bytes for one output stream (stdout, or one batch output file). Call
/// `header()`, then `page(_:)` for each page in order, then `footer()`.
public struct PageRenderer: Sendable {
    public let format: OutputFormat
    private var pagesWritten = 0

    public init(format: OutputFormat) {
        self.format = format
    }

    public func header() -> String {
        switch format {
        case .text, .jsonl: return ""
        case .tsv: return "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
        case .hocr:
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
                    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
                <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
                 <head>
                  <title></title>
                  <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
                  <meta name='ocr-system' content='scantext (tesseract \(Tesseract.version))' />
                  <meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf'/>
                 </head>
                 <body>

                """
        }
    }

    public func footer() -> String {
        format == .hocr ? " </body>\n</html>\n" : ""
    }

    /// The bytes for one page. Text pages after the first are preceded by a form feed, and a
    /// failed page renders as an empty page so page positions stay aligned.
    public mutating func page(_ page: RecognizedPage) -> String {
        defer { pagesWritten += 1 }
        switch format {
        case .text:
            return (pagesWritten > 0 ? "\u{0C}" : "") + page.text
        case .jsonl:
            return Self.json(page) + "\n"
        case .tsv:
            return page.tsv ?? ""
        case .hocr:
            return page.hocr ?? ""
        }
    }

    /// One JSON object for a page, keys sorted.
    public static func json(_ page: RecognizedPage) -> String {
        let record = PageRecord(page)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(record), let text = String(data: data, encoding: .utf8) else {
            return #"{"error":"the result could not be encoded as JSON"}"#
        }
        return text
    }
}

/// The JSON Lines record of one page. `quad` and `error` are always present, as `null` when
/// absent.
struct PageRecord: Encodable {
    let page: RecognizedPage

    init(_ page: RecognizedPage) { self.page = page }

    struct Word: Encodable {
        let text: String
        let confidence: Double
        let box: [Int]
        let source_box: [Int]?
    }

    struct Timings: Encodable {
        let decode: Double, detect: Double, warp: Double, engine: Double, recognize: Double
    }

    enum Keys: String, CodingKey {
        case source, page, width, height, quad, quad_detected, detection_confidence, page_width, page_height
        case text, confidence, words, error, error_code, timings
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(page.source, forKey: .source)
        try c.encode(page.page, forKey: .page)
        try c.encode(page.width, forKey: .width)
        try c.encode(page.height, forKey: .height)
        if let quad = page.quad {
            try c.encode(quad.corners.map { [Self.round($0.x), Self.round($0.y)] }, forKey: .quad)
            try c.encode(page.quadDetected, forKey: .quad_detected)
        } else {
            try c.encodeNil(forKey: .quad)
        }
        if let d = page.detectionConfidence { try c.encode(Self.round(d, 3), forKey: .detection_confidence) }
        try c.encode(page.pageWidth, forKey: .page_width)
        try c.encode(page.pageHeight, forKey: .page_height)
        try c.encode(page.text, forKey: .text)
        try c.encode(Self.round(page.confidence), forKey: .confidence)
        try c.encode(page.words.map {
            Word(text: $0.text, confidence: Self.round($0.confidence), box: $0.box.array, source_box: $0.sourceBox?.array)
        }, forKey: .words)
        if let error = page.error {
            try c.encode(error.message, forKey: .error)
            try c.encode(error.code.description, forKey: .error_code)
        } else {
            try c.encodeNil(forKey: .error)
        }
        let t = page.timings
        try c.encode(Timings(decode: Self.round(t.decode, 4), detect: Self.round(t.detect, 4),
                             warp: Self.round(t.warp, 4), engine: Self.round(t.engine, 4),
                             recognize: Self.round(t.recognize, 4)), forKey: .timings)
    }

    static func round(_ v: Double, _ digits: Int = 2) -> Double {
        let p = pow(10.0, Double(digits))
        return (v * p).rounded() / p
    }
}

/// Facts about the linked Tesseract.
public enum Tesseract {
    public static var version: String {
        guard let v = TessVersion() else { return "unknown" }
        return String(cString: v)
    }
}
