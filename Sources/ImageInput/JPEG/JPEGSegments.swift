/// The metadata segments at the head of a JPEG (APPn and the like), walked with every length
/// checked against the data, so a broken or hostile file yields nothing rather than a crash.
enum JPEGSegments {
    /// The body (the bytes after marker and length) of the first segment with `marker` whose
    /// body `matches`, before the image data starts; nil when there is none.
    static func first(_ marker: UInt8, in b: UnsafeRawBufferPointer, where matches: (Range<Int>) -> Bool) -> Range<Int>? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let found = b[i + 1]
            if found == 0xFF { i += 1; continue }  // fill byte
            // Start of scan or end of image: no more metadata segments.
            if found == 0xDA || found == 0xD9 { return nil }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let body = (i + 4)..<(i + 2 + length)
            if found == marker, matches(body) { return body }
            i = body.upperBound
        }
        return nil
    }

    /// Whether `b[range]` starts with `prefix`.
    static func starts(_ b: UnsafeRawBufferPointer, _ range: Range<Int>, with prefix: [UInt8]) -> Bool {
        range.count >= prefix.count && prefix.indices.allSatisfy { b[range.lowerBound + $0] == prefix[$0] }
    }
}
