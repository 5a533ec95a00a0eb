import Foundation
import FuzzSupport
import ImageInput

// Image bytes in: format sniffing, the structure checks, the size limits, and decoding of every
// page through Leptonica and libjpeg-turbo, grey and colour. The pixel limit is lower than the
// default so that a page the fuzzer makes stays within the fuzzer's memory limit.
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(FuzzInput(data, size).data)
    let limits = DecodeLimits(maxPixels: 16_000_000, maxFileBytes: 1 << 24, maxPages: 8)
    guard let source = try? ImageSource(name: "fuzz", data: bytes, limits: limits) else { return 0 }
    for page in 0..<min(source.pageCount, 4) {
        _ = try? source.page(page, limits: limits, luminanceOnly: true)
        _ = try? source.page(page, limits: limits, luminanceOnly: false)
    }
    return 0
}

@_cdecl("FuzzImageDecoding_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
