import Synchronization

/// A one-way boolean shared between threads.
final class AtomicFlag: Sendable {
    private let storage = Atomic<Bool>(false)
    var value: Bool { storage.load(ordering: .acquiring) }
    func set() { storage.store(true, ordering: .releasing) }
}
