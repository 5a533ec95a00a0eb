import CPoppler
import Foundation
import ScanCore
import Synchronization

/// The owner of a PDF's `PopplerDocument`s, each unreferenced in `deinit`. A Poppler document
/// is not thread-safe, so each is used by one thread at a time; separate documents over the
/// same bytes render in parallel, so a document is opened for every page rendered at once
/// (at most one per worker) and kept for the next.
final class PDFDocument: Sendable {
    /// A Poppler document handed to one caller at a time.
    private struct Handle: @unchecked Sendable {
        // Safe: a handle is either in `idle`, under its lock, or held by exactly one caller of
        // `withDocument` until it puts it back; no two threads ever use one document at once.
        // (Swift cannot see that exclusivity: a Mutex refuses a non-Sendable value put back.)
        let document: OpaquePointer
    }

    private let idle = Mutex<[Handle]>([])
    /// qpdf's reading of the same bytes, for what Poppler's GLib API does not tell without
    /// decoding (an image's pixel size); nil when qpdf cannot read the file.
    private let structure: Mutex<QPDF?>
    /// The bytes Poppler reads from without copying, at an address that stays put as long as
    /// the documents (a `Data`'s bytes are only pinned inside `withUnsafeBytes`).
    private nonisolated(unsafe) let bytes: UnsafeMutableRawBufferPointer
    private let length: Int
    let pageCount: Int

    enum Failure: Error {
        case encrypted
        case damaged(String)
    }

    init(_ data: Data) throws(Failure) {
        // Safe to share: written once here, only read afterwards, freed in deinit.
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        _ = data.copyBytes(to: bytes)
        length = data.count
        let first: Handle
        do throws(Failure) {
            first = try Self.open(UnsafeRawBufferPointer(rebasing: bytes[..<data.count]))
        } catch {
            bytes.deallocate()
            throw error
        }
        pageCount = Int(poppler_document_get_n_pages(first.document))
        idle.withLock { $0.append(first) }
        structure = Mutex(try? QPDF(borrowing: UnsafeRawBufferPointer(rebasing: bytes[..<data.count]), name: "the PDF"))
    }

