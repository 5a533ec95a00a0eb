import ArgumentParser
import TextRecognition

/// The root command: `scantext [recognize] [OPTIONS] INPUT...` or `scantext detect ...`.
public struct ScantextCommand: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "scantext",
        abstract: "Turn scans and phone photos of documents into text.",
        discussion: RecognizeCommand.discussion + """

            Run 'scantext help recognize' for every recognition option.
            """,
        version: "scantext \(version) (tesseract \(Tesseract.version))",
        subcommands: [RecognizeCommand.self, DetectCommand.self],
        defaultSubcommand: RecognizeCommand.self
    )

    public init() {}
}
