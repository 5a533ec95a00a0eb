#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where a batch run's outputs go: `OUT/<relative path without extension>.<format extension>`.
public struct OutputLayout: Sendable {
    public let directory: String
    public let fileExtension: String

    public init(directory: String, fileExtension: String) {
        self.directory = directory
        self.fileExtension = fileExtension
    }

    public func destination(for input: BatchInput) -> String {
        (directory as NSString).appendingPathComponent(input.outputStem + "." + fileExtension)
    }

    /// True when the output exists and is at least as new as the input (`--skip-existing`).
    public func isUpToDate(_ input: BatchInput) -> Bool {
        var s = stat()
        guard stat(destination(for: input), &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return false }
        guard let inputTime = input.modified else { return false }
        return InputWalker.modified(s) >= inputTime
    }
}
