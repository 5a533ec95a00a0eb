/// The one error type of PagePreparation: a struct holding a code, so new cases never break
/// callers. It does not name the page; the pipeline that prepares it does.
public struct PreparationError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(name: String) { self.name = name }
        /// The outline cannot be rectified, or a correction could not be applied.
        public static let geometry = Code(name: "geometry")
        public var description: String { name }
    }

    public let code: Code
    public let problem: String
    public let remedy: String

    public init(_ code: Code, _ problem: String, remedy: String) {
        self.code = code
        self.problem = problem
        self.remedy = remedy
    }

    public var description: String { remedy.isEmpty ? problem : "\(problem); \(remedy)" }
}
