#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ImageInput
import Synchronization
import SystemPackage

/// Writes to a file descriptor with plain `write(2)` (swift-system retries short writes and
/// `EINTR`).
/// Reports a closed pipe (`EPIPE`) instead of dying of `SIGPIPE`, so `scantext … | head` ends
/// quietly.
public final class DescriptorWriter: Sendable {
    public let descriptor: Int32
    private let broken = Atomic<Bool>(false)

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public static let standardOutput = DescriptorWriter(descriptor: 1)
    /// stderr for scantext's own lines: a copy of fd 2 taken at start, which keeps reaching the
    /// user while codec chatter on fd 2 is silenced.
    public static let standardError = DescriptorWriter(descriptor: CodecOutput.diagnosticDescriptor)

    /// True once a write failed (for stdout: the reader went away).
    public var isBroken: Bool { broken.load(ordering: .relaxed) }

    @discardableResult
    public func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return write(bytes: &bytes)
    }

    @discardableResult
    public func write(bytes: inout [UInt8]) -> Bool {
        guard !isBroken else { return false }
        do {
            _ = try FileDescriptor(rawValue: descriptor).writeAll(bytes)
            return true
        } catch {
            broken.store(true, ordering: .relaxed)
            return false
        }
    }

    public var isTerminal: Bool { isatty(descriptor) != 0 }
}

/// Diagnostics on stderr: one line each, prefixed with the program name. When a live progress
/// line is on screen, a message first erases it (in the same write), and the next tick redraws it.
public enum Diagnostics {
    private static let liveLineShown = Atomic<Bool>(false)
    /// `--quiet`: notes are dropped; errors still print.
    private static let quiet = Atomic<Bool>(false)

    public static func setQuiet(_ value: Bool) { quiet.store(value, ordering: .relaxed) }

    public static func error(_ message: String) {
        emit("scantext: \(message)\n")
    }

    public static func note(_ message: String) {
        guard !quiet.load(ordering: .relaxed) else { return }
        emit("scantext: \(message)\n")
    }

    private static func emit(_ line: String) {
        let erase = liveLineShown.exchange(false, ordering: .relaxed) ? "\r\u{1B}[K" : ""
        DescriptorWriter.standardError.write(erase + line)
    }

    /// Draws `line` in place of the previous live line (no newline).
    public static func showLiveLine(_ line: String) {
        liveLineShown.store(true, ordering: .relaxed)
        DescriptorWriter.standardError.write("\r\u{1B}[K" + line)
    }

    public static func clearLiveLine() {
        if liveLineShown.exchange(false, ordering: .relaxed) {
            DescriptorWriter.standardError.write("\r\u{1B}[K")
        }
    }

    /// Broken pipes must not kill the process; writes report them instead.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
        CodecOutput.silenceCodecWarnings()
    }
}
