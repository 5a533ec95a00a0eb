#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// SIGINT and SIGTERM during a run, as Dispatch signal sources: each signal calls `handler` on
/// `queue` with the number received so far, and the default action (ending the process) does
/// not happen while the watch is on.
///
/// Create it on the main thread before the run starts other threads: libdispatch blocks the
/// signals on the creating thread and reads them from a signalfd, and threads started later
/// inherit the blocked mask.
public final class InterruptWatch {
    private let sources: [any DispatchSourceSignal]

    public init(queue: DispatchQueue, handler: @escaping @Sendable (Int) -> Void) {
        #if os(macOS)
        // kqueue reports signals whatever their disposition; only the default action must go.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        #endif
        let received = Counter()
        sources = [SIGINT, SIGTERM].map { sig in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            // Safe: the source is only read here, by its own handler, on its own serial queue.
            nonisolated(unsafe) let signals = source
            source.setEventHandler {
                // `data` is how many signals arrived since the handler last ran.
                handler(received.add(Int(signals.data)))
            }
            source.resume()
            return source
        }
    }

    /// Stops watching; a later signal is taken by whatever the process does next.
    public func cancel() {
        for source in sources { source.cancel() }
    }
}

/// A count shared between the two sources' handlers.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ n: Int) -> Int { value.add(n, ordering: .relaxed).newValue }
}
