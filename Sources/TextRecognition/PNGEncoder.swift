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
