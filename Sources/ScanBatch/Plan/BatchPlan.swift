#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What the plan did with inputs it did not hand to the recognizer, for the summary.
public protocol BatchPlanObserver: Sendable {
    func skipped(_ input: BatchInput)
    func problem(_ problem: WalkProblem)
}

/// Turns the walk into the run's inputs: applies `--shard` and `--skip-existing`, refuses an
/// input whose output another input of the same run already claimed, and reports what it
/// leaves out. Pulled lazily by the recognizer's feeder, one input at a time.
public struct BatchPlan: IteratorProtocol {
    private var walker: InputWalker
    public let layout: OutputLayout?
    public let shard: Shard?
    public let skipExisting: Bool
    public let observer: any BatchPlanObserver
    /// Output paths handed out so far, kept only when several roots could write the same one
    /// (inside one directory the walker already keeps names apart).
    private var claimed: [String: String]?

    public init(walker: InputWalker, layout: OutputLayout?, shard: Shard?, skipExisting: Bool, trackCollisions: Bool,
         observer: any BatchPlanObserver) {
        self.walker = walker
        self.layout = layout
        self.shard = shard
        self.skipExisting = skipExisting
        self.observer = observer
        claimed = trackCollisions && layout != nil ? [:] : nil
    }

    public mutating func next() -> BatchInput? {
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

/// Counts without reporting (the background count behind the progress line's ETA).
public struct SilentObserver: BatchPlanObserver {
    public init() {}
    public func skipped(_ input: BatchInput) {}
    public func problem(_ problem: WalkProblem) {}
}
