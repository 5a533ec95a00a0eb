import ArgumentParser
import PagePreparation
import ScanBatch
import ScanCore
import ScanOutput
import TextRecognition

// How option values are written on the command line. The types live with their stages;
// only their parsing belongs here.

extension PDFTextMode: ExpressibleByArgument {}

extension Shard: ExpressibleByArgument {
    public static var defaultCompletionKind: CompletionKind { .default }
}

/// `--crop auto|none|QUAD`.
enum CropArgument: ExpressibleByArgument, Equatable {
    case mode(CropMode)

    init?(argument: String) {
        switch argument {
        case "auto": self = .mode(.auto)
        case "none": self = .mode(.none)
        default:
            guard let quad = try? Quad(parsing: argument) else { return nil }
            self = .mode(.quad(quad))
        }
    }

    var cropMode: CropMode {
        switch self { case .mode(let m): m }
    }

    static var defaultCompletionKind: CompletionKind { .list(["auto", "none"]) }
}

extension RotationMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    public static var allValueStrings: [String] { ["auto", "none", "0", "90", "180", "270"] }
}

extension DeskewMode: ExpressibleByArgument {}

/// `--format`, which also takes `none`.
enum FormatArgument: ExpressibleByArgument, Equatable {
    case format(OutputFormat)
    case none

    init?(argument: String) {
        if argument == "none" { self = .none; return }
        guard let f = OutputFormat(rawValue: argument) else { return nil }
        self = .format(f)
    }

    var outputFormat: OutputFormat? {
        if case .format(let f) = self { return f }
        return nil
    }

    static var allValueStrings: [String] { OutputFormat.allCases.map(\.rawValue) + ["none"] }
}
