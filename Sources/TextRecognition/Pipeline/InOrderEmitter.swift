import Dispatch
import Synchronization

/// Delivers a run's results in run order, each as soon as every result before it is in, on
/// one serial queue, and counts them for the summary.
final class InOrderEmitter: Sendable {
    private struct State {
        var pending: [Int: RecognizedPage] = [:]
        var nextToEmit = 0
        var summary = RecognitionSummary()
        var lastFailedInput = -1
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let deliver: @Sendable (RecognizedPage) -> Void

    init(queue: DispatchQueue, deliver: @escaping @Sendable (RecognizedPage) -> Void) {
        self.queue = queue
        self.deliver = deliver
    }

    var summary: RecognitionSummary { state.withLock { $0.summary } }

    /// Stores a finished page and sends every page that is now next in order to the queue.
    func complete(_ page: RecognizedPage) {
        let deliver = self.deliver
        state.withLock { s in
            s.pending[page.sequence] = page
            var ready: [RecognizedPage] = []
            while let next = s.pending.removeValue(forKey: s.nextToEmit) {
                ready.append(next)
                s.nextToEmit += 1
                s.summary.count(next, lastFailedInput: &s.lastFailedInput)
            }
            // Enqueued while the lock is held, so batches reach the serial queue in order.
            if !ready.isEmpty {
                let batch = ready
                queue.async { for page in batch { deliver(page) } }
            }
        }
    }
}
