import CTesseract
import Foundation

/// Takes ownership of a string Tesseract allocated, copying it and freeing the original.
func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { TessDeleteText(pointer) }
    return String(cString: pointer)
}

/// The owner of one `TessResultIterator`, deleted in `deinit` with the result-iterator deleter.
final class ResultIterator {
    private let handle: OpaquePointer

    init?(_ handle: OpaquePointer?) {
        guard let handle else { return nil }
        self.handle = handle
    }

    deinit { TessResultIteratorDelete(handle) }

    /// Every word on the page with its confidence and box.
    func words() -> [RecognizedWord] {
        var words: [RecognizedWord] = []
        let level = RIL_WORD
        repeat {
            guard let text = takeString(TessResultIteratorGetUTF8Text(handle, level)) else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            let pageIterator = TessResultIteratorGetPageIteratorConst(handle)
            guard TessPageIteratorBoundingBox(pageIterator, level, &l, &t, &r, &b) != 0 else { continue }
            let confidence = Double(TessResultIteratorConfidence(handle, level))
            words.append(RecognizedWord(
                text: trimmed, confidence: confidence,
                box: WordBox(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t))))
        } while TessResultIteratorNext(handle, level) != 0
        return words
    }
}
