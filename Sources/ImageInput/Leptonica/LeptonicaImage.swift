import CTesseract
import Foundation
import ScanCore

/// The owner of one Leptonica `PIX`, destroyed in `deinit`. Package-wide, so that page
/// preparation's text analysis holds its images the same way.
package final class LeptonicaImage {
    package private(set) var pix: UnsafeMutablePointer<PIX>

    /// Takes ownership of `pix`; nil when it is null.
    package init?(taking pix: UnsafeMutablePointer<PIX>?) {
        guard let pix else { return nil }
        self.pix = pix
    }

    deinit {
        var p: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&p)
    }

    package var width: Int { Int(pixGetWidth(pix)) }
    package var height: Int { Int(pixGetHeight(pix)) }
    var depth: Int { Int(pixGetDepth(pix)) }
    var resolution: Int { Int(pixGetXRes(pix)) }

    /// Replaces this owner's image by a converted one, destroying the old one. Returns false,
    /// keeping the old one, when Leptonica could not convert.
    private func replace(_ converted: UnsafeMutablePointer<PIX>?) -> Bool {
        guard let converted else { return false }
        var old: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&old)
        pix = converted
        return true
    }

    /// Copies the pixels into a ScanCore buffer: grey for grey, binary and palette-grey images;
    /// RGB for colour. Transparent pixels are composited onto white.
    func pixelBuffer() -> PixelBuffer? {
        if pixGetColormap(pix) != nil {
            guard replace(pixRemoveColormap(pix, Int32(REMOVE_CMAP_BASED_ON_SRC))) else { return nil }
        }
        switch depth {
        case 32:
            if pixGetSpp(pix) == 4 {
                guard replace(pixAlphaBlendUniform(pix, 0xFFFF_FF00)) else { return nil }
            }
            return copyRGB()
        case 8:
            return copyGray()
        case 1, 2, 4, 16:
            guard replace(pixConvertTo8(pix, 0)), depth == 8 else { return nil }
            return copyGray()
        case 24:
            guard replace(pixConvertTo32(pix)), depth == 32 else { return nil }
            return copyRGB()
        default:
            return nil
        }
    }

    private func copyGray() -> PixelBuffer? {
        let w = width, h = height, wpl = Int(pixGetWpl(pix))
        guard let data = pixGetData(pix) else { return nil }
        let bytes = [UInt8](unsafeUninitializedCapacity: w * h) { out, initialized in
            let raw = UnsafeRawPointer(data)
            let dst = UnsafeMutableRawPointer(out.baseAddress!)
            for y in 0..<h {
                let line = raw + y * wpl * 4
                let row = dst + y * w
                // Leptonica stores pixel x of each group of four in the word's most significant
                // byte, so on a little-endian machine each word's bytes are reversed. A plain
                // word loop, which the compiler vectorises.
                let words = line.assumingMemoryBound(to: UInt32.self)
                for i in 0..<(w / 4) { row.storeBytes(of: words[i].byteSwapped, toByteOffset: 4 * i, as: UInt32.self) }
                for x in (w & ~3)..<w {
                    row.storeBytes(of: line.load(fromByteOffset: x ^ 3, as: UInt8.self), toByteOffset: x, as: UInt8.self)
                }
            }
            initialized = w * h
        }
        return try? PixelBuffer(width: w, height: h, format: .gray, pixels: bytes)
    }

    private func copyRGB() -> PixelBuffer? {
        let w = width, h = height, wpl = Int(pixGetWpl(pix))
        guard let data = pixGetData(pix) else { return nil }
        let bytes = [UInt8](unsafeUninitializedCapacity: w * h * 3) { out, initialized in
            for y in 0..<h {
                let line = data + y * wpl
                for x in 0..<w {
                    let word = line[x]  // 0xRRGGBBAA
                    let o = (y * w + x) * 3
                    out[o] = UInt8(truncatingIfNeeded: word >> 24)
                    out[o + 1] = UInt8(truncatingIfNeeded: word >> 16)
                    out[o + 2] = UInt8(truncatingIfNeeded: word >> 8)
                }
            }
            initialized = w * h * 3
        }
        return try? PixelBuffer(width: w, height: h, format: .rgb, pixels: bytes)
    }

    /// A Leptonica copy of a ScanCore buffer (8 bpp grey or 32 bpp RGB), for encoding.
    package static func from(_ buffer: PixelBuffer) -> LeptonicaImage? {
        let depth: Int32 = buffer.format == .gray ? 8 : 32
        guard let image = LeptonicaImage(taking: pixCreate(Int32(buffer.width), Int32(buffer.height), depth)),
              let data = pixGetData(image.pix)
        else { return nil }
        let w = buffer.width, wpl = Int(pixGetWpl(image.pix))
        buffer.pixels.withUnsafeBufferPointer { src in
            for y in 0..<buffer.height {
                let line = data + y * wpl
                if buffer.format == .gray {
                    let raw = UnsafeMutableRawPointer(line)
                    for x in 0..<w { raw.storeBytes(of: src[y * w + x], toByteOffset: x ^ 3, as: UInt8.self) }
                } else {
                    for x in 0..<w {
                        let i = (y * w + x) * 3
                        line[x] = UInt32(src[i]) << 24 | UInt32(src[i + 1]) << 16 | UInt32(src[i + 2]) << 8 | 0xFF
                    }
                }
            }
        }
        return image
    }

    /// A 1 bpp image of a grey buffer: ink (1) where a pixel is darker than `threshold`, or,
    /// when `lightInk` (light text on a dark ground), where it is at least as light.
    package static func binary(from grey: PixelBuffer, threshold: UInt8, lightInk: Bool = false) -> LeptonicaImage? {
        guard grey.format == .gray,
              let image = LeptonicaImage(taking: pixCreate(Int32(grey.width), Int32(grey.height), 1)),
              let data = pixGetData(image.pix)
        else { return nil }
        let w = grey.width, wpl = Int(pixGetWpl(image.pix))
        grey.pixels.withUnsafeBufferPointer { src in
            for y in 0..<grey.height {
                let row = src.baseAddress! + y * w
                let line = data + y * wpl
                // Leptonica keeps the leftmost pixel of each 32 in the word's top bit.
                for word in 0..<(w + 31) / 32 {
                    var bits: UInt32 = 0
                    let start = word * 32
                    for x in start..<min(start + 32, w) where row[x] < threshold { bits |= 1 << UInt32(31 - (x - start)) }
                    line[word] = lightInk ? ~bits & (UInt32.max << UInt32(32 - min(32, w - start))) : bits
                }
            }
        }
        return image
    }

    /// JPEG bytes of the image.
    func jpegData(quality: Int) -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemJpeg(&bytes, &size, pix, Int32(min(max(quality, 1), 100)), 0) == 0, let bytes else { return nil }
        defer { lept_free(bytes) }
        return Data(bytes: bytes, count: size)
    }

    /// PNG bytes of the image.
    func pngData() -> Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemPng(&bytes, &size, pix, 0) == 0, let bytes else { return nil }
        defer { lept_free(bytes) }
        return Data(bytes: bytes, count: size)
    }
}

/// Process-wide Leptonica settings, applied once before the first decode.
package enum Leptonica {
    /// Leptonica prints its own diagnostics to stderr; scantext reports errors itself, once per
    /// input, so Leptonica is silenced.
    package static let configured: Bool = {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        return true
    }()
}
