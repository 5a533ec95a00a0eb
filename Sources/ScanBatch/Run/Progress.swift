#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// What a run has done so far. Updated from the delivery queue and the feeder, read by the
/// progress line and the summary.
public struct RunCounts: Sendable, Equatable {
    /// Inputs whose every page was recognised (and, in a batch, whose output was written).
    public var done = 0
    /// Inputs that failed (decode, recognition, timeout, output).
    public var failedInputs = 0
    /// Directory entries that could not be read (unreadable directories, broken links).
    public var failedEntries = 0
    /// Inputs left out because their output is up to date, and symlink loops.
    public var skipped = 0
    /// Inputs started but cut short by an interruption.
    public var unfinished = 0
    /// Pages recognised.
    public var pages = 0
    /// The input whose pages are being delivered.
    public var current: String?
    /// Every input the run will take, once a background count of the tree has finished.
    public var total: Int?

    public var failed: Int { failedInputs + failedEntries }
    /// Inputs finished one way or another, comparable with `total`.
    public var handled: Int { done + failedInputs + skipped }
}

/// The live progress line (on a terminal) or periodic plain lines (`--progress` when stderr is
/// not one), written to stderr only.
public final class ProgressReporter: Sendable {
    public enum Mode: Sendable, Equatable {
        case off
        /// One line redrawn in place.
        case live
        /// A plain line every `interval` seconds.
        case plain(interval: Double)
    }

    public let mode: Mode
    private let started: Double
    private let last: Mutex<Double>

    public init(mode: Mode, started: Double) {
        self.mode = mode
        self.started = started
        last = Mutex(started)
    }

    /// Draws the line if it is due. Called from the session's polling loop.
    public func tick(_ counts: RunCounts, now: Double) {
        switch mode {
        case .off:
            return
        case .live:
            // Quiet for the first half second, so quick runs print no line to erase.
            guard now - started >= 0.5, due(now, every: 0.25) else { return }
            let width = Self.terminalColumns()
            var line = "scantext: " + Self.describe(counts, elapsed: now - started, separator: " · ")
            if line.count > width - 1 { line = String(line.prefix(max(10, width - 2))) + "…" }
            Diagnostics.showLiveLine(line)
        case .plain(let interval):
            guard due(now, every: interval) else { return }
            Diagnostics.note("progress: " + Self.describe(counts, elapsed: now - started, separator: ", "))
        }
    }

    /// Removes the live line before the summary.
    public func clear() {
        if mode == .live { Diagnostics.clearLiveLine() }
    }

    private func due(_ now: Double, every interval: Double) -> Bool {
        last.withLock { last in
            guard now - last >= interval else { return false }
            last = now
            return true
        }
    }

    /// `12/40 files · 37 pages · 2.4 pages/s · ETA 0:15 · a/b.jpg`
    public static func describe(_ c: RunCounts, elapsed: Double, separator: String) -> String {
        var parts: [String] = []
        parts.append(c.total.map { "\(c.handled)/\($0) files" } ?? "\(c.handled) files")
        if c.failed > 0 { parts.append("\(c.failed) failed") }
        parts.append("\(c.pages) pages")
        parts.append(String(format: "%.1f pages/s", elapsed > 0 ? Double(c.pages) / elapsed : 0))
        let worked = c.done + c.failedInputs
        if let total = c.total, worked > 0, elapsed > 0 {
            let remaining = max(0, total - c.handled)
            parts.append("ETA " + duration(Double(remaining) * elapsed / Double(worked)))
        }
        if let current = c.current { parts.append(current == "-" ? "<stdin>" : current) }
        return parts.joined(separator: separator)
    }

    /// `0:15`, `12:03`, `2:05:09`.
    public static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    public static func terminalColumns() -> Int {
        var size = winsize()
        if ioctl(DescriptorWriter.standardError.descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 80
    }
}
