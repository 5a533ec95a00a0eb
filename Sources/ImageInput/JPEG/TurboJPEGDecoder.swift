import CTurboJPEG
import Foundation
import ScanCore

/// Owns one TurboJPEG decompressor (libjpeg-turbo), released in `deinit`.
///
/// The fast path for a JPEG that recognition reads as grey, which is what a phone photo is:
/// libjpeg-turbo decodes the luma plane straight into the `PixelBuffer`, where Leptonica's
/// reader runs the same libjpeg and then copies every pixel twice more. The bytes are the same
/// (a test checks). The fast integer IDCT is not used: its rounding changes pixels, and so
/// page outlines, for almost no time saved.
///
/// It declines (nil) whatever it is not sure of: an unreadable header, a colour space it cannot
/// turn into grey (CMYK), or any libjpeg warning, such as a truncated file. The caller then
/// decodes through Leptonica, which reports the problem as before.
final class TurboJPEGDecoder {
    private let handle: tjhandle

    init?() {
        guard let handle = tjInitDecompress() else { return nil }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// The image's size from its header, and whether it holds colour (any colour space but grey).
    func header(of jpeg: UnsafeRawBufferPointer) -> (width: Int, height: Int, colour: Bool)? {
        guard let base = jpeg.bindMemory(to: UInt8.self).baseAddress else { return nil }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, base, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0,
              width > 0, height > 0
        else { return nil }
        return (Int(width), Int(height), colorspace != Int32(TJCS_GRAY.rawValue))
    }

    /// The luma plane, decoded into a grey buffer of `width`×`height`.
    func luminance(of jpeg: UnsafeRawBufferPointer, width: Int, height: Int) -> PixelBuffer? {
        guard let base = jpeg.bindMemory(to: UInt8.self).baseAddress else { return nil }
        var status: Int32 = -1
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
            status = tjDecompress2(
                handle, base, UInt(jpeg.count), out.baseAddress, Int32(width), Int32(width), Int32(height),
                Int32(TJPF_GRAY.rawValue), TJFLAG_STOPONWARNING)
            // On failure the buffer may be partly written; it is dropped, but must count as set.
            count = width * height
        }
        guard status == 0 else { return nil }
        return try? PixelBuffer(width: width, height: height, format: .gray, pixels: pixels)
    }

    /// The resolution a JFIF header records, in pixels per inch (what Leptonica reads from the
    /// same header); nil when there is none.
    static func jfifResolution(_ b: UnsafeRawBufferPointer) -> Int? {
        let jfif: [UInt8] = [0x4A, 0x46, 0x49, 0x46, 0]  // "JFIF\0"
        guard let body = JPEGSegments.first(0xE0, in: b, where: { $0.count >= 12 && JPEGSegments.starts(b, $0, with: jfif) })
        else { return nil }
        // Version (2 bytes), units, then the horizontal density.
        let units = b[body.lowerBound + 7]
        let density = Int(b[body.lowerBound + 8]) << 8 | Int(b[body.lowerBound + 9])
        switch units {
        case 1: return density
        case 2: return Int((Double(density) * 2.54).rounded())
        default: return nil
        }
    }
}
