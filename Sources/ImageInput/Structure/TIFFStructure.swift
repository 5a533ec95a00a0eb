/// Walks a TIFF's chain of image directories (classic and BigTIFF) and checks that each
/// directory and each page's strips or tiles lie inside the file.
enum TIFFStructure {
    static let imageWidth = 256, imageLength = 257
    static let stripOffsets = 273, stripByteCounts = 279, tileOffsets = 324, tileByteCounts = 325
    /// More directories than any scan has; a chain this long is taken for a loop or a bomb.
    static let maximumPages = 100_000

    static func check(_ b: UnsafeBufferPointer<UInt8>) -> FileStructure {
        var r = ByteReader(bytes: b)
        guard r.count >= 8 else { return FileStructure(pages: 0, damage: "is truncated inside its TIFF header") }
        switch (b[0], b[1]) {
        case (0x49, 0x49): r.littleEndian = true
        case (0x4D, 0x4D): r.littleEndian = false
        default: return .sound
        }
        let big = r.u16(2) == 43
        let offsetWidth = big ? 8 : 4
        guard let first = big ? r.uint(8, width: 8) : r.u32(4) else {
            return FileStructure(pages: 0, damage: "is truncated inside its TIFF header")
        }
        var next = first, pages = 0
        var seen: Set<Int> = []
        var sizes: [(width: Int, height: Int)] = []
        func report(_ damage: String?) -> FileStructure { FileStructure(pages: pages, damage: damage, pageSizes: sizes) }
        while next != 0 {
            let page = pages + 1
            guard seen.insert(next).inserted, pages < maximumPages else {
                return report("has a page chain that loops back on itself after page \(pages)")
            }
            guard let entries = big ? r.uint(next, width: 8) : r.u16(next) else { return report(cut(page)) }
            let entrySize = big ? 20 : 12
            let start = next + (big ? 8 : 2)
            let (end, overflow) = entries.multipliedReportingOverflow(by: entrySize)
            guard !overflow, start + end + offsetWidth <= r.count else { return report(cut(page)) }
            var offsets: [Int] = [], counts: [Int] = []
            var size = (width: 0, height: 0)
            for e in 0..<entries {
                let at = start + e * entrySize
                guard let tag = r.u16(at) else { continue }
                if tag == imageWidth || tag == imageLength, case .values(let v) = array(r, entry: at, big: big), let value = v.first {
                    if tag == imageWidth { size.width = value } else { size.height = value }
                }
                guard tag == stripOffsets || tag == stripByteCounts || tag == tileOffsets || tag == tileByteCounts else { continue }
                switch array(r, entry: at, big: big) {
                case .values(let values):
                    if tag == stripOffsets || tag == tileOffsets { offsets = values } else { counts = values }
                case .outside:
                    return report("is truncated inside page \(page): its strip table runs past the end of the file")
                case .unsupported:
                    continue
                }
            }
            for (offset, length) in zip(offsets, counts) where offset > r.count - min(length, r.count) || length > r.count {
                return report("is truncated inside page \(page): its image data runs past the end of the file")
            }
            pages = page
            sizes.append(size)
            guard let following = r.uint(start + end, width: offsetWidth) else { return report(cut(page + 1)) }
            next = following
        }
        return report(nil)
    }

    private static func cut(_ page: Int) -> String {
        "is truncated: its page chain points past the end of the file at page \(page)"
    }

    enum Values {
        case values([Int])
        /// The array lies (partly) past the end of the file.
        case outside
        /// Not an integer type this check reads.
        case unsupported
    }

    /// The values of a SHORT, LONG or LONG8 entry, inline or at their offset.
    private static func array(_ r: ByteReader, entry at: Int, big: Bool) -> Values {
        guard let type = r.u16(at + 2), let count = big ? r.uint(at + 4, width: 8) : r.u32(at + 4) else { return .outside }
        let width: Int
        switch type {
        case 3: width = 2
        case 4, 13: width = 4
        case 16, 18: width = 8
        default: return .unsupported
        }
        let inline = big ? 8 : 4
        let (size, overflow) = count.multipliedReportingOverflow(by: width)
        guard !overflow, size <= r.count else { return .outside }
        let valueAt = big ? at + 12 : at + 8
        let base = size <= inline ? valueAt : (big ? r.uint(valueAt, width: 8) : r.u32(valueAt))
        guard let base, base <= r.count - size else { return .outside }
        return .values((0..<count).compactMap { r.uint(base + $0 * width, width: width) })
    }
}
