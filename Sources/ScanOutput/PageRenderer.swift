import Foundation
import TextRecognition

/// Turns results into bytes for one output stream (stdout, or one batch output file). Call
/// `header()`, then `page(_:)` for each page in order, then `footer()`.
public struct PageRenderer: Sendable {
    public let format: OutputFormat
    /// The input this stream holds, when it holds one (a batch output file); ALTO names it.
    public let source: String?
    private var pagesWritten = 0

    public init(format: OutputFormat, source: String? = nil) {
        self.format = format
        self.source = source
    }

    public func header() -> String {
        switch format {
        case .text, .jsonl, .pdf: return ""
        case .alto: return altoHeader
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
        switch format {
        case .hocr: " </body>\n</html>\n"
        case .alto: "\t</Layout>\n</alto>\n"
        case .text, .jsonl, .tsv, .pdf: ""
        }
    }

    /// The ALTO document's head, as the `tesseract` CLI writes it; the file name only when the
    /// stream holds one input.
    private var altoHeader: String {
        let file = source.map { "\t\t<sourceImageInformation>\n\t\t\t<fileName>\(Self.xmlEscaped($0))</fileName>\n\t\t</sourceImageInformation>\n" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <alto xmlns="http://www.loc.gov/standards/alto/ns-v3#" xmlns:xlink="http://www.w3.org/1999/xlink" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.loc.gov/standards/alto/ns-v3# http://www.loc.gov/alto/v3/alto-3-0.xsd">
            \t<Description>
            \t\t<MeasurementUnit>pixel</MeasurementUnit>

            """ + file + """
            \t\t<OCRProcessing ID="OCR_0">
            \t\t\t<ocrProcessingStep>
            \t\t\t\t<processingSoftware>
            \t\t\t\t\t<softwareName>tesseract \(Tesseract.version)</softwareName>
            \t\t\t\t</processingSoftware>
            \t\t\t</ocrProcessingStep>
            \t\t</OCRProcessing>
            \t</Description>
            \t<Layout>

            """
    }

    static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The bytes for one page. Text pages after the first are preceded by a form feed, and a
    /// failed page renders as an empty page so page positions stay aligned.
    public mutating func page(_ page: RecognizedPage) -> String {
        defer { pagesWritten += 1 }
        switch format {
        case .text:
            return (pagesWritten > 0 ? "\u{0C}" : "") + page.text
        case .jsonl:
            return PageRecord(page).json + "\n"
        case .tsv:
            return page.tsv ?? ""
        case .hocr:
            return page.hocr ?? ""
        case .alto:
            return page.alto ?? ""
        case .pdf:
            // Binary: the sinks gather `page.pdf` and put the pages together (`PDFBook`).
            return ""
        }
    }

}
