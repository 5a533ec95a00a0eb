import Foundation

/// A JPEG with an EXIF block holding an orientation tag (after another tag, so a parser has to
/// walk the IFD), inserted after SOI.
public enum ExifFixture {
    public static func tagged(_ jpeg: Data, orientation: UInt16, bigEndian: Bool = false) -> Data {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)
        // IFD0: one entry (another tag first, so the parser has to walk), then no next IFD.
        tiff += u16(2)
        tiff += u16(0x010F) + u16(2) + u32(4) + [0x41, 0x43, 0x4D, 0]  // Make = "ACM"
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = UInt16(body.count + 2)
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 255)] + body
        return Data(jpeg.prefix(2)) + Data(segment) + Data(jpeg.dropFirst(2))
    }
}
