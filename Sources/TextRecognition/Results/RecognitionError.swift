import Foundation
import ImageInput
import PagePreparation

/// The one error type of TextRecognition, which every page result carries: a struct holding a
/// code, so new cases never break callers. Input and preparation errors become one of these,
/// with the same code name, where the pipeline meets them. `errorDescription` is the complete
/// line a user sees: it names the input, says what is wrong and says what to do.
public struct RecognitionError: Error, LocalizedError, Sendable, Equatable {
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
        public static let missingLanguage = Code(name: "missing-language")
        public static let engineFailed = Code(name: "engine-failed")
        public static let timedOut = Code(name: "timed-out")
        public static let cancelled = Code(name: "cancelled")
        public static let geometry = Code(name: "geometry")
        public var description: String { name }
    }

    public let code: Code
    /// The input the error is about (a path as given, `-` for stdin), or nil for setup errors.
    public let source: String?
    /// What went wrong.
    public let problem: String
    /// What to do about it.
    public let remedy: String

    public init(_ code: Code, source: String?, _ problem: String, remedy: String) {
        self.code = code
        self.source = source
        self.problem = problem
        self.remedy = remedy
    }

    /// An input error, as a page result carries it.
    public init(_ error: InputError) {
        self.init(Code(name: error.code.name), source: error.source, error.problem, remedy: error.remedy)
    }

    /// A preparation error about the page named `source`.
    public init(_ error: PreparationError, source: String) {
        self.init(Code(name: error.code.name), source: source, error.problem, remedy: error.remedy)
    }

    /// The same error about another source (e.g. a page of a multi-page file).
    public func about(_ source: String) -> RecognitionError {
        RecognitionError(code, source: source, problem, remedy: remedy)
    }

    public var errorDescription: String? { message }

    /// `SOURCE: PROBLEM; REMEDY` on one line.
    public var message: String {
        let head = source.map { "\(Self.displayName($0)): " } ?? ""
        let line = remedy.isEmpty ? "\(head)\(problem)" : "\(head)\(problem); \(remedy)"
        return line.replacingOccurrences(of: "\n", with: " ")
    }

    static func displayName(_ source: String) -> String { source == "-" ? "<stdin>" : source }
}
