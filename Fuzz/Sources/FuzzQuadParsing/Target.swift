import FuzzSupport
import ScanCore

// `--crop` corners as the user writes them: any text.
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput(data, size).data, as: UTF8.self)
    if let quad = try? Quad(parsing: text) {
        _ = quad.description
        _ = quad.intersectionOverUnion(Quad(width: 100, height: 100))
    }
    return 0
}

@_cdecl("FuzzQuadParsing_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
