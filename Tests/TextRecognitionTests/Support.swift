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

enum TextMetrics {
    /// Whitespace runs collapsed to one space, ends trimmed.
    static func normalize(_ s: String) -> [Character] {
        Array(s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
    }

    /// Character error rate: edit distance over the ground truth's length.
    static func cer(_ hypothesis: String, _ truth: String) -> Double {
        let h = normalize(hypothesis), t = normalize(truth)
        guard !t.isEmpty else { return h.isEmpty ? 0 : 1 }
        var previous = Array(0...h.count)
        var current = [Int](repeating: 0, count: h.count + 1)
        for i in 1...t.count {
            current[0] = i
            for j in 1...max(h.count, 1) where j <= h.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (t[i - 1] == h[j - 1] ? 0 : 1))
            }
            if h.isEmpty { current[0] = i }
            swap(&previous, &current)
        }
        return Double(previous[h.count]) / Double(t.count)
    }
}
