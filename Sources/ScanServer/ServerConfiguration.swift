import Foundation
import TextRecognition

/// How `scantext serve` runs: where it listens, how much it takes on, and the recognition
/// defaults a request's query can override.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 asks the system for a free port (the one chosen is reported when listening).
    public var port = 8080
    /// Tesseract engines, started at launch and shared by every request: pages in Tesseract
    /// at once.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Requests admitted beyond `jobs` to wait for an engine; more get 503.
    public var queue = 32
    public var maxUploadBytes = 100 << 20
    /// The bearer token every route but the health checks requires, when set.
    public var token: String?
    /// How long a shutdown waits for requests in flight.
    public var gracePeriod: Duration = .seconds(30)
    /// Defaults for every request: languages, page segmentation, crop, page timeout, limits.
    public var recognition = RecognitionOptions()

    public init() {}

    /// Requests admitted at once: those running and those waiting.
    var admitted: Int { jobs + queue }
}
