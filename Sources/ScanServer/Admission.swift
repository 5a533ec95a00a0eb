import Synchronization

/// Bounds the requests the service holds at once, so that memory cannot grow without bound:
/// a request is admitted with a ticket, and its place is free again when the ticket is
/// released: by the response once its last byte is ready, or when the last reference to it
/// goes (a response dropped unsent).
final class Admission: Sendable {
    let limit: Int
    private let count = Atomic<Int>(0)
    private let changed: @Sendable (Int) -> Void

    init(limit: Int, changed: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.limit = limit
        self.changed = changed
    }

    var admitted: Int { count.load(ordering: .relaxed) }

    /// A ticket, or nil when `limit` requests are already in.
    func enter() -> Ticket? {
        var current = count.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = count.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged {
                changed(current + 1)
                return Ticket(self)
            }
            current = original
        }
        return nil
    }

    fileprivate func leave() {
        changed(count.subtract(1, ordering: .acquiringAndReleasing).newValue)
    }

    /// A place in the service, given back once.
    final class Ticket: Sendable {
        private let admission: Admission
        private let released = Atomic<Bool>(false)
        fileprivate init(_ admission: Admission) { self.admission = admission }

        /// Gives the place back now, so that a client's next request, sent as soon as this
        /// answer ends, finds it free.
        func release() {
            if !released.exchange(true, ordering: .acquiringAndReleasing) { admission.leave() }
        }

        deinit { release() }
    }
}
