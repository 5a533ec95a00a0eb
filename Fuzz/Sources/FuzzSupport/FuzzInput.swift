import CLibFuzzer
import ScanCore

/// Runs libFuzzer over `target`, with the program's arguments (corpus folders, -max_total_time…).
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, target)
}

/// Reads typed values off the front of a fuzzer's input, so one byte string drives sizes,
/// coordinates and pixels. Past the end it gives zeros.
public struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    public var remaining: Int { max(0, bytes.count - at) }

    public mutating func byte() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }

    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let raw = Int(byte()) << 8 | Int(byte())
        return range.lowerBound + raw % (range.count)
    }

    /// Any Double, NaN and infinities included.
    public mutating func double() -> Double {
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    /// The rest of the input as pixels of a `width`×`height` image of `format`, repeated to fill it.
    public mutating func pixels(width: Int, height: Int, format: PixelBuffer.Format) -> PixelBuffer? {
        let count = width * height * format.channels
        let rest = Array(bytes[min(at, bytes.count)...])
        let pixels = rest.isEmpty ? [UInt8](repeating: 128, count: count) : (0..<count).map { rest[$0 % rest.count] }
        return try? PixelBuffer(width: width, height: height, format: format, pixels: pixels)
    }

    public var data: [UInt8] { Array(bytes) }
}
