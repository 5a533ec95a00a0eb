import Dispatch
import Synchronization

/// Tesseract engines kept from run to run, for a long-lived process (`scantext serve`): they
/// are started once and every run's workers borrow them, so no request pays for loading
/// language data. At most `capacity` engines exist at once, which also caps how many pages
/// are in Tesseract at once across all runs; a worker waits for one to come back.
public final class EnginePool: Sendable {
    /// An engine in the pool, or lent to exactly one worker until it is given back.
    struct Lent: @unchecked Sendable {
        // Safe: an engine is either in `idle`, under the lock, or held by the one worker that
        // borrowed it, which uses it on its own thread and gives it back before it ends; no
        // two threads ever use one engine at once. (A Mutex cannot take back a non-Sendable
        // value, so Swift cannot see that exclusivity.)
        let engine: TesseractEngine
    }

    public let capacity: Int
    private let idle = Mutex<[Lent]>([])
    /// Engines that may still be lent: `capacity` less those out.
    private let free: DispatchSemaphore
    private let lentCount = Atomic<Int>(0)

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        free = DispatchSemaphore(value: self.capacity)
    }

    /// Starts `count` engines for `configuration` now, so that the first pages do not wait for
    /// them. Throws when the language data cannot be loaded.
    public func warm(_ configuration: EngineConfiguration, count: Int) throws(RecognitionError) {
        var started: [Lent] = []
        for _ in 0..<min(count, capacity) { started.append(Lent(engine: try TesseractEngine(configuration))) }
        let ready = started
        idle.withLock { $0.append(contentsOf: ready) }
    }

    /// Engines lent out now.
    public var inUse: Int { lentCount.load(ordering: .relaxed) }

    /// An engine for `configuration`, waiting while all are lent; nil when `cancel` is set
    /// while waiting. An idle engine for another configuration is ended to make room.
    func borrow(_ configuration: EngineConfiguration, cancel: CancellationFlag) throws(RecognitionError) -> TesseractEngine? {
        while free.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if cancel.isSet { return nil }
        }
        lentCount.add(1, ordering: .relaxed)
        let found: Lent? = idle.withLock { idle in
            if let i = idle.lastIndex(where: { $0.engine.configuration == configuration }) { return idle.remove(at: i) }
            // A new engine must fit beside those idle and lent: the oldest idle one makes room.
            if !idle.isEmpty, idle.count + inUse > capacity { idle.removeFirst() }
            return nil
        }
        if let found { return found.engine }
        do throws(RecognitionError) {
            return try TesseractEngine(configuration)
        } catch {
            lentCount.subtract(1, ordering: .relaxed)
            free.signal()
            throw error
        }
    }

    /// Takes back an engine `borrow` gave.
    func giveBack(_ engine: TesseractEngine) {
        let lent = Lent(engine: engine)
        idle.withLock { $0.append(lent) }
        lentCount.subtract(1, ordering: .relaxed)
        free.signal()
    }
}
