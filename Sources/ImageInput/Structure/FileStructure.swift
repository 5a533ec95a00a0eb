import Foundation

/// What a file's own structure says about it, read before any pixel is decoded: how many
/// pages can be read whole, and what is missing or does not belong. Decoders read what they
/// can and say nothing of the rest (a TIFF whose page chain runs past the end of the file
/// reads as a shorter file), so scantext checks for itself.
///
/// Every offset and length is checked against the data, so a broken or hostile file yields a
/// report, never a crash.
struct FileStructure: Equatable {
    /// Pages that lie whole in the file; nil when the format does not count them here.
    var pages: Int?
    /// What is wrong, as the problem of an `InputError`; nil when nothing is.
    var damage: String?
    /// The file is whole, but holds more images than scantext reads (frames of an animation).
    var unreadFrames = false
    /// For a GIF cut after its first image: the bytes up to that image's end, which decode
    /// whole once a trailer is put after them (giflib refuses the cut file entirely).
    var firstImageEnd: Int?
    /// Each page's size (width, height) as a TIFF's directories give it, to refuse a huge page
    /// before decoding it; empty for other formats.
    var pageSizes: [(width: Int, height: Int)] = []

    static func == (a: FileStructure, b: FileStructure) -> Bool {
        a.pages == b.pages && a.damage == b.damage && a.unreadFrames == b.unreadFrames && a.firstImageEnd == b.firstImageEnd
            && a.pageSizes.map { [$0.width, $0.height] } == b.pageSizes.map { [$0.width, $0.height] }
    }

    static let sound = FileStructure(pages: nil, damage: nil)

    static func check(_ data: Data, format: ImageSource.ImageFormat) -> FileStructure {
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            switch format {
            case .tiff: return TIFFStructure.check(b)
            case .gif: return GIFStructure.check(b)
            case .png: return PNGStructure.check(b)
            case .webp: return WebPStructure.check(b)
            case .pnm: return PNMStructure.check(b)
            case .jpeg, .bmp, .jp2, .pdf: return .sound
            }
        }
    }
}

/// Bounds-checked little- and big-endian reads.
struct ByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var littleEndian = true

    var count: Int { bytes.count }

    func u8(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }

    func uint(_ at: Int, width: Int) -> Int? {
        guard at >= 0, width <= 8, at <= bytes.count - width else { return nil }
        var value: UInt64 = 0
        for i in 0..<width {
            let byte = UInt64(bytes[at + (littleEndian ? width - 1 - i : i)])
            value = value << 8 | byte
        }
        return value > UInt64(Int.max) ? nil : Int(value)
    }

    func u16(_ at: Int) -> Int? { uint(at, width: 2) }
    func u32(_ at: Int) -> Int? { uint(at, width: 4) }

    func matches(_ at: Int, _ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard at >= 0, at <= bytes.count - expected.count else { return false }
        return expected.indices.allSatisfy { bytes[at + $0] == expected[$0] }
    }
}

