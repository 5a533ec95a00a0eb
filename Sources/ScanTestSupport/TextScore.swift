/// Tolerant text comparison for tests: character error rate after whitespace normalisation.
public enum TextScore {
    /// Whitespace runs collapsed to one space, ends trimmed.
    public static func normalize(_ s: String) -> [Character] {
        Array(s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
    }

    /// Edit distance over the ground truth's length (1 for empty output against real text).
    public static func cer(_ hypothesis: String, _ truth: String) -> Double {
        let h = normalize(hypothesis), t = normalize(truth)
        guard !t.isEmpty else { return h.isEmpty ? 0 : 1 }
        guard !h.isEmpty else { return 1 }
        var previous = Array(0...h.count), current = [Int](repeating: 0, count: h.count + 1)
        for i in 1...t.count {
            current[0] = i
            for j in 1...h.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (t[i - 1] == h[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return Double(previous[h.count]) / Double(t.count)
    }
}
