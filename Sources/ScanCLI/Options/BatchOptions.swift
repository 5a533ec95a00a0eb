import ArgumentParser
import Foundation
import ScanBatch

/// The options of batch runs over files and directory trees.
struct BatchOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "Write one output file per input under DIR, mirroring the inputs' paths (in/a/b.jpg → DIR/a/b.txt), instead of printing to stdout.",
        valueName: "dir"))
    var outputDir: String?

    @Flag(help: "Skip inputs whose output already exists and is at least as new as the input (resume an interrupted run).")
    var skipExisting = false

    @Option(help: ArgumentHelp("Also write each failure as a JSON line to FILE.", valueName: "file"))
    var errors: String?

    @Flag(help: "Report progress on stderr even when it is not a terminal (a plain line every 5 seconds).")
    var progress = false

    @Flag(name: [.customShort("q"), .long], help: "Print nothing on stderr but errors: no progress, notes or summary.")
    var quiet = false

    func validate(inputs: [String]) throws(ValidationError) {
        if outputDir != nil && inputs.contains("-") {
            throw ValidationError("'-' (standard input) cannot be used with --output-dir; save it to a file first, or drop --output-dir")
        }
        if skipExisting && outputDir == nil {
            throw ValidationError("--skip-existing needs --output-dir (it compares each input with its output there)")
        }
        if progress && quiet { throw ValidationError("--progress and --quiet contradict each other; choose one") }
        if outputDir?.isEmpty == true { throw ValidationError("--output-dir needs a directory name") }
    }

    /// Progress goes to stderr: live on a terminal (unless stdout is the same terminal and
    /// carries the text), plain lines with `--progress` elsewhere, nothing with `--quiet`.
    func progressMode(stdoutIsOutput: Bool, recursive: Bool) -> ProgressReporter.Mode {
        if quiet { return .off }
        let stderrIsTerminal = DescriptorWriter.standardError.isTerminal
        if stderrIsTerminal && (progress || !(stdoutIsOutput && DescriptorWriter.standardOutput.isTerminal)) {
            return progress || outputDir != nil || recursive ? .live : .off
        }
        return progress ? .plain(interval: 5) : .off
    }
}
