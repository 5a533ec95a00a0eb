import ArgumentParser
import Foundation
import ScanBatch

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
