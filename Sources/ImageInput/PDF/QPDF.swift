import CQPDF

/// The owner of one `qpdf_data`, released in `deinit`. qpdf reports errors by return code and
/// keeps them on the handle, so nothing unwinds through Swift frames. Used for a PDF's
/// structure (here) and for putting pages together (ScanOutput's `PDFBook`).
package final class QPDF {
    package let handle: qpdf_data

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package init() throws(Failure) {
        guard let handle = qpdf_init() else { throw Failure(description: "qpdf could not start") }
        self.handle = handle
        qpdf_silence_errors(handle)
        qpdf_set_suppress_warnings(handle, QPDF_TRUE)
    }

    /// A PDF read from a file, which qpdf keeps open as long as this owner.
    package convenience init(reading file: String) throws(Failure) {
        try self.init()
        guard qpdf_read(handle, file, nil) == QPDF_SUCCESS else { throw failure("could not read a page's PDF") }
    }

    /// A PDF read from `bytes`, which qpdf reads in place: they must outlive this owner.
    package convenience init(borrowing bytes: UnsafeRawBufferPointer, name: String) throws(Failure) {
        try self.init()
        let status = qpdf_read_memory(
            handle, name, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil)
        guard status == QPDF_SUCCESS, qpdf_push_inherited_attributes_to_page(handle) == QPDF_SUCCESS else {
            throw failure("could not read \(name)")
        }
    }

    /// `what` failed, with qpdf's own words for why when it has them.
    package func failure(_ what: String) -> Failure {
        var detail = ""
        if qpdf_has_error(handle) != 0, let error = qpdf_get_error(handle), let text = qpdf_get_error_full_text(handle, error) {
            detail = " (" + String(cString: text) + ")"
        }
        return Failure(description: "qpdf " + what + detail)
    }

    /// The pixel size of the one image page `index` draws from its own resources, read from the
    /// image's dictionary without decoding it; nil when the page uses no image, several, or a
    /// form (whose contents this does not look into).
    package func soleImagePixels(ofPage index: Int) -> (width: Int, height: Int)? {
        defer { release() }
        guard let page = page(index) else { return nil }
        let xobjects = qpdf_oh_get_key(handle, qpdf_oh_get_key(handle, page, "/Resources"), "/XObject")
        guard qpdf_oh_is_dictionary(handle, xobjects) == QPDF_TRUE else { return nil }
        var found: (width: Int, height: Int)?
        for key in keys(of: xobjects) {
            let object = qpdf_oh_get_key(handle, xobjects, key)
            guard qpdf_oh_is_stream(handle, object) == QPDF_TRUE else { continue }
            let dictionary = qpdf_oh_get_dict(handle, object)
            guard qpdf_oh_is_name_and_equals(handle, qpdf_oh_get_key(handle, dictionary, "/Subtype"), "/Image") == QPDF_TRUE else {
                return nil
            }
            let width = qpdf_oh_get_key(handle, dictionary, "/Width"), height = qpdf_oh_get_key(handle, dictionary, "/Height")
            guard found == nil, qpdf_oh_is_integer(handle, width) == QPDF_TRUE, qpdf_oh_is_integer(handle, height) == QPDF_TRUE else {
                return nil
            }
            found = (Int(qpdf_oh_get_int_value(handle, width)), Int(qpdf_oh_get_int_value(handle, height)))
        }
        return found.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
    }

    /// Page `index`'s /Rotate in degrees, 0 to 270; nil when there is no such page.
    package func rotation(ofPage index: Int) -> Int? {
        defer { release() }
        guard let page = page(index) else { return nil }
        let rotate = qpdf_oh_get_key(handle, page, "/Rotate")
        guard qpdf_oh_is_integer(handle, rotate) == QPDF_TRUE else { return 0 }
        let degrees = Int(qpdf_oh_get_int_value(handle, rotate)) % 360
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// A dictionary's keys (none when it is not one), read before anything else iterates:
    /// qpdf keeps one key iterator per document.
    package func keys(of dictionary: qpdf_oh) -> [String] {
        guard qpdf_oh_is_dictionary(handle, dictionary) == QPDF_TRUE else { return [] }
        var keys: [String] = []
        qpdf_oh_begin_dict_key_iter(handle, dictionary)
        while qpdf_oh_dict_more_keys(handle) == QPDF_TRUE, let key = qpdf_oh_dict_next_key(handle) { keys.append(String(cString: key)) }
        return keys
    }

    /// Page `index`'s object, or nil when there is no such page.
    private func page(_ index: Int) -> qpdf_oh? {
        guard index >= 0, index < Int(qpdf_get_num_pages(handle)) else { return nil }
        let page = qpdf_get_page_n(handle, index)
        return qpdf_oh_is_initialized(handle, page) == QPDF_TRUE ? page : nil
    }

    /// Releases a query's object handles and takes any error it left: qpdf prints an error
    /// nobody took to stderr when the handle is cleaned up.
    private func release() {
        qpdf_oh_release_all(handle)
        while qpdf_has_error(handle) != 0, qpdf_get_error(handle) != nil {}
    }

    deinit {
        var owned: qpdf_data? = handle
        qpdf_cleanup(&owned)
    }
}
