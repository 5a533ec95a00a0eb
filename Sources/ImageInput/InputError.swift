import Foundation

/// The one error type of ImageInput: a struct holding a code, so new cases never break callers.
/// `errorDescription` is the complete line a user sees: it names the input, says what is wrong
/// and says what to do.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Other modules add codes of their own to this vocabulary (see `RecognitionError`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(name: String) { self.name = name }
        public static let notFound = Code(name: "not-found")
        public static let unreadable = Code(name: "unreadable")
        public static let isDirectory = Code(name: "is-directory")
        public static let empty = Code(name: "empty")
        public static let notAnImage = Code(name: "not-an-image")
        public static let unsupportedFormat = Code(name: "unsupported-format")
        public static let corrupt = Code(name: "corrupt")
        public static let tooLarge = Code(name: "too-large")
        public static let encrypted = Code(name: "encrypted")
        public var description: String { name }
    }

    public let code: Code
    /// The input the error is about: a path as given, or `-` for standard input.
    public let source: String
    /// What went wrong.
    public let problem: String
    /// What to do about it.
    public let remedy: String

    public init(_ code: Code, source: String, _ problem: String, remedy: String) {
        self.code = code
        self.source = source
        self.problem = problem
        self.remedy = remedy
    }

    /// The same error about another name (a page of a multi-page file).
    public func about(_ source: String) -> InputError {
        InputError(code, source: source, problem, remedy: remedy)
    }

    /// `SOURCE: PROBLEM; REMEDY` on one line.
    public var message: String {
        let line = remedy.isEmpty ? problem : "\(problem); \(remedy)"
        return "\(source == "-" ? "<stdin>" : source): \(line)".replacingOccurrences(of: "\n", with: " ")
    }

    public var description: String { message }
}
