/// The one error type of ScanCore, in the style of swift-subprocess's `SubprocessError`: a
/// struct holding a code, so new cases never break callers that switch on the code.
public struct ScanCoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public static let invalidImage = Code(name: "invalid image")
        public static let degenerateQuad = Code(name: "degenerate quad")
        public static let singularMatrix = Code(name: "singular matrix")
        public static let invalidQuad = Code(name: "invalid quad")
        public static let outputTooLarge = Code(name: "output too large")
        public var description: String { name }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
