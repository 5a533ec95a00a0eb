#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import TextRecognition

/// Writes to a file descriptor with plain `write(2)`, retrying short writes and `EINTR`.
/// Reports a closed pipe (`EPIPE`) instead of dying of `SIGPIPE`, so `scantext … | head` ends
/// quietly.
final class DescriptorWriter: Sendable {
    let descriptor: Int32
    private let broken = Atomic<Bool>(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    static let standardOutput = DescriptorWriter(descriptor: 1)
    /// stderr for scantext's own lines: a copy of fd 2 taken at start, which keeps reaching the
    /// user while codec chatter on fd 2 is silenced.
    static let standardError = DescriptorWriter(descriptor: LibraryOutput.diagnosticDescriptor)

    /// True once a write failed (for stdout: the reader went away).
    var isBroken: Bool { broken.load(ordering: .relaxed) }

    @discardableResult
    func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return write(bytes: &bytes)
    }

    @discardableResult
    func write(bytes: inout [UInt8]) -> Bool {
        guard !isBroken else { return false }
        if writeAll(descriptor, bytes) != 0 {
            broken.store(true, ordering: .relaxed)
            return false
        }
        return true
    }

    var isTerminal: Bool { isatty(descriptor) != 0 }
}

/// Writes every byte to `descriptor`, retrying short writes and `EINTR`. Returns 0, or the
/// `errno` of the failure.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { raw in
            #if canImport(Glibc)
            Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            #else
            Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            #endif
        }
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += n
    }
    return 0
}

/// Diagnostics on stderr: one line each, prefixed with the program name. When a live progress
/// line is on screen, a message first erases it (in the same write), and the next tick redraws it.
enum Diagnostics {
    private static let liveLineShown = Atomic<Bool>(false)
    /// `--quiet`: notes are dropped; errors still print.
    private static let quiet = Atomic<Bool>(false)

    static func setQuiet(_ value: Bool) { quiet.store(value, ordering: .relaxed) }

    static func error(_ message: String) {
        emit("scantext: \(message)\n")
    }

    static func note(_ message: String) {
        guard !quiet.load(ordering: .relaxed) else { return }
        emit("scantext: \(message)\n")
    }

    private static func emit(_ line: String) {
        let erase = liveLineShown.exchange(false, ordering: .relaxed) ? "\r\u{1B}[K" : ""
        DescriptorWriter.standardError.write(erase + line)
    }

    /// Draws `line` in place of the previous live line (no newline).
    static func showLiveLine(_ line: String) {
        liveLineShown.store(true, ordering: .relaxed)
        DescriptorWriter.standardError.write("\r\u{1B}[K" + line)
    }

    static func clearLiveLine() {
        if liveLineShown.exchange(false, ordering: .relaxed) {
            DescriptorWriter.standardError.write("\r\u{1B}[K")
        }
    }

    /// Broken pipes must not kill the process; writes report them instead.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
        LibraryOutput.silenceCodecWarnings()
    }
}
