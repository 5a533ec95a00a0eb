import CTesseract
import Foundation

/// A flag that a running recognition polls to stop early.
public final class CancellationFlag: Sendable {
    private let state = AtomicFlag()
    public init() {}
    public var isSet: Bool { state.value }
    public func set() { state.set() }
}

/// The owner of one `ETEXT_DESC` monitor, deleted in `deinit`. It carries the deadline and the
/// cancel callback into Tesseract.
final class RecognitionMonitor {
    let pointer: OpaquePointer?
    private let cancel: CancellationFlag?

    init(deadline: Double?, cancel: CancellationFlag?) {
        self.cancel = cancel
        pointer = (deadline != nil || cancel != nil) ? TessMonitorCreate() : nil
        guard let pointer else { return }
        if let deadline {
            TessMonitorSetDeadlineMSecs(pointer, Int32(min(deadline * 1000, Double(Int32.max))))
        }
        if let cancel {
            // The flag outlives the call: this monitor holds it until deinit, after Recognize returns.
            TessMonitorSetCancelThis(pointer, Unmanaged.passUnretained(cancel).toOpaque())
            TessMonitorSetCancelFunc(pointer) { context, _ in
                guard let context else { return false }
                return Unmanaged<CancellationFlag>.fromOpaque(context).takeUnretainedValue().isSet
            }
        }
    }

    deinit {
        if let pointer { TessMonitorDelete(pointer) }
    }
}
