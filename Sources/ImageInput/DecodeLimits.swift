/// Limits that keep one bad file from taking the machine down.
public struct DecodeLimits: Sendable, Equatable {
    /// Largest image accepted, in pixels (width × height). Decompression bombs are refused
    /// before any pixel memory is allocated.
    public var maxPixels: Int
    /// Largest file accepted, in bytes.
    public var maxFileBytes: Int
    /// Most pages one input may have: a small file can hold many thousand tiny pages.
    public var maxPages: Int

    public static let `default` = DecodeLimits(maxPixels: 250_000_000, maxFileBytes: 2 << 30)

    public init(maxPixels: Int, maxFileBytes: Int, maxPages: Int = 10_000) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.maxPages = maxPages
    }
}
