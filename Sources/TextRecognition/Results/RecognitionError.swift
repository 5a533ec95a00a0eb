import Foundation
import ImageInput
import PagePreparation

/// The one error type of TextRecognition, which every page result carries: a struct holding a
/// code, so new cases never break callers. Input and preparation errors become one of these,
/// with the same code name, where the pipeline meets them. `errorDescription` is the complete
/// line a user sees: it names the input, says what is wrong and says what to do.
public struct RecognitionError: Error, LocalizedError, Sendable, Equatable {
    /// One vocabulary of codes for every page error: the input's (`.notFound`, `.corrupt`, …),
    /// and the ones recognition adds below.
    public typealias Code = InputError.Code

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
        self.init(error.code, source: error.source, error.problem, remedy: error.remedy)
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

extension RecognitionError.Code {
    public static let missingLanguage = Self(name: "missing-language")
    public static let engineFailed = Self(name: "engine-failed")
    public static let timedOut = Self(name: "timed-out")
    public static let cancelled = Self(name: "cancelled")
    /// A preparation error (`PreparationError.Code.geometry`).
    public static let geometry = Self(name: "geometry")
}
