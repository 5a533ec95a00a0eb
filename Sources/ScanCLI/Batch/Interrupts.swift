#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// SIGINT and SIGTERM received since `Interrupts.install()`. The handler only increments this
/// lock-free atomic (async-signal-safe); the session's polling loop acts on it.
private let receivedInterrupts = Atomic<Int>(0)

/// Ctrl-C handling for a run: the first SIGINT or SIGTERM asks the run to stop taking pages,
/// the second to stop at once. Whatever thread the kernel picks to run the handler, it does
/// nothing but count.
enum Interrupts {
    static func install() {
        _ = receivedInterrupts.load(ordering: .relaxed)  // initialise the global outside the handler
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { _ in receivedInterrupts.wrappingAdd(1, ordering: .relaxed) }
            sigaddset(&set, sig)
        }
        // A parent may have started us with these blocked (the mask survives exec, and
        // libdispatch's threads block signals): make sure at least this thread takes them.
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Back to the default: a later signal kills the process.
    static func uninstall() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    static var count: Int { receivedInterrupts.load(ordering: .relaxed) }
}
