import Dispatch
import Synchronization

/// Decides what each worker does next: recognise a prepared page, or prepare the next one.
///
/// It knows the prepared pages waiting for an engine and what every worker is doing. A worker
/// with a prepared page waiting recognises it, unless preparing another page first ends the
/// run sooner (`WorkBalance`); otherwise it prepares the next page once the window has room.
/// The window bounds the pages taken but not yet delivered, so memory depends on the number
/// of workers, not of pages. The feeder is only ever called outside this lock.
final class Scheduler: Sendable {
    enum WorkerState {
        case idle
        case preparing(since: Double)
        case recognizing(since: Double, startsEngine: Bool)
        case stopped
    }

    /// What a worker does next.
    enum Step {
        /// Wait for the window to have room for one more page, then ask again.
        case waitForRoom
        case prepare(PageJob)
        case recognize(PreparedPage)
        case stop
    }

    private struct Plan {
        /// Prepared pages waiting for an engine, oldest first.
        var ready: [PreparedPage] = []
        var workers: [WorkerState]
        var hasEngine: [Bool]
        var prepareTime = RunningMean()
        var recognizeTime = RunningMean()
        var engineTime = RunningMean()
    }

    private let plan: Mutex<Plan>
    private let run: PipelineRun
    private let alwaysPrepareAhead: Bool
    /// How far ahead the feeder counts pages to balance the workers.
    private let horizon: Int
    private var feeder: PageFeeder { run.feeder }
    private var window: DispatchSemaphore { run.window }
    private var task: RecognitionTask { run.task }

    init(workers: Int, run: PipelineRun, alwaysPrepareAhead: Bool) {
        plan = Mutex(Plan(workers: Array(repeating: .idle, count: workers), hasEngine: Array(repeating: false, count: workers)))
        self.run = run
        self.alwaysPrepareAhead = alwaysPrepareAhead
        horizon = 8 * workers
    }

    /// What `worker` does next. `holdsRoom` says whether it holds one of the window's places for
    /// a page it has not taken yet.
    func nextStep(worker id: Int, holdsRoom: inout Bool) -> Step {
        let now = run.elapsed
        // Counting what is left may list inputs, so it is done before the lock is taken.
        let waiting = plan.withLock { !$0.ready.isEmpty }
        let unprepared = waiting && !alwaysPrepareAhead ? feeder.remaining(horizon: horizon) : nil
        let wantsToPrepare = plan.withLock { p -> Bool? in
            if p.ready.isEmpty { return false }
            if preparesFirst(p, worker: id, now: now, unprepared: unprepared) { return true }
            return nil
        }
        guard let balancing = wantsToPrepare else { return recognizeNext(worker: id, now: now, holdsRoom: &holdsRoom) ?? .stop }
        if !holdsRoom {
            guard window.wait(timeout: .now()) == .success else {
                if balancing, let step = recognizeNext(worker: id, now: now, holdsRoom: &holdsRoom) { return step }
                plan.withLock { $0.workers[id] = .idle }
                return .waitForRoom
            }
            holdsRoom = true
        }
        if let job = feeder.next() {
            holdsRoom = false
            plan.withLock { $0.workers[id] = .preparing(since: now) }
            return .prepare(job)
        }
        // Nothing left to prepare: a page another worker prepared meanwhile, or the end.
        if let step = recognizeNext(worker: id, now: now, holdsRoom: &holdsRoom) { return step }
        window.signal()
        holdsRoom = false
        plan.withLock { $0.workers[id] = .stopped }
        return .stop
    }

    /// The oldest prepared page, for `worker` to recognise; nil when none waits.
    private func recognizeNext(worker id: Int, now: Double, holdsRoom: inout Bool) -> Step? {
        let page = plan.withLock { p -> PreparedPage? in
            guard !p.ready.isEmpty else { return nil }
            p.workers[id] = .recognizing(since: now, startsEngine: !p.hasEngine[id])
            return p.ready.removeFirst()
        }
        guard let page else { return nil }
        if holdsRoom {
            window.signal()
            holdsRoom = false
        }
        return .recognize(page)
    }

    private func preparesFirst(_ p: Plan, worker id: Int, now: Double, unprepared: Int?) -> Bool {
        if alwaysPrepareAhead { return !task.isCancelled }
        guard p.workers.count > 1, !task.isCancelled,
              let prepare = p.prepareTime.mean, let recognize = p.recognizeTime.mean,
              let unprepared, unprepared > 0
        else { return false }
        let engine = p.engineTime.mean ?? 0
        var ready = p.ready.count
        var others: [Double] = []
        for (j, state) in p.workers.enumerated() where j != id {
            switch state {
            case .idle: others.append(now)
            case .preparing(let since):
                others.append(max(since + prepare, now))
                ready += 1
            case .recognizing(let since, let startsEngine):
                others.append(max(since + recognize + (startsEngine ? engine : 0), now))
            case .stopped: break
            }
        }
        return WorkBalance(prepare: prepare, recognize: recognize)
            .preparesFirst(now: now, others: others, ready: ready, unprepared: unprepared)
    }

    /// Whether a worker other than `id` may still prepare or recognise a page.
    func othersWorking(_ id: Int) -> Bool {
        plan.withLock { p in
            p.workers.indices.contains { j in
                if j == id { return false }
                if case .stopped = p.workers[j] { return false }
                return true
            }
        }
    }

    /// Records a preparation; a prepared page joins the pages waiting for an engine.
    func finishedPreparing(worker id: Int, _ page: PreparedPage?) {
        plan.withLock { p in
            p.workers[id] = .idle
            guard let page else { return }
            let t = page.result.timings
            p.prepareTime.add(t.decode + t.detect + t.warp)
            let at = p.ready.firstIndex { $0.result.sequence > page.result.sequence } ?? p.ready.endIndex
            p.ready.insert(page, at: at)
        }
    }

    /// Records a recognition's times, for predicting the others.
    func finishedRecognizing(worker id: Int, _ page: RecognizedPage) {
        plan.withLock { p in
            p.workers[id] = .idle
            let startedEngine = !p.hasEngine[id]
            p.hasEngine[id] = true
            // A failed page says nothing about how long a page takes.
            guard page.error == nil else { return }
            if startedEngine { p.engineTime.add(page.timings.engine) }
            p.recognizeTime.add(page.timings.recognize)
        }
    }
}
