import CQPDF
import Foundation
import ImageInput
import TextRecognition

/// Puts one-page searchable PDFs together into one document, in order, through qpdf: each page
/// is copied with the objects it uses (image, text, font) and renumbered.
public enum PDFBook {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
        init(_ qpdf: QPDF.Failure) { description = qpdf.description }
    }

    /// One PDF holding every page of `pages`, in order.
    public static func merge(_ pages: [Data]) throws(Failure) -> Data {
        let builder = try Builder()
        for page in pages { try builder.add(page) }
        let file = try builder.finish()
        guard let data = FileManager.default.contents(atPath: file) else { throw Failure(description: "could not read the PDF back") }
        return data
    }

    /// One page, or all pages, of the output: where they come from.
    enum Part {
        /// Every page of a file (a recognised page's PDF, or a chunk already put together).
        case document(String)
        /// Page `index` of a file, unchanged.
        case page(String, index: Int)
        /// Page `index` of a file with the text layer that is the one page of `layer` laid
        /// over it, invisible.
        case overlaid(String, index: Int, layer: String)
    }

    /// Puts `parts` together into `output`, in order.
    static func merge(_ parts: [Part], into output: String) throws(Failure) {
        do throws(QPDF.Failure) {
            let book = try QPDF()
            guard qpdf_empty_pdf(book.handle) == QPDF_SUCCESS else { throw book.failure("could not start a PDF") }
            // Each file is read once, and must outlive the write: qpdf reads copied streams then.
            var files: [String: QPDF] = [:]
            func file(_ path: String) throws(QPDF.Failure) -> QPDF {
                if let open = files[path] { return open }
                let open = try QPDF(reading: path)
                files[path] = open
                return open
            }
            var count = 0
            func add(_ source: QPDF, _ index: Int) throws(QPDF.Failure) {
                guard qpdf_add_page(book.handle, source.handle, qpdf_get_page_n(source.handle, index), QPDF_FALSE) == QPDF_SUCCESS else {
                    throw book.failure("could not add a page")
                }
                count += 1
            }
            for part in parts {
                switch part {
                case .document(let path):
                    let source = try file(path)
                    for i in 0..<max(0, Int(qpdf_get_num_pages(source.handle))) { try add(source, i) }
                case .page(let path, let index):
                    try add(try file(path), index)
                case .overlaid(let path, let index, let layer):
                    try add(try file(path), index)
                    try book.overlay(page: count - 1, with: try file(layer))
                }
            }
            guard qpdf_init_write(book.handle, output) == QPDF_SUCCESS else { throw book.failure("could not write") }
            qpdf_set_object_stream_mode(book.handle, qpdf_o_generate)
            guard qpdf_write(book.handle) == QPDF_SUCCESS else { throw book.failure("could not write") }
            withExtendedLifetime(files) {}
        } catch {
            throw Failure(error)
        }
    }

    /// Gathers a PDF's pages on disk as they come, so memory does not grow with the page
    /// count, and puts them together at the end. Pages are merged in chunks of
    /// `pagesPerChunk` as they arrive, so no merge holds more files open than that.
    public final class Builder {
        private let directory: String
        private var pages: [Part] = []
        private var chunks: [String] = []
        /// The input PDF pages are being copied from, written out once: an input's pages come
        /// together, so only the current one is kept (holding it keeps its identity unique).
        private var source: (input: ImageSource, file: String)?
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
            pages.append(.document(file))
            if pages.count == Self.pagesPerChunk { try flush() }
        }

        /// Adds page `index` of a PDF input, unchanged.
        public func add(page index: Int, of source: ImageSource) throws(Failure) {
            pages.append(.page(try copy(of: source), index: index))
            if pages.count == Self.pagesPerChunk { try flush() }
        }

        /// Adds page `index` of a PDF input with `layer`, a one-page PDF of its recognised
        /// text (Tesseract's text-only rendering of the page), laid over it: the page keeps
        /// its own content, bytes and size.
        public func add(page index: Int, of source: ImageSource, textLayer layer: Data) throws(Failure) {
            let file = next("layer")
            guard FileManager.default.createFile(atPath: file, contents: layer) else {
                throw Failure(description: "could not write a page to \(directory)")
            }
            pages.append(.overlaid(try copy(of: source), index: index, layer: file))
            if pages.count == Self.pagesPerChunk { try flush() }
        }

        /// The source PDF, written out once, to copy its pages from.
        private func copy(of input: ImageSource) throws(Failure) -> String {
            if let source, source.input === input { return source.file }
            let file = next("source")
            guard let data = input.pdfData, FileManager.default.createFile(atPath: file, contents: data) else {
                throw Failure(description: "could not copy \(input.name) to \(directory)")
            }
            source = (input, file)
            return file
        }

        /// The whole document, as a file inside this builder's directory (gone with it).
        public func finish() throws(Failure) -> String {
            try flush()
            if chunks.count == 1 { return chunks[0] }
            let output = next("book")
            try PDFBook.merge(chunks.map { .document($0) }, into: output)
            return output
        }

        private func flush() throws(Failure) {
            guard !pages.isEmpty else { return }
            let chunk = next("chunk")
            try PDFBook.merge(pages, into: chunk)
            for page in pages {
                switch page {
                case .document(let path), .overlaid(_, _, let path): unlink(path)
                case .page: break
                }
            }
            pages = []
            chunks.append(chunk)
        }

        private func next(_ kind: String) -> String {
            written += 1
            return directory + "/\(kind)-\(written).pdf"
        }
    }
}

extension PDFBook.Builder {
    /// A result's page: its searchable PDF, its text layer over the input's page, or the
    /// input's page whose own text was taken.
    public func add(_ page: RecognizedPage) throws(PDFBook.Failure) {
        if let pdf = page.pdf, let original = page.textLayerPage {
            try add(page: original.index, of: original.source, textLayer: pdf)
        } else if let pdf = page.pdf {
            try add(pdf)
        } else if let original = page.originalPage {
            try add(page: original.index, of: original.source)
        }
    }
}
