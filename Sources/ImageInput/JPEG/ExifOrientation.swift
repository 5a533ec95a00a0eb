import Foundation

/// The EXIF orientation a JPEG records: how to turn the stored pixels to show them upright.
/// Phones store the sensor's pixels and set this tag instead of rotating them, so a portrait
/// photo of a page is stored sideways; Leptonica decodes the stored pixels and ignores the tag.
///
/// Only the one tag is read (IFD0, 0x0112), with every offset checked against the data, so a
/// broken or hostile EXIF block yields `.upright` rather than a crash.
public enum ExifOrientation: Int, Sendable {
    case upright = 1
    case mirrored = 2
    case rotated180 = 3
    case flipped = 4
    case transposed = 5
    case rotated90 = 6  // turn 90° clockwise to show
    case transverse = 7
    case rotated270 = 8  // turn 90° counter-clockwise to show

    /// The orientation in a JPEG's first EXIF block, or `.upright` when there is none.
    public static func read(jpeg bytes: Data) -> ExifOrientation {
        bytes.withUnsafeBytes { raw in read(jpeg: raw) }
    }

    static func read(jpeg b: UnsafeRawBufferPointer) -> ExifOrientation {
        let exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard let body = JPEGSegments.first(0xE1, in: b, where: { $0.count >= 14 && JPEGSegments.starts(b, $0, with: exif) })
        else { return .upright }
        return tiffOrientation(b, start: body.lowerBound + 6, end: body.upperBound) ?? .upright
    }

    /// Reads tag 0x0112 from IFD0 of the TIFF structure in `b[start..<end]`.
    private static func tiffOrientation(_ b: UnsafeRawBufferPointer, start: Int, end: Int) -> ExifOrientation? {
        guard end - start >= 8 else { return nil }
        let little: Bool
        switch (b[start], b[start + 1]) {
        case (0x49, 0x49): little = true  // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= start, at + 2 <= end else { return nil }
            return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
            return hi << 16 | lo
        }
        guard u16(start + 2) == 42, let ifd = u32(start + 4), let count = u16(start + ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = start + ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            // SHORT (type 3), one value, held in the first two bytes of the value field.
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8) {
                return ExifOrientation(rawValue: value)
            }
        }
        return nil
    }
}
