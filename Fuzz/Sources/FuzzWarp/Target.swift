import FuzzSupport
import ScanCore

// The homography and the SIMD warp on arbitrary quads (NaN, infinities, huge, crossed) over
// images of arbitrary small sizes, grey and colour; and the page model's steps on top.
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let width = input.int(in: 1...96), height = input.int(in: 1...96)
    let format: PixelBuffer.Format = input.byte() & 1 == 0 ? .gray : .rgb
    // Coordinates: half the time small integers (real outlines), else any Double.
    let exact = input.byte() & 1 == 0
    let corners = (0..<4).map { _ in
        exact ? Point(Double(input.int(in: -50...150)), Double(input.int(in: -50...150))) : Point(input.double(), input.double())
    }
    guard let image = input.pixels(width: width, height: height, format: format) else { return 0 }
    let quad = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    if let result = try? PerspectiveCorrector().correct(image, quad: quad) {
        _ = try? result.homography.inverted()
    }
    var page = ScanPage(source: "fuzz", index: 0, image: image, resolution: nil)
    if (try? page.correctPerspective(quad, detected: false)) != nil {
        _ = page.mapToSource(Point(1, 1))
        try? page.applyFilter("illumination") { IlluminationCorrector().flatten(&$0) }
    }
    _ = try? Homography(mapping: corners, to: Quad(width: width, height: height).corners)
    return 0
}

@_cdecl("FuzzWarp_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
