#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// libjpeg and libpng print their own warnings ("Premature end of JPEG file") straight to file
/// descriptor 2 while Leptonica decodes. scantext reports each bad input itself, in one line, so
/// a program that writes its own diagnostics through `diagnosticDescriptor` can have that chatter
/// dropped: while any decode runs, fd 2 points at /dev/null.
public enum CodecOutput {
    private struct State {
        var enabled = false
        var active = 0
        var saved: Int32 = -1
        var devNull: Int32 = -1
    }

    private static let state = Mutex(State())

    /// A copy of the original stderr, for a program's own diagnostics; it always reaches the
    /// terminal (or wherever stderr pointed when this was first read).
    public static let diagnosticDescriptor: Int32 = {
        let fd = dup(2)
        return fd >= 0 ? fd : 2
    }()

    /// Turns the silencing on (off by default, so a library user's stderr is left alone).
    public static func silenceCodecWarnings() {
        _ = diagnosticDescriptor
        state.withLock { $0.enabled = true }
    }

    /// Runs `body` with fd 2 pointed at /dev/null when silencing is on. Nested and concurrent
    /// calls share one redirection, undone when the last one ends.
    static func quietly<T>(_ body: () throws(InputError) -> T) throws(InputError) -> T {
        let engaged = state.withLock { s -> Bool in
            guard s.enabled else { return false }
            if s.active == 0 {
                if s.devNull < 0 { s.devNull = open("/dev/null", O_WRONLY) }
                s.saved = dup(2)
                if s.devNull >= 0, s.saved >= 0 { dup2(s.devNull, 2) }
            }
            s.active += 1
            return true
        }
        defer {
            if engaged {
                state.withLock { s in
                    s.active -= 1
                    if s.active == 0, s.saved >= 0 {
                        dup2(s.saved, 2)
                        close(s.saved)
                        s.saved = -1
                    }
                }
            }
        }
        return try body()
    }
}
