import CQPDF
import Foundation

/// Puts one-page searchable PDFs together into one document, in order, through qpdf: each page
/// is copied with the objects it uses (image, text, font) and renumbered.
public enum PDFBook {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One PDF holding every page of `pages`, in order.
    public static func merge(_ pages: [Data]) throws(Failure) -> Data {
        let book = try QPDF()
        guard qpdf_empty_pdf(book.handle) == QPDF_SUCCESS else { throw book.failure("could not start a PDF") }
        // Each source must outlive the write: qpdf reads copied streams from it then.
        var sources: [QPDF] = []
        for page in pages {
            let source = try QPDF(reading: page)
            for i in 0..<max(0, Int(qpdf_get_num_pages(source.handle))) {
                let oh = qpdf_get_page_n(source.handle, i)
                guard qpdf_add_page(book.handle, source.handle, oh, QPDF_FALSE) == QPDF_SUCCESS else {
                    throw book.failure("could not add a page")
                }
            }
            sources.append(source)
        }
        guard qpdf_init_write_memory(book.handle) == QPDF_SUCCESS else { throw book.failure("could not write") }
        qpdf_set_object_stream_mode(book.handle, qpdf_o_generate)
        guard qpdf_write(book.handle) == QPDF_SUCCESS, let buffer = qpdf_get_buffer(book.handle) else {
            throw book.failure("could not write")
        }
        let data = Data(bytes: buffer, count: Int(qpdf_get_buffer_length(book.handle)))
        withExtendedLifetime(sources) {}
        return data
    }
}

/// The owner of one `qpdf_data`, with the bytes it reads from, released in `deinit`.
private final class QPDF {
    let handle: qpdf_data
    private var bytes: UnsafeMutableRawBufferPointer?

    init() throws(PDFBook.Failure) {
        guard let handle = qpdf_init() else { throw PDFBook.Failure(description: "qpdf could not start") }
        self.handle = handle
        qpdf_silence_errors(handle)
    }

    /// A PDF read from a copy of `data` that lives as long as this owner.
    convenience init(reading data: Data) throws(PDFBook.Failure) {
        try self.init()
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 1)
        _ = data.copyBytes(to: copy)
        bytes = copy
        guard qpdf_read_memory(handle, "page", copy.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(data.count), nil)
            == QPDF_SUCCESS
        else { throw failure("could not read a page's PDF") }
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
        bytes?.deallocate()
    }
}
