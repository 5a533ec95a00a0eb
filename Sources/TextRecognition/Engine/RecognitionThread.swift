#if canImport(Glibc)
import Glibc
#endif
import CTesseract
import Synchronization

/// What a worker thread does around each recognition, beyond calling Tesseract.
///
/// Debian's Tesseract is built with OpenMP and opens parallel regions of up to four threads
/// per engine; with one engine per core that oversubscribes the machine. By default each
/// recognition therefore sets OpenMP's max-active-levels to 0 on its thread first, so every
/// region it opens runs on that one thread. (`OMP_THREAD_LIMIT` is read only when libgomp
/// loads, so a `setenv` in a running process would do nothing.)
///
/// An executable may install hooks instead, such as scantext's, which run those regions inline
/// without libgomp; they are process-wide, so only an executable installs them, never a library.
public struct RecognitionThreadHooks: Sendable {
    /// Whether `enter` makes every OpenMP region Tesseract opens run on the calling thread.
    /// When false, the engine caps OpenMP as above as well.
    public var coversOpenMP: Bool
    /// Called on the worker thread just before Tesseract recognises a page.
    public var enter: @Sendable () -> Void
    /// Called on the same thread right after.
    public var leave: @Sendable () -> Void

    public init(coversOpenMP: Bool, enter: @escaping @Sendable () -> Void, leave: @escaping @Sendable () -> Void) {
        self.coversOpenMP = coversOpenMP
        self.enter = enter
        self.leave = leave
    }

    private static let current = Mutex<RecognitionThreadHooks?>(nil)

    /// The hooks engines made from now on use; nil for the OpenMP cap alone. Install once,
    /// before recognising.
    public static var installed: RecognitionThreadHooks? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}

/// The worker thread's name, as `/proc/PID/task/TID/comm` shows it.
public enum RecognitionThread {
    /// The name a worker thread carries while it is inside Tesseract. Threads created meanwhile
    /// (OpenMP's, if it fanned out) inherit it, which is how tests check that there are none.
    public static let recognizingName = "scantext-ocr"
    static let idleName = "scantext"

    static func setName(_ name: String) {
        #if os(Linux)
        // pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc module does not define;
        // the kernel's per-thread comm file does the same.
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        _ = name.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #endif
    }

    /// Runs one recognition with the thread named, OpenMP capped or hooked, and the hooks' work
    /// undone afterwards.
    static func recognizing<T>(hooks: RecognitionThreadHooks?, _ body: () throws(RecognitionError) -> T) throws(RecognitionError) -> T {
        setName(recognizingName)
        if hooks?.coversOpenMP != true { omp_set_max_active_levels(0) }
        hooks?.enter()
        defer {
            hooks?.leave()
            setName(idleName)
        }
        return try body()
    }
}
