import ArgumentParser
import Foundation

/// The options of batch runs over files and directory trees.
struct BatchOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "Write one output file per input under DIR, mirroring the inputs' paths (in/a/b.jpg → DIR/a/b.txt), instead of printing to stdout.",
        valueName: "dir"))
    var outputDir: String?

    @Flag(name: [.customShort("r"), .long], help: "Read the images in directories given as inputs, and in their subdirectories.")
    var recursive = false

    @Option(help: ArgumentHelp(
        "Only take files from directories that match this glob (repeatable). A pattern with '/' matches the path below the directory given, otherwise the file name.",
        valueName: "glob"))
    var include: [String] = []

    @Option(help: ArgumentHelp("Leave out files and directories that match this glob (repeatable), as for --include.", valueName: "glob"))
    var exclude: [String] = []

    @Flag(help: "Skip inputs whose output already exists and is at least as new as the input (resume an interrupted run).")
    var skipExisting = false

    @Option(help: ArgumentHelp("Also write each failure as a JSON line to FILE.", valueName: "file"))
    var errors: String?

    @Option(help: ArgumentHelp(
        "Take only shard K of N: the inputs whose relative path hashes to K (FNV-1a 64, mod N, plus 1). Runs K=1…N together take every input once.",
        valueName: "k/n"))
    var shard: Shard?

    @Flag(help: "Report progress on stderr even when it is not a terminal (a plain line every 5 seconds).")
    var progress = false

    @Flag(name: [.customShort("q"), .long], help: "Print nothing on stderr but errors: no progress, notes or summary.")
    var quiet = false

    func validate(inputs: [String]) throws {
        if outputDir != nil && inputs.contains("-") {
            throw ValidationError("'-' (standard input) cannot be used with --output-dir; save it to a file first, or drop --output-dir")
        }
        if skipExisting && outputDir == nil {
            throw ValidationError("--skip-existing needs --output-dir (it compares each input with its output there)")
        }
        if (!include.isEmpty || !exclude.isEmpty) && !recursive {
            throw ValidationError("--include and --exclude filter the files found in directories; add --recursive")
        }
        if progress && quiet { throw ValidationError("--progress and --quiet contradict each other; choose one") }
        if outputDir?.isEmpty == true { throw ValidationError("--output-dir needs a directory name") }
    }

    /// Progress goes to stderr: live on a terminal (unless stdout is the same terminal and
    /// carries the text), plain lines with `--progress` elsewhere, nothing with `--quiet`.
    func progressMode(stdoutIsOutput: Bool) -> ProgressReporter.Mode {
        if quiet { return .off }
        let stderrIsTerminal = DescriptorWriter.standardError.isTerminal
        if stderrIsTerminal && (progress || !(stdoutIsOutput && DescriptorWriter.standardOutput.isTerminal)) {
            return progress || outputDir != nil || recursive ? .live : .off
        }
        return progress ? .plain(interval: 5) : .off
    }
}

extension Shard {
    static var defaultCompletionKind: CompletionKind { .default }
}

/// Counts without reporting (the background count behind the progress line's ETA).
struct SilentObserver: BatchPlanObserver {
    func skipped(_ input: BatchInput) {}
    func problem(_ problem: WalkProblem) {}
}
