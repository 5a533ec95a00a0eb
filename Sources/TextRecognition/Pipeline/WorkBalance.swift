/// Decides, for a worker that is free while a prepared page waits, whether to prepare one more
/// page for the others before it recognises one.
///
/// A run ends when its last recognition ends, and recognitions cannot be split, so the workers
/// should reach their last pages together. Left alone they drift apart (pages differ, the machine
/// is noisy), and the one that finishes first idles while the other recognises its last page.
/// Preparing a page (decode, detect, warp: a tenth of a recognition) can be done by any worker,
/// so the worker that is ahead takes that work off the one that is behind.
///
/// The decision compares two predicted schedules of what is left, with mean stage times measured
/// in this run: recognise now, or prepare one page first. Each schedule is greedy, as the workers
/// are: whoever is free next takes the oldest prepared page, or prepares and recognises the next.
/// Preparing first wins only when it ends the run sooner by more than `margin`.
struct WorkBalance: Sendable, Equatable {
    /// Mean seconds to prepare a page.
    var prepare: Double
    /// Mean seconds to recognise a prepared page.
    var recognize: Double
    /// Seconds by which preparing first must end the run sooner to be chosen.
    var margin: Double = 0.005

    /// When the last of `workers` finishes if, from their free times, they take `ready` prepared
    /// pages and then `unprepared` pages (each prepared and then recognised by the worker that
    /// takes it), the earliest free worker always taking the next page.
    func finish(workers free: [Double], ready: Int, unprepared: Int) -> Double {
        var free = free
        guard !free.isEmpty else { return 0 }
        var ready = ready, unprepared = unprepared
        while ready + unprepared > 0 {
            var next = 0
            for i in free.indices where free[i] < free[next] { next = i }
            if ready > 0 {
                ready -= 1
                free[next] += recognize
            } else {
                unprepared -= 1
                free[next] += prepare + recognize
            }
        }
        return free.max() ?? 0
    }

    /// True when a worker free at `now` should prepare a page before recognising one.
    /// - Parameters:
    ///   - others: when each other worker is expected to be free; a worker that is preparing a
    ///     page counts that page in `ready`.
    ///   - ready: prepared pages waiting, at least one.
    ///   - unprepared: pages not yet taken by any worker.
    func preparesFirst(now: Double, others: [Double], ready: Int, unprepared: Int) -> Bool {
        guard ready > 0, unprepared > 0, !others.isEmpty else { return false }
        let recogniseNow = finish(workers: others + [now + recognize], ready: ready - 1, unprepared: unprepared)
        let prepareFirst = finish(workers: others + [now + prepare + recognize], ready: ready, unprepared: unprepared - 1)
        return prepareFirst < recogniseNow - margin
    }
}

/// A running mean of stage durations.
struct RunningMean: Sendable {
    private(set) var count = 0
    private var sum = 0.0

    mutating func add(_ seconds: Double) {
        count += 1
        sum += seconds
    }

    var mean: Double? { count > 0 ? sum / Double(count) : nil }
}
