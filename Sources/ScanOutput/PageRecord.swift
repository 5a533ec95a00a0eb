import Foundation
import ScanCore
import TextRecognition

/// The JSON record of one page, the one JSON writer for every command. Keys are sorted; `quad`
/// and `error` are always present, as `null` when absent.
public struct PageRecord: Encodable, Sendable {
    /// Which fields a record carries.
    public enum View: Sendable {
        /// Everything recognition gives: `scantext --format jsonl`.
        case recognition
        /// The outline alone (source, page, size, quad, confidence): `scantext detect`.
        case outline
    }

    public let page: RecognizedPage
    public let view: View

    public init(_ page: RecognizedPage, view: View = .recognition) {
        self.page = page
        self.view = view
    }

    /// The record as one line of JSON.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8) else {
            return #"{"error":"the result could not be encoded as JSON"}"#
        }
        return text
    }

    struct Word: Encodable {
        let text: String
        let confidence: Double
        let box: [Int]
        let source_box: [Int]?
    }

    struct PDFPage: Encodable {
        let width_pt: Double, height_pt: Double, dpi: Int
    }

    struct TextGeometryRecord: Encodable {
        let character_height: Double, lines: String, direction_ratio: Double, neighbour_ratio: Double, skew_confidence: Double, upright_evidence: Double
        let reading_as_is: Double?, reading_half_turned: Double?
    }

    struct Timings: Encodable {
        let decode: Double, detect: Double, warp: Double, upright: Double, engine: Double, recognize: Double
    }

    enum Keys: String, CodingKey {
        case source, page, width, height, quad, quad_detected, detection_confidence, page_width, page_height
        case text, confidence, words, error, error_code, timings, pdf_page, text_source, rotation, skew, scale, layout, text_geometry
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(page.source, forKey: .source)
        try c.encode(page.page, forKey: .page)
        try c.encode(page.width, forKey: .width)
        try c.encode(page.height, forKey: .height)
        let quad = page.quad.map { $0.corners.map { [Self.round($0.x), Self.round($0.y)] } }
        if view == .outline {
            try c.encode(quad, forKey: .quad)
            try c.encode(Self.round(page.detectionConfidence ?? 0, 3), forKey: .confidence)
            if let error = page.error {
                try c.encode(error.message, forKey: .error)
                try c.encode(error.code.description, forKey: .error_code)
            }
            return
        }
        if let quad {
            try c.encode(quad, forKey: .quad)
            try c.encode(page.quadDetected, forKey: .quad_detected)
        } else {
            try c.encodeNil(forKey: .quad)
        }
        if let d = page.detectionConfidence { try c.encode(Self.round(d, 3), forKey: .detection_confidence) }
        if let r = page.rendering {
            try c.encode(PDFPage(width_pt: Self.round(r.widthPoints), height_pt: Self.round(r.heightPoints), dpi: r.dpi), forKey: .pdf_page)
        }
        try c.encode(page.rotation, forKey: .rotation)
        try c.encode(Self.round(page.skew), forKey: .skew)
        try c.encode(Self.round(page.scale, 3), forKey: .scale)
        if let layout = page.layout { try c.encode(layout.name, forKey: .layout) }
        if let g = page.textGeometry {
            try c.encode(TextGeometryRecord(
                character_height: Self.round(g.characterHeight, 1), lines: g.linesRunVertically ? "down" : "across",
                direction_ratio: Self.round(min(g.directionRatio, 1000), 2), neighbour_ratio: Self.round(g.neighbourRatio, 2), skew_confidence: Self.round(g.skewConfidence, 2),
                upright_evidence: Self.round(g.uprightEvidence, 2),
                reading_as_is: page.uprightCheck.map { Self.round($0.asIs, 1) },
                reading_half_turned: page.uprightCheck?.halfTurned.map { Self.round($0, 1) }), forKey: .text_geometry)
        }
        try c.encode(page.pageWidth, forKey: .page_width)
        try c.encode(page.pageHeight, forKey: .page_height)
        try c.encode(page.text, forKey: .text)
        // Text taken from the PDF page itself (--pdf-text use), not recognised.
        if page.originalPage != nil { try c.encode("pdf", forKey: .text_source) }
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
                             warp: Self.round(t.warp, 4), upright: Self.round(t.upright, 4), engine: Self.round(t.engine, 4),
                             recognize: Self.round(t.recognize, 4)), forKey: .timings)
    }

    public static func round(_ v: Double, _ digits: Int = 2) -> Double {
        let p = pow(10.0, Double(digits))
        return (v * p).rounded() / p
    }
}
