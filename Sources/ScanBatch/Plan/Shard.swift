/// `--shard K/N`: this process takes the inputs whose relative path hashes to shard K of N.
///
/// The hash is 64-bit FNV-1a over the UTF-8 bytes of the input's relative path (below the
/// directory given, `/`-separated; a file given directly is its name), and an input belongs to
/// shard `hash mod N + 1`. It depends on nothing else (not the machine, the order, or the
/// time), so N processes running K = 1…N with the same arguments cover every input exactly once.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    /// Parses `K/N`, with 1 ≤ K ≤ N.
    public init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The 1-based shard of a relative path among `count`.
    public static func of(_ relativePath: String, count: Int) -> Int {
        Int(fnv1a(relativePath) % UInt64(count)) + 1
    }

    public func contains(_ input: BatchInput) -> Bool {
        Self.of(input.relativePath, count: count) == index
    }
}
