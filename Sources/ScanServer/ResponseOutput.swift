import Foundation
import NIOCore
import ScanOutput
import Synchronization
import TextRecognition

/// A response's bytes in one of the command line's formats, built page by page as pages are
/// delivered (in order, on the recognizer's delivery queue). A PDF is gathered on disk and
/// sent whole at the end, as the command line writes it.
final class ResponseOutput: Sendable {
    let format: OutputFormat
    private let renderer: Mutex<PageRenderer>
    private let book = Mutex<PDFBook.Builder?>(nil)

    init(format: OutputFormat) {
        self.format = format
        renderer = Mutex(PageRenderer(format: format))
    }

    func header() -> String { renderer.withLock { $0.header() } }

    func page(_ page: RecognizedPage) throws(PDFBook.Failure) -> ByteBuffer? {
        if format == .pdf {
            try book.withLock { (book: inout PDFBook.Builder?) throws(PDFBook.Failure) in
                if book == nil { book = try PDFBook.Builder() }
                try book?.add(page)
            }
            return nil
        }
        let text = renderer.withLock { $0.page(page) }
        return text.isEmpty ? nil : ByteBuffer(string: text)
    }

    /// What follows the last page: a format's footer, or the whole PDF, moved to a file of
    /// its own in the temporary directory (the caller sends it and removes it).
    func finish() throws(PDFBook.Failure) -> ResponseChunk? {
        guard format == .pdf else {
            let footer = renderer.withLock { $0.footer() }
            return footer.isEmpty ? nil : .bytes(ByteBuffer(string: footer))
        }
        return .file(try book.withLock { (book: inout PDFBook.Builder?) throws(PDFBook.Failure) -> ResponseFile in
            defer { book = nil }
            guard let builder = book else { throw PDFBook.Failure(description: "no page could be recognised, so there is no PDF") }
            let file = try builder.finish()
            let kept = NSTemporaryDirectory() + "scantext-response-\(UUID().uuidString).pdf"
            guard rename(file, kept) == 0 else { throw PDFBook.Failure(description: "the PDF could not be moved out of its working directory") }
            return ResponseFile(path: kept)
        })
    }
}

/// A piece of a response: bytes, or a file to send.
enum ResponseChunk: Sendable {
    case bytes(ByteBuffer)
    case file(ResponseFile)
}

/// A file made for one response, removed when the last reference goes: once it is sent, or
/// when the response is dropped unsent (the client left).
final class ResponseFile: Sendable {
    let path: String
    init(path: String) { self.path = path }
    deinit { unlink(path) }
}
