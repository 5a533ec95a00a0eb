#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import SystemPackage

/// The temporary files that exist right now, so an interrupted run can remove them before it
/// exits. Files are created under the same lock that `removeAll()` takes, and none can be
/// created after it, so no temporary file outlives an interrupted run.
public final class TemporaryFiles: Sendable {
    public static let shared = TemporaryFiles()

    private struct State {
        var paths: Set<String> = []
        var closed = false
    }
    private let state = Mutex(State())

    /// Creates a unique file from a `mkstemp` template (ending in `XXXXXX`). Returns the open
    /// descriptor and the path, or the `errno` of the failure (`.canceled` once closed).
    public func create(template: String) -> Result<(Int32, String), Errno> {
        state.withLock { s in
            guard !s.closed else { return .failure(.canceled) }
            var bytes = Array(template.utf8CString)
            let fd = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return .failure(Errno(rawValue: errno)) }
            let path = bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            s.paths.insert(path)
            return .success((fd, path))
        }
    }

    public func unregister(_ path: String) { state.withLock { _ = $0.paths.remove(path) } }

    /// Removes every registered temporary file; no new ones can be created afterwards.
    public func removeAll() {
        state.withLock { s in
            s.closed = true
            for path in s.paths { unlink(path) }
            s.paths.removeAll()
        }
    }
}
