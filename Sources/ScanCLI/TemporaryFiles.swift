#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The temporary files that exist right now, so an interrupted run can remove them before it
/// exits, even from a signal path.
final class TemporaryFiles: Sendable {
    static let shared = TemporaryFiles()
    private let paths = Mutex<Set<String>>([])

    func register(_ path: String) { paths.withLock { _ = $0.insert(path) } }
    func unregister(_ path: String) { paths.withLock { _ = $0.remove(path) } }

    /// Removes every registered temporary file.
    func removeAll() {
        let all = paths.withLock { p -> Set<String> in
            defer { p.removeAll() }
            return p
        }
        for path in all { unlink(path) }
    }
}
