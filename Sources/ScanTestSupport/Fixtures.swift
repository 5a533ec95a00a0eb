import Foundation
import ScanCore

/// Paths shared by the tests: the sample pages and, when it is there, the shared corpus.
public enum Fixtures {
    /// The package root, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    public static func sample(_ name: String) -> String { root.appendingPathComponent("SamplePages/\(name)").path }
    public static func groundTruth(_ name: String) throws -> String { try String(contentsOfFile: sample(name), encoding: .utf8) }

    /// `../shared/corpus`, when it is there.
    public static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
    public static var hasCorpus: Bool { FileManager.default.fileExists(atPath: corpus + "/README.md") }
}

extension Fixtures {
    /// A binary grey PGM (P5, 8-bit) from `Tests/Fixtures`: photos too particular to draw in
    /// code, kept at the size the detector works at.
    public static func greyImage(pgm name: String) throws -> PixelBuffer {
        struct Malformed: Error { let name: String }
        let data = try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/\(name)"))
        // The header: "P5", width, height and the largest value, each ended by one whitespace.
        var fields: [Int] = [], at = 2, field = ""
        guard data.starts(with: Array("P5".utf8)) else { throw Malformed(name: name) }
        while fields.count < 3, at < data.count {
            let c = data[data.startIndex + at]
            at += 1
            if c >= 0x30 && c <= 0x39 { field.append(Character(UnicodeScalar(c))) } else if !field.isEmpty {
                fields.append(Int(field) ?? 0)
                field = ""
            }
        }
        guard fields.count == 3, fields[2] == 255, data.count - at == fields[0] * fields[1] else { throw Malformed(name: name) }
        return try PixelBuffer(width: fields[0], height: fields[1], format: .gray, pixels: [UInt8](data.suffix(from: data.startIndex + at)))
    }

    /// A fresh temporary directory.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scantext-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
