#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation

/// `--shard K/N`: this process takes the inputs whose relative path hashes to shard K of N.
///
/// The hash is 64-bit FNV-1a over the UTF-8 bytes of the input's relative path (below the
/// directory given, `/`-separated; a file given directly is its name), and an input belongs to
/// shard `hash mod N + 1`. It depends on nothing else (not the machine, the order, or the
/// time), so N processes running K = 1…N with the same arguments cover every input exactly once.
struct Shard: Sendable, Equatable, ExpressibleByArgument, CustomStringConvertible {
    /// 1-based.
    let index: Int
    let count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    var description: String { "\(index)/\(count)" }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The 1-based shard of a relative path among `count`.
    static func of(_ relativePath: String, count: Int) -> Int {
        Int(fnv1a(relativePath) % UInt64(count)) + 1
    }

    func contains(_ input: BatchInput) -> Bool {
        Self.of(input.relativePath, count: count) == index
    }
}

/// Where a batch run's outputs go: `OUT/<relative path without extension>.<format extension>`.
struct OutputLayout: Sendable {
    let directory: String
    let fileExtension: String

    func destination(for input: BatchInput) -> String {
        (directory as NSString).appendingPathComponent(input.outputStem + "." + fileExtension)
    }

    /// True when the output exists and is at least as new as the input (`--skip-existing`).
    func isUpToDate(_ input: BatchInput) -> Bool {
        var s = stat()
        guard stat(destination(for: input), &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return false }
        guard let inputTime = input.modified else { return false }
        return InputWalker.modified(s) >= inputTime
    }
}

/// What the plan did with inputs it did not hand to the recognizer, for the summary.
protocol BatchPlanObserver: Sendable {
    func skipped(_ input: BatchInput)
    func problem(_ problem: WalkProblem)
}

/// Turns the walk into the run's inputs: applies `--shard` and `--skip-existing`, refuses an
/// input whose output another input of the same run already claimed, and reports what it
/// leaves out. Pulled lazily by the recognizer's feeder, one input at a time.
struct BatchPlan: IteratorProtocol {
    private var walker: InputWalker
    let layout: OutputLayout?
    let shard: Shard?
    let skipExisting: Bool
    let observer: any BatchPlanObserver
    /// Output paths handed out so far, kept only when several roots could write the same one
    /// (inside one directory the walker already keeps names apart).
    private var claimed: [String: String]?

    init(walker: InputWalker, layout: OutputLayout?, shard: Shard?, skipExisting: Bool, trackCollisions: Bool,
         observer: any BatchPlanObserver) {
        self.walker = walker
        self.layout = layout
        self.shard = shard
        self.skipExisting = skipExisting
        self.observer = observer
        claimed = trackCollisions && layout != nil ? [:] : nil
    }

    mutating func next() -> BatchInput? {
        while let item = walker.next() {
            switch item {
            case .problem(let problem):
                observer.problem(problem)
            case .input(let input):
                if let shard, !shard.contains(input) { continue }
                if let layout {
                    let destination = layout.destination(for: input)
                    if claimed != nil {
                        if let owner = claimed?[destination] {
                            observer.problem(WalkProblem(
                                path: input.path, kind: .failed, code: "output-collision",
                                problem: "its output \(destination) is already written for \(owner)",
                                remedy: "rename one of them, or give them separate --output-dir runs"))
                            continue
                        }
                        claimed?[destination] = input.path
                    }
                    if skipExisting && layout.isUpToDate(input) {
                        observer.skipped(input)
                        continue
                    }
                }
                return input
            }
        }
        return nil
    }
}
