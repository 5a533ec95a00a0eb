import ArgumentParser
import Foundation

/// An error of the command line itself (bad option values, unwritable outputs). Its
/// description is the one line the user sees.
struct CLIError: Error, LocalizedError, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var errorDescription: String? { message }
    var description: String { message }
}

/// Exit codes, stable and documented in `--help` and the README.
enum ExitStatus {
    /// Every input done.
    static let success: Int32 = 0
    /// Some inputs failed; the others were done.
    static let someFailed: Int32 = 1
    /// Nothing could start: language data missing, tessdata unreadable, outputs not writable.
    static let setupFailed: Int32 = 2
    /// Bad command line (swift-argument-parser's EX_USAGE).
    static let usage: Int32 = 64
    /// Standard output was closed by its reader (`| head`), as a SIGPIPE death would report.
    static let outputClosed: Int32 = 141
    /// Interrupted by SIGINT or SIGTERM (after finishing or dropping the pages in progress).
    static let interrupted: Int32 = 130

    static let helpText = """
        EXIT STATUS:
          0    every input was processed
          1    some inputs failed (each named on stderr); the rest were processed
          2    could not start (missing language data, bad --tessdata, an output
               directory or --errors file that cannot be created)
          64   usage error (unknown option, bad value)
          130  interrupted by Ctrl-C (SIGINT) or SIGTERM
          141  stdout was closed early by its reader (e.g. | head)
        """
}

/// Refuses a command line without inputs, as swift-argument-parser words a usage error
/// (exit 64). It runs at the start of `run()`, not in `validate()`: the parser validates a
/// command before it reports unknown options, so `scantext --bogus` said "no input given"
/// instead of naming the option it did not know.
func requireInputs(_ inputs: [String], of command: any ParsableCommand.Type) throws {
    guard inputs.isEmpty else { return }
    let name = command.configuration.commandName ?? ""
    DescriptorWriter.standardError.write(
        "Error: no input given; name image files, or '-' for standard input\n"
            + "Usage: \(ScantextCommand.usageString(for: command))\n"
            + "  See 'scantext \(name) --help' for more information.\n")
    throw ExitCode(ExitStatus.usage)
}
