import Foundation
import TextRecognition

/// Paths and scoring shared by the recognition tests.
enum Fixtures {
    /// The package root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func sample(_ name: String) -> String { root.appendingPathComponent("SamplePages/\(name)").path }
    static func groundTruth(_ name: String) throws -> String { try String(contentsOfFile: sample(name), encoding: .utf8) }

    /// `../shared/corpus`, when it is there.
    static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
    static var hasCorpus: Bool { FileManager.default.fileExists(atPath: corpus + "/README.md") }

    static var hasEnglish: Bool { (try? EngineConfiguration().validate()) != nil }
}

