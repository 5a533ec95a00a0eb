import CQPDF
import Foundation
import ImageInput

/// Puts one-page searchable PDFs together into one document, in order, through qpdf: each page
/// is copied with the objects it uses (image, text, font) and renumbered.
public enum PDFBook {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One PDF holding every page of `pages`, in order.
    public static func merge(_ pages: [Data]) throws(Failure) -> Data {
        let builder = try Builder()
        for page in pages { try builder.add(page) }
        let file = try builder.finish()
        guard let data = FileManager.default.contents(atPath: file) else { throw Failure(description: "could not read the PDF back") }
        return data
    }

    /// Puts pages of PDF files together into `output`, in order: every page of a file, or the
    /// one page an entry names.
    static func merge(files: [(path: String, page: Int?)], into output: String) throws(Failure) {
        let book = try QPDF()
        guard qpdf_empty_pdf(book.handle) == QPDF_SUCCESS else { throw book.failure("could not start a PDF") }
        // Each source must outlive the write: qpdf reads copied streams from it then.
        var sources: [QPDF] = []
        for file in files {
            let source = try QPDF(reading: file.path)
            let count = max(0, Int(qpdf_get_num_pages(source.handle)))
            for i in file.page.map({ $0..<min($0 + 1, count) }) ?? 0..<count {
                guard qpdf_add_page(book.handle, source.handle, qpdf_get_page_n(source.handle, i), QPDF_FALSE) == QPDF_SUCCESS else {
                    throw book.failure("could not add a page")
                }
            }
            sources.append(source)
        }
        guard qpdf_init_write(book.handle, output) == QPDF_SUCCESS else { throw book.failure("could not write") }
        qpdf_set_object_stream_mode(book.handle, qpdf_o_generate)
        guard qpdf_write(book.handle) == QPDF_SUCCESS else { throw book.failure("could not write") }
        withExtendedLifetime(sources) {}
    }

    /// Gathers a PDF's pages on disk as they come, so memory does not grow with the page
    /// count, and puts them together at the end. Pages are merged in chunks of
    /// `pagesPerChunk` as they arrive, so no merge holds more files open than that.
    public final class Builder {
        private let directory: String
        private var pages: [(path: String, page: Int?)] = []
        private var chunks: [String] = []
        /// Source PDFs written out once, to copy their pages from, by the source's identity.
        private var sources: [ObjectIdentifier: String] = [:]
        private var written = 0
        static let pagesPerChunk = 100

        public init() throws(Failure) {
            var template = Array((NSTemporaryDirectory() + "scantext-pdf-XXXXXX").utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw Failure(description: "could not make a temporary directory")
            }
            directory = String(cString: made)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// Adds the pages of a PDF (a recognised page's) after those already added.
        public func add(_ pdf: Data) throws(Failure) {
            let file = next("page")
            guard FileManager.default.createFile(atPath: file, contents: pdf) else {
                throw Failure(description: "could not write a page to \(directory)")
            }
            pages.append((file, nil))
            if pages.count == Self.pagesPerChunk { try flush() }
        }

        /// Adds page `index` of a PDF input, unchanged.
        public func add(page index: Int, of source: ImageSource) throws(Failure) {
            let id = ObjectIdentifier(source)
            if sources[id] == nil {
                let file = next("source")
                guard let data = source.pdfData, FileManager.default.createFile(atPath: file, contents: data) else {
                    throw Failure(description: "could not copy \(source.name) to \(directory)")
                }
                sources[id] = file
            }
            pages.append((sources[id] ?? "", index))
            if pages.count == Self.pagesPerChunk { try flush() }
        }

        /// The whole document, as a file inside this builder's directory (gone with it).
        public func finish() throws(Failure) -> String {
            try flush()
            if chunks.count == 1 { return chunks[0] }
            let output = next("book")
            try PDFBook.merge(files: chunks.map { ($0, nil) }, into: output)
            return output
        }

        private func flush() throws(Failure) {
            guard !pages.isEmpty else { return }
            let chunk = next("chunk")
            try PDFBook.merge(files: pages, into: chunk)
            for page in pages where page.page == nil { unlink(page.path) }
            pages = []
            chunks.append(chunk)
        }

        private func next(_ kind: String) -> String {
            written += 1
            return directory + "/\(kind)-\(written).pdf"
        }
    }
}

/// The owner of one `qpdf_data`, released in `deinit`.
private final class QPDF {
    let handle: qpdf_data

    init() throws(PDFBook.Failure) {
        guard let handle = qpdf_init() else { throw PDFBook.Failure(description: "qpdf could not start") }
        self.handle = handle
        qpdf_silence_errors(handle)
    }

    /// A PDF read from a file, which qpdf keeps open as long as this owner.
    convenience init(reading file: String) throws(PDFBook.Failure) {
        try self.init()
        guard qpdf_read(handle, file, nil) == QPDF_SUCCESS else { throw failure("could not read a page's PDF") }
    }

    func failure(_ what: String) -> PDFBook.Failure {
        var detail = ""
        if qpdf_has_error(handle) != 0, let error = qpdf_get_error(handle), let text = qpdf_get_error_full_text(handle, error) {
            detail = " (" + String(cString: text) + ")"
        }
        return PDFBook.Failure(description: "qpdf " + what + detail)
    }

    deinit {
        var owned: qpdf_data? = handle
        qpdf_cleanup(&owned)
    }
}
