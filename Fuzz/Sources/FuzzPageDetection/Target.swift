import FuzzSupport
import ScanCore

// Page detection on arbitrary pixels: sizes from tiny to a working copy and more, grey and colour.
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let width = input.int(in: 1...640), height = input.int(in: 1...640)
    let format: PixelBuffer.Format = input.byte() & 1 == 0 ? .gray : .rgb
    guard let image = input.pixels(width: width, height: height, format: format) else { return 0 }
    if let found = PageDetector().detect(in: image) {
        _ = try? PerspectiveCorrector().correct(image, quad: found.quad)
    }
    return 0
}

@_cdecl("FuzzPageDetection_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
