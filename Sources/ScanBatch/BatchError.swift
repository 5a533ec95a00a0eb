/// The one error type of ScanBatch: an output that cannot be created or written. Its
/// description is the one line the user sees: it names the file and says what to do.
public struct BatchError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
