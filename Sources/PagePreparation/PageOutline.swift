import ScanCore

/// Where the page lies in an image, found or given, before any pixel moves.
public struct PageOutline: Sendable {
    /// The outline in the image's pixels (TL, TR, BR, BL), or nil to take the image as it is.
    public var quad: Quad?
    /// True when `quad` came from page detection, false when the caller gave it.
    public var detected: Bool
    /// The detector's confidence (0–1) when detection ran, else nil.
    public var confidence: Double?
    /// The grey page detection read, kept so that the warp need not make it again.
    var grey: PixelBuffer?
}
