import TextRecognition

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
    /// ALTO XML (v3), as libraries and archives keep it: Tesseract's page layout in one document.
    case alto
    /// A searchable PDF: each page as recognised, with its text invisible over the image.
    case pdf

    /// The file extension for batch outputs.
    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .jsonl: "jsonl"
        case .tsv: "tsv"
        case .hocr: "hocr"
        case .alto: "xml"
        case .pdf: "pdf"
        }
    }
}

extension OutputFormat {
    /// The Tesseract renderings this format is made of.
    public var tesseractRenderings: Set<TesseractRendering> {
        switch self {
        case .text, .jsonl: []
        case .tsv: [.tsv]
        case .hocr: [.hocr]
        case .alto: [.alto]
        case .pdf: [.pdf]
        }
    }
}
