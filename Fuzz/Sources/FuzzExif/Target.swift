import Foundation
import FuzzSupport
import ImageInput

// A JPEG's metadata segments and EXIF block: every offset in them comes from the file.
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(FuzzInput(data, size).data)
    _ = ExifOrientation.read(jpeg: bytes)
    // With a JPEG start in front, so that the segment walk always begins.
    _ = ExifOrientation.read(jpeg: Data([0xFF, 0xD8, 0xFF, 0xE1]) + bytes)
    return 0
}

@_cdecl("FuzzExif_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
