import Foundation

/// Paths shared by the tests: the sample pages and, when it is there, the shared corpus.
public enum Fixtures {
    /// The package root, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    public static func sample(_ name: String) -> String { root.appendingPathComponent("SamplePages/\(name)").path }
    /// An image under `Tests/Fixtures`: a photo too particular to draw in code.
    public static func testImage(_ name: String) -> String { root.appendingPathComponent("Tests/Fixtures/\(name)").path }
    public static func groundTruth(_ name: String) throws -> String { try String(contentsOfFile: sample(name), encoding: .utf8) }

    /// `../shared/corpus`, when it is there.
    public static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
    public static var hasCorpus: Bool { FileManager.default.fileExists(atPath: corpus + "/README.md") }
}

extension Fixtures {
    /// A fresh temporary directory.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scantext-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
