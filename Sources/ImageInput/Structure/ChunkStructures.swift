/// Walks a PNG's chunks: checks that it reaches IEND with nothing after it, and finds an
/// animated PNG's frame count.
enum PNGStructure {
    static func check(_ b: UnsafeBufferPointer<UInt8>) -> FileStructure {
        var r = ByteReader(bytes: b)
        r.littleEndian = false
        var at = 8
        var frames = 1
        while at < r.count {
            guard let length = r.u32(at), r.count - at >= 12, length <= r.count - at - 12 else {
                return FileStructure(pages: 0, damage: "is truncated: the file ends inside a chunk, before its IEND chunk")
            }
            if r.matches(at + 4, "acTL"), let count = r.u32(at + 8) { frames = max(1, count) }
            at += 12 + length
            if r.matches(at - length - 8, "IEND") {
                if at < r.count {
                    return FileStructure(pages: 1, damage: "has \(r.count - at) bytes after its end (the IEND chunk) that belong to no image")
                }
                return frames > 1
                    ? FileStructure(pages: 1, damage: "is an animated PNG of \(frames) frames, and scantext reads only the first", unreadFrames: true)
                    : .sound
            }
        }
        return FileStructure(pages: 0, damage: "is truncated: the file ends before its IEND chunk")
    }
}

/// Checks a WebP's RIFF size against the file, and finds animations.
enum WebPStructure {
    static func check(_ b: UnsafeBufferPointer<UInt8>) -> FileStructure {
        let r = ByteReader(bytes: b)
        guard r.matches(0, "RIFF"), r.matches(8, "WEBP"), let size = r.u32(4) else { return .sound }
        if size + 8 > r.count {
            return FileStructure(pages: 0, damage: "is truncated: its header says \(size + 8) bytes, the file has \(r.count)")
        }
        var at = 12
        while at + 8 <= size + 8, let length = r.u32(at + 4) {
            if r.matches(at, "ANIM") {
                return FileStructure(pages: 1, damage: "is an animated WebP, and scantext reads only its first frame", unreadFrames: true)
            }
            at += 8 + length + (length & 1)
        }
        return .sound
    }
}

/// Binary PNM (P4, P5, P6): the image's data must fill the file, or another image follows.
enum PNMStructure {
    static func check(_ b: UnsafeBufferPointer<UInt8>) -> FileStructure {
        guard b.count >= 2, b[0] == UInt8(ascii: "P"), let kind = Int(String(UnicodeScalar(b[1]))), (4...6).contains(kind) else {
            return .sound
        }
        // Header: magic, width, height and (not for P4) the maximum value, separated by
        // whitespace and comments, then one whitespace byte.
        var at = 2, fields: [Int] = []
        while fields.count < (kind == 4 ? 2 : 3) {
            while at < b.count, b[at] == UInt8(ascii: "#") || isSpace(b[at]) {
                if b[at] == UInt8(ascii: "#") { while at < b.count, b[at] != 10 { at += 1 } } else { at += 1 }
            }
            var value = 0, digits = 0
            while at < b.count, (48...57).contains(b[at]), digits < 10 {
                value = value * 10 + Int(b[at] - 48)
                at += 1
                digits += 1
            }
            guard digits > 0 else { return .sound }
            fields.append(value)
        }
        at += 1
        let (width, height) = (fields[0], fields[1])
        let sample = kind == 4 ? 0 : (fields[2] > 255 ? 2 : 1)
        let row = kind == 4 ? (width + 7) / 8 : width * sample * (kind == 6 ? 3 : 1)
        let (data, overflow) = row.multipliedReportingOverflow(by: height)
        guard !overflow else { return .sound }
        if at + data > b.count {
            return FileStructure(pages: 0, damage: "is truncated: its pixels need \(data) bytes, the file holds \(max(0, b.count - at))")
        }
        let rest = b[(at + data)...]
        if rest.contains(where: { !isSpace($0) }) {
            return rest.first == UInt8(ascii: "P")
            ? FileStructure(pages: 1, damage: "holds more than one image, and scantext reads only the first", unreadFrames: true)
            : FileStructure(pages: 1, damage: "has \(rest.count) bytes after its image that belong to no image")
        }
        return .sound
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 32 || (9...13).contains(c) }
}
