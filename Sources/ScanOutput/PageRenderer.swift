import Foundation
import TextRecognition

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
            return PageRecord(page).json + "\n"
        case .tsv:
            return page.tsv ?? ""
        case .hocr:
            return page.hocr ?? ""
        }
    }

}
