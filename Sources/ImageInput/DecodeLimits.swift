/// Limits that keep one bad file from taking the machine down.
public struct DecodeLimits: Sendable, Equatable {
    /// Largest image accepted, in pixels (width × height). Decompression bombs are refused
    /// before any pixel memory is allocated.
    public var maxPixels: Int
    /// Largest file accepted, in bytes.
    public var maxFileBytes: Int

    public static let `default` = DecodeLimits(maxPixels: 250_000_000, maxFileBytes: 2 << 30)

    public init(maxPixels: Int, maxFileBytes: Int) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }
}