    private var pdfBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[..<length]) }

    /// A copy of the PDF's bytes.
    var data: Data { Data(pdfBytes) }

    private static func open(_ raw: UnsafeRawBufferPointer) throws(Failure) -> Handle {
        var error: UnsafeMutablePointer<GError>?
        let gbytes = g_bytes_new_static(raw.baseAddress, gsize(raw.count))
        defer { g_bytes_unref(gbytes) }
        let document = poppler_document_new_from_bytes(gbytes, nil, &error)
        guard let document else {
            defer { if error != nil { g_error_free(error) } }
            if let error, error.pointee.domain == poppler_error_quark(), error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
                throw .encrypted
            }
            throw .damaged(error.map { String(cString: $0.pointee.message) } ?? "Poppler could not open it")
        }
        return Handle(document: document)
    }

    deinit {
        for handle in idle.withLock({ $0 }) { g_object_unref(UnsafeMutableRawPointer(handle.document)) }
        structure.withLock { $0 = nil }  // qpdf reads the bytes in place
        bytes.deallocate()
    }

    /// Runs `body` with a document no other thread is using: an idle one, or a new one over the
    /// same bytes. Nil when a new one cannot be opened (it opened once, so this is rare).
    private func withDocument<T>(_ body: (OpaquePointer) -> T?) -> T? {
        let handle = idle.withLock { $0.popLast() } ?? (try? Self.open(pdfBytes))
        guard let handle else { return nil }
        defer { idle.withLock { $0.append(handle) } }
        return body(handle.document)
    }

    /// Page `index`'s size in points.
    func size(of index: Int) -> (width: Double, height: Double)? {
        withDocument { document in
            guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            var w = 0.0, h = 0.0
            poppler_page_get_size(page, &w, &h)
            return (w, h)
        }
    }

    /// Page `index`'s /Rotate in degrees, as qpdf reads it (inherited from the page tree too);
    /// nil when qpdf cannot read the file.
    func rotation(of index: Int) -> Int? {
        structure.withLock { $0?.rotation(ofPage: index) }
    }

    /// The text page `index` already carries (a born-digital page, or an earlier OCR's layer);
    /// nil when it has none but whitespace.
    func text(of index: Int) -> String? {
        withDocument { document -> String? in
            guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            guard let raw = poppler_page_get_text(page) else { return nil }
            defer { g_free(raw) }
            let text = String(cString: raw)
            return text.contains { !$0.isWhitespace } ? text : nil
        }
    }

    /// The resolution of the image that covers page `index` alone (a scan or a photo put into
    /// a PDF), in pixels per inch of the page; nil when the page is anything else.
    func soleImageResolution(of index: Int) -> Double? {
        withDocument { document -> Double? in
            guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            var w = 0.0, h = 0.0
            poppler_page_get_size(page, &w, &h)
            guard let mappings = poppler_page_get_image_mapping(page) else { return nil }
            defer { poppler_page_free_image_mapping(mappings) }
            guard g_list_length(mappings) == 1, let data = mappings.pointee.data else { return nil }
            let mapping = data.assumingMemoryBound(to: PopplerImageMapping.self).pointee
            let area = mapping.area
            // The image must fill the page (within 2 %), or it is a figure on a page of text.
            guard abs(area.x2 - area.x1) >= 0.98 * w, abs(area.y2 - area.y1) >= 0.98 * h else { return nil }
            // The image's own size, from its dictionary; decoding it (Poppler's only way)
            // costs as much as rendering the page, so that is the fallback.
            var pixels = structure.withLock { $0?.soleImagePixels(ofPage: index) }
            if pixels == nil, let image = poppler_page_get_image(page, mapping.image_id) {
                pixels = (Int(cairo_image_surface_get_width(image)), Int(cairo_image_surface_get_height(image)))
                cairo_surface_destroy(image)
            }
            guard let pixels, pixels.width > 0, pixels.height > 0 else { return nil }
            // Pixels per inch over the area it covers, the same whichever way it is turned.
            let inches = abs(area.x2 - area.x1) * abs(area.y2 - area.y1) / (72 * 72)
            return (Double(pixels.width) * Double(pixels.height) / inches).squareRoot()
        }
    }

    /// Page `index` rendered on white at `dpi`, as RGB, or as grey (Rec. 601, the weights and
    /// rounding of `PixelBuffer.grayscale()`) straight from cairo's pixels; nil when Poppler
    /// cannot.
    func render(_ index: Int, dpi: Int, width: Int, height: Int, grey: Bool) -> PixelBuffer? {
        withDocument { document -> PixelBuffer? in
            guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else { return nil }
            defer { cairo_surface_destroy(surface) }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return nil }
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            cairo_scale(cr, Double(dpi) / 72, Double(dpi) / 72)
            poppler_page_render_for_printing(page, cr)
            cairo_destroy(cr)
            cairo_surface_flush(surface)
            guard let data = cairo_image_surface_get_data(surface) else { return nil }
            let stride = Int(cairo_image_surface_get_stride(surface))
            if grey {
                let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
                    let weights = PixelBuffer.lumaWeights
                    let wr = UInt32(weights.red), wg = UInt32(weights.green), wb = UInt32(weights.blue)
                    for y in 0..<height {
                        let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                        let o = out.baseAddress! + y * width
                        for x in 0..<width {
                            let word = row[x]
                            let r = (word >> 16) & 255, g = (word >> 8) & 255, b = word & 255
                            o[x] = UInt8(truncatingIfNeeded: (wr &* r &+ wg &* g &+ wb &* b &+ 32768) >> 16)
                        }
                    }
                    initialized = width * height
                }
                return try? PixelBuffer(width: width, height: height, format: .gray, pixels: pixels)
            }
            // RGB24 is one 32-bit word per pixel, 0xXXRRGGBB in native order.
            let rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, initialized in
                for y in 0..<height {
                    let row = UnsafeRawPointer(data + y * stride)
                    for x in 0..<width {
                        let word = row.load(fromByteOffset: x * 4, as: UInt32.self)
                        let o = (y * width + x) * 3
                        out[o] = UInt8(truncatingIfNeeded: word >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: word >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: word)
                    }
                }
                initialized = width * height * 3
            }
            return try? PixelBuffer(width: width, height: height, format: .rgb, pixels: rgb)
        }
    }
}
