/// Walks a GIF's blocks: counts its images and checks that it reaches its trailer.
enum GIFStructure {
    static func check(_ b: UnsafeBufferPointer<UInt8>) -> FileStructure {
        let r = ByteReader(bytes: b)
        guard let packed = r.u8(10) else { return FileStructure(pages: 0, damage: "is truncated inside its GIF header") }
        var at = 13 + (packed & 0x80 != 0 ? 3 << ((packed & 7) + 1) : 0)
        var images = 0
        var firstImageEnd: Int?
        while true {
            guard let block = r.u8(at) else { return cut(images, firstImageEnd: firstImageEnd) }
            switch block {
            case 0x3B:  // trailer
                return images > 1
                    ? FileStructure(pages: 1, damage: "holds \(images) images, and scantext reads only the first", unreadFrames: true)
                    : FileStructure(pages: images, damage: nil)
            case 0x2C:  // image descriptor, local colour table, LZW code size, data sub-blocks
                guard let local = r.u8(at + 9) else { return cut(images, firstImageEnd: firstImageEnd) }
                at += 10 + (local & 0x80 != 0 ? 3 << ((local & 7) + 1) : 0) + 1
                guard let end = subBlocks(r, from: at) else { return cut(images, firstImageEnd: firstImageEnd) }
                at = end
                images += 1
                if images == 1 { firstImageEnd = end }
            case 0x21:  // extension: label, data sub-blocks
                guard let end = subBlocks(r, from: at + 2) else { return cut(images, firstImageEnd: firstImageEnd) }
                at = end
            default:
                return FileStructure(pages: min(images, 1), damage: "is corrupt: an unknown block follows image \(images)")
            }
        }
    }

    /// The offset after a chain of sub-blocks ending in an empty one; nil past the end.
    private static func subBlocks(_ r: ByteReader, from start: Int) -> Int? {
        var at = start
        while let length = r.u8(at) {
            at += 1 + length
            if length == 0 { return at }
        }
        return nil
    }

    private static func cut(_ images: Int, firstImageEnd: Int?) -> FileStructure {
        FileStructure(
            pages: min(images, 1),
            damage: images == 0 ? "is truncated inside its first image" : "is truncated: the file ends inside image \(images + 1)",
            firstImageEnd: firstImageEnd)
    }
}
