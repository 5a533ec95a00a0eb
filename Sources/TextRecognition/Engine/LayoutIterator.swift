import CTesseract

/// The owner of one `TessPageIterator` from Tesseract's layout analysis, deleted in `deinit`.
/// It points into the engine's results: it must be gone before the engine reads or clears.
final class LayoutIterator {
    private let handle: OpaquePointer

    init?(_ handle: OpaquePointer?) {
        guard let handle else { return nil }
        self.handle = handle
    }

    deinit { TessPageIteratorDelete(handle) }

    /// Block kinds that hold text; pictures, rules and noise do not.
    private static let textBlocks: Set<UInt32> = [
        PT_FLOWING_TEXT.rawValue, PT_HEADING_TEXT.rawValue, PT_PULLOUT_TEXT.rawValue, PT_TABLE.rawValue,
        PT_VERTICAL_TEXT.rawValue, PT_CAPTION_TEXT.rawValue,
    ]

    /// The lines of the layout's text blocks.
    func textLines() -> [LayoutLine] {
        var lines: [LayoutLine] = []
        repeat {
            guard Self.textBlocks.contains(TessPageIteratorBlockType(handle).rawValue) else { continue }
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            guard TessPageIteratorBoundingBox(handle, RIL_TEXTLINE, &l, &t, &r, &b) != 0 else { continue }
            lines.append(LayoutLine(minX: Int(l), minY: Int(t), maxX: Int(r), maxY: Int(b)))
        } while TessPageIteratorNext(handle, RIL_TEXTLINE) != 0
        return lines
    }
}
