import ArgumentParser
import TextRecognition

/// The root command: `scantext [recognize] [OPTIONS] INPUT...`, `scantext detect ...` or
/// `scantext serve ...`.
public struct ScantextCommand: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "scantext",
        abstract: "Turn scans and phone photos of documents into text.",
        discussion: RecognizeCommand.discussion + """

            Run 'scantext help recognize' for every recognition option.
            """,
        version: "scantext \(version) (tesseract \(Tesseract.version))",
        subcommands: [RecognizeCommand.self, DetectCommand.self, ServeCommand.self],
        defaultSubcommand: RecognizeCommand.self
    )

    public init() {}
}

extension ScantextCommand {
    /// Parses the command line and runs the command it names, awaiting `serve`; exits with
    /// its status. (Overload resolution in a main.swift picks ParsableCommand's synchronous
    /// `main`, which refuses an asynchronous root.)
    public static func runFromCommandLine() async {
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
