/// Counts of 8-bit levels, for the level below which a share of them lies.
public struct LevelHistogram: Sendable {
    private var counts = [Int](repeating: 0, count: 256)
    public private(set) var total = 0

    public init() {}

    /// Counts one level; values outside 0–255 count as the nearest end.
    public mutating func add(_ level: Int) {
        counts[min(max(level, 0), 255)] += 1
        total += 1
    }

    /// The first level at which more than `share` of the counted values lie at or below.
    public func level(passing share: Double) -> Int {
        let target = Int(share * Double(total))
        var seen = 0
        for (level, count) in counts.enumerated() {
            seen += count
            if seen > target { return level }
        }
        return 255
    }
}
