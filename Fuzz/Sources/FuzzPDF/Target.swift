import Foundation
import FuzzSupport
import ImageInput

// PDF bytes in: Poppler's parser (cross-reference tables, object streams, broken and looping
// structures), the encryption and page checks, and rendering of the first pages at a low
// resolution so that a page the fuzzer makes stays within its memory limit; qpdf's reading of
// the same bytes (an image's size, a page's /Rotate).
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Data(FuzzInput(data, size).data)
    let limits = DecodeLimits(maxPixels: 4_000_000, maxFileBytes: 1 << 24, maxPages: 16)
    guard let source = try? ImageSource(name: "fuzz.pdf", data: bytes, limits: limits, pdfResolution: 36) else { return 0 }
    for page in 0..<min(source.pageCount, 3) {
        _ = try? source.page(page, limits: limits, luminanceOnly: true)
        _ = source.takesTextLayer(page: page)
    }
    return 0
}

@_cdecl("FuzzPDF_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
