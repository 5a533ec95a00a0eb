import Foundation
import ScanCore

/// Encodes pages as PNG through Leptonica.
public enum PNGEncoder {
    /// PNG bytes, or nil when Leptonica could not encode.
    public static func encode(_ image: PixelBuffer) -> Data? {
        _ = Leptonica.configured
        return LeptonicaImage.from(image)?.pngData()
    }
}

/// Encodes pages as baseline JPEG through Leptonica.
public enum JPEGEncoder {
    /// JPEG bytes at `quality` (1–100), or nil when Leptonica could not encode.
    public static func encode(_ image: PixelBuffer, quality: Int = 90) -> Data? {
        _ = Leptonica.configured
        return LeptonicaImage.from(image)?.jpegData(quality: quality)
    }
}
