import Hummingbird
import PagePreparation
import ScanCore
import ScanOutput
import TextRecognition

/// What a request's query asks for, over the server's defaults: the command line's options
/// of the same names.
struct RequestOptions {
    var recognition: RecognitionOptions
    var format: OutputFormat = .text

    /// Reads `lang`, `psm`, `crop` (auto or none), `quad` (x,y;x,y;x,y;x,y: TL, TR, BR, BL),
    /// `rotate`, `deskew`, `dpi` and `format`; other parameters are ignored. Throws 400 for a value that cannot be
    /// used.
    init(query: [String: String], defaults: RecognitionOptions) throws(APIError) {
        recognition = defaults
        if let lang = query["lang"] { recognition.engine.languages = lang }
        if let psm = query["psm"] {
            guard let mode = Int(psm), (0...13).contains(mode) else {
                throw APIError(.badRequest, code: "bad-option", "psm must be 0 to 13, got '\(psm)'; see tesseract --help-psm")
            }
            recognition.engine.pageSegmentationMode = mode
        }
        if let dpi = query["dpi"] {
            guard let value = Int(dpi), (30...4800).contains(value) else {
                throw APIError(.badRequest, code: "bad-option", "dpi must be 30 to 4800, got '\(dpi)'")
            }
            recognition.dpi = value
        }
        switch query["crop"] {
        case nil, "auto": break
        case "none": recognition.crop = .none
        case let other?:
            throw APIError(.badRequest, code: "bad-option", "crop must be auto or none, got '\(other)'; give corners with quad=")
        }
        if let quad = query["quad"] {
            do throws(ScanCoreError) {
                recognition.crop = .quad(try Quad(parsing: quad))
            } catch {
                throw APIError(.badRequest, code: "bad-option", "quad '\(quad)' is not four corners x,y;x,y;x,y;x,y (TL, TR, BR, BL)")
            }
        }
        if let rotate = query["rotate"] {
            guard let mode = RotationMode(parsing: rotate) else {
                throw APIError(.badRequest, code: "bad-option", "rotate must be \(RotationMode.choices), got '\(rotate)'")
            }
            recognition.rotation = mode
        }
        if let deskew = query["deskew"] {
            guard let mode = DeskewMode(parsing: deskew) else {
                throw APIError(.badRequest, code: "bad-option", "deskew must be \(DeskewMode.choices), got '\(deskew)'")
            }
            recognition.deskew = mode
        }
        if let name = query["format"] {
            guard let format = OutputFormat(rawValue: name) else {
                throw APIError(.badRequest, code: "bad-option",
                               "format must be one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'")
            }
            self.format = format
        }
        recognition.renderings = format.tesseractRenderings
        do throws(RecognitionError) {
            try recognition.engine.validate()
        } catch {
            throw APIError(error)
        }
    }
}

extension OutputFormat {
    /// The media type of a response in this format.
    var contentType: String {
        switch self {
        case .text: "text/plain; charset=utf-8"
        case .jsonl: "application/x-ndjson"
        case .tsv: "text/tab-separated-values; charset=utf-8"
        case .hocr: "application/xhtml+xml"
        case .alto: "application/xml"
        case .pdf: "application/pdf"
        }
    }
}
