import CQPDF
import Foundation
import ImageInput

extension QPDF {
    /// Lays the one page of `layer` (an invisible text layer) over page `index` of this PDF,
    /// scaled onto the area a viewer shows (its crop box). The page's own content is left as
    /// it is, wrapped in q…Q so that its graphics state cannot leak into the layer; its
    /// resources are copied before they gain the layer, as other pages may share them.
    func overlay(page index: Int, with layer: QPDF) throws(QPDF.Failure) {
        let page = qpdf_get_page_n(handle, index), layerPage = qpdf_get_page_n(layer.handle, 0)
        guard let target = box(of: page, in: self, "/CropBox") ?? box(of: page, in: self, "/MediaBox"),
              let source = box(of: layerPage, in: layer, "/MediaBox"),
              source.width > 0, source.height > 0
        else { throw failure("could not read a page's size") }

        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard qpdf_oh_get_page_content_data(layer.handle, layerPage, &bytes, &length) == QPDF_SUCCESS, let bytes else {
            throw layer.failure("could not read the text layer")
        }
        defer { free(bytes) }
        let form = qpdf_oh_new_stream(handle)
        qpdf_oh_replace_stream_data(handle, form, bytes, length, qpdf_oh_new_null(handle), qpdf_oh_new_null(handle))
        let formDictionary = qpdf_oh_get_dict(handle, form)
        qpdf_oh_replace_key(handle, formDictionary, "/Type", qpdf_oh_new_name(handle, "/XObject"))
        qpdf_oh_replace_key(handle, formDictionary, "/Subtype", qpdf_oh_new_name(handle, "/Form"))
        qpdf_oh_replace_key(handle, formDictionary, "/BBox", qpdf_oh_parse(handle, "[\(source.x) \(source.y) \(source.x + source.width) \(source.y + source.height)]"))
        qpdf_oh_replace_key(handle, formDictionary, "/Resources", copy(qpdf_oh_get_key(layer.handle, layerPage, "/Resources"), from: layer))

        let resources = shallowCopy(qpdf_oh_get_key(handle, page, "/Resources"))
        let xobjects = shallowCopy(qpdf_oh_get_key(handle, resources, "/XObject"))
        var name = "/ScantextText"
        while qpdf_oh_has_key(handle, xobjects, name) == QPDF_TRUE { name += "_" }
        qpdf_oh_replace_key(handle, xobjects, name, form)
        qpdf_oh_replace_key(handle, resources, "/XObject", xobjects)
        qpdf_oh_replace_key(handle, page, "/Resources", resources)

        let (sx, sy) = (target.width / source.width, target.height / source.height)
        let (tx, ty) = (target.x - source.x * sx, target.y - source.y * sy)
        let contents = qpdf_oh_new_array(handle)
        qpdf_oh_append_item(handle, contents, stream("q\n"))
        let old = qpdf_oh_get_key(handle, page, "/Contents")
        if qpdf_oh_is_array(handle, old) == QPDF_TRUE {
            for i in 0..<qpdf_oh_get_array_n_items(handle, old) { qpdf_oh_append_item(handle, contents, qpdf_oh_get_array_item(handle, old, i)) }
        } else if qpdf_oh_is_stream(handle, old) == QPDF_TRUE {
            qpdf_oh_append_item(handle, contents, old)
        }
        qpdf_oh_append_item(handle, contents, stream("\nQ\nq \(sx) 0 0 \(sy) \(tx) \(ty) cm \(name) Do Q\n"))
        qpdf_oh_replace_key(handle, page, "/Contents", contents)
    }

    /// A rectangle of a page (its lower-left corner and size), or nil when it has none.
    private func box(of page: qpdf_oh, in pdf: QPDF, _ key: String) -> (x: Double, y: Double, width: Double, height: Double)? {
        let array = qpdf_oh_get_key(pdf.handle, page, key)
        guard qpdf_oh_is_array(pdf.handle, array) == QPDF_TRUE, qpdf_oh_get_array_n_items(pdf.handle, array) == 4 else { return nil }
        let v = (0..<4).map { qpdf_oh_get_numeric_value(pdf.handle, qpdf_oh_get_array_item(pdf.handle, array, Int32($0))) }
        let (x0, x1, y0, y1) = (min(v[0], v[2]), max(v[0], v[2]), min(v[1], v[3]), max(v[1], v[3]))
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// A new content stream holding `text`.
    private func stream(_ text: String) -> qpdf_oh {
        let object = qpdf_oh_new_stream(handle)
        let bytes = Array(text.utf8)
        qpdf_oh_replace_stream_data(handle, object, bytes, bytes.count, qpdf_oh_new_null(handle), qpdf_oh_new_null(handle))
        return object
    }

    /// A new direct dictionary with the entries of `dictionary` (none when it is not one).
    private func shallowCopy(_ dictionary: qpdf_oh) -> qpdf_oh {
        let copy = qpdf_oh_new_dictionary(handle)
        for key in keys(of: dictionary) { qpdf_oh_replace_key(handle, copy, key, qpdf_oh_get_key(handle, dictionary, key)) }
        return copy
    }

    /// `object` of `other`, brought into this PDF: indirect objects through qpdf's foreign
    /// copy (which brings what they refer to), direct ones rebuilt.
    private func copy(_ object: qpdf_oh, from other: QPDF) -> qpdf_oh {
        let o = other.handle
        if qpdf_oh_get_object_id(o, object) != 0 { return qpdf_oh_copy_foreign_object(handle, o, object) }
        if qpdf_oh_is_dictionary(o, object) == QPDF_TRUE {
            let copy = qpdf_oh_new_dictionary(handle)
            for key in other.keys(of: object) { qpdf_oh_replace_key(handle, copy, key, self.copy(qpdf_oh_get_key(o, object, key), from: other)) }
            return copy
        }
        if qpdf_oh_is_array(o, object) == QPDF_TRUE {
            let copy = qpdf_oh_new_array(handle)
            for i in 0..<qpdf_oh_get_array_n_items(o, object) { qpdf_oh_append_item(handle, copy, self.copy(qpdf_oh_get_array_item(o, object, i), from: other)) }
            return copy
        }
        return qpdf_oh_parse(handle, qpdf_oh_unparse_binary(o, object))
    }
}
