import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import CTesseract
import Foundation
import ScanCore
import Synchronization

/// How a page's outline is found before recognition.
public enum CropMode: Sendable, Equatable {
    /// Detect the page in photos; leave flat scans alone.
    case auto
    /// Recognise the image as it is.
    case none
    /// Rectify this quad (source pixels, TL, TR, BR, BL) on every page.
    case quad(Quad)
}

/// Everything that shapes a recognition run.
public struct RecognitionOptions: Sendable {
    public var engine: EngineConfiguration
    /// Worker count; each worker owns one Tesseract engine.
    public var jobs: Int
    public var crop: CropMode
    /// Resolution to tell Tesseract, overriding what the file says.
    public var dpi: Int?
    /// Seconds one page may spend in Tesseract before it becomes an error result.
    public var pageTimeout: Double?
    public var limits: DecodeLimits
    public var renderTSV = false
    public var renderHOCR = false
    /// Keep each recognised page's pixels on its result (for saving corrected pages).
    public var keepCorrectedImages = false
    /// Skip recognition: decode, detect and warp only.
    public var skipRecognition = false
    /// Pages a worker may hold beyond the oldest one not yet delivered; bounds memory.
    public var pagesInFlightPerWorker = 2
    /// Call `completion` as soon as the last page is delivered, while the workers still release
    /// their engines (about 4 ms each for `eng`) on their own threads. For a process that ends
    /// right after the run and leaves without running exit handlers (`_exit`), as the command
    /// line does: the last worker's engine release is then off the run's critical path. With
    /// `exit()` instead, libtesseract's static destructors could run while an engine is being
    /// deleted. Off by default: `completion` then comes after every engine is released.
    public var completesBeforeEnginesAreReleased = false
    /// Test hook: seconds to sleep before processing the page at this run position.
    var simulatedDelay: (@Sendable (Int) -> Double)?
    /// Test hook: a free worker prepares pages ahead whenever the window has room, whatever
    /// `WorkBalance` predicts, so that most pages are recognised by a worker that did not
    /// prepare them.
    var alwaysPrepareAhead = false

    public init(
        engine: EngineConfiguration = EngineConfiguration(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        crop: CropMode = .auto, dpi: Int? = nil, pageTimeout: Double? = nil, limits: DecodeLimits = .default
    ) {
        self.engine = engine
        self.jobs = max(1, jobs)
        self.crop = crop
        self.dpi = dpi
        self.pageTimeout = pageTimeout
        self.limits = limits
    }
}

/// What a run can read pages from.
public enum RecognitionInput: Sendable {
    /// A path, opened when its turn comes.
    case file(String)
    /// All of standard input, as one image file.
    case standardInput
    /// An image already read into memory.
    case source(ImageSource)
    /// Pages already decoded.
    case document(ScanDocument)
}

/// Totals for a finished run.
public struct RecognitionSummary: Sendable {
    public var pages = 0
    public var failedPages = 0
    /// Sources with at least one failed page.
    public var failedSources = 0
    public var sources = 0
    public var elapsed: Double = 0
    /// True when the run was cancelled before every input was read.
    public var cancelled = false
    /// Sum of Tesseract time over pages (engine starts and recognition), for efficiency figures.
    public var tesseractSeconds: Double = 0

    public init() {}
}

/// A running recognition, which can be cancelled.
public final class RecognitionTask: Sendable {
    let stopFeeding = AtomicFlag()
    let abandonFlag = CancellationFlag()

    /// Stops taking new pages; pages already started finish and are delivered.
    public func cancel() { stopFeeding.set() }

    /// Also stops pages in Tesseract as soon as it checks (within about a second); those pages
    /// become `.cancelled` error results.
    public func abandon() {
        stopFeeding.set()
        abandonFlag.set()
    }

    public var isCancelled: Bool { stopFeeding.value }
}

/// The text-recognizer service: recognises pages on a concurrent Dispatch queue, one Tesseract
/// engine per worker, and delivers results in page order, each as soon as every page before it
/// is done.
///
/// Workers pull the next page from a shared feeder, decode it, find and flatten the page,
/// recognise it, and put the result into its slot; an in-order emitter hands results to the
/// caller on a serial queue. A worker that is ahead of the others may prepare a page for them
/// first, so that all reach the end together (see `WorkBalance`). Decoding is lazy and at most
/// `jobs × pagesInFlightPerWorker` pages are held at once, so memory depends on the number of
/// workers, not the number of pages.
/// Blocking Tesseract calls run on Dispatch threads, never on Swift's cooperative pool.
public final class TextRecognizer: Sendable {
    public let options: RecognitionOptions
    private let workQueue = DispatchQueue(label: "scantext.recognizer.workers", qos: .userInitiated, attributes: .concurrent)

    /// Checks the options (language data above all) before any page is read.
    public init(options: RecognitionOptions = RecognitionOptions()) throws(RecognitionError) {
        if !options.skipRecognition { try options.engine.validate() }
        self.options = options
    }

    /// Starts recognising `inputs` in the background. `onPage` is called once per page, in
    /// order, on a serial queue; `completion` after the last page.
    @discardableResult
    public func start(
        _ inputs: sending some Sequence<RecognitionInput>,
        onPage: @escaping @Sendable (RecognizedPage) -> Void,
        completion: @escaping @Sendable (RecognitionSummary) -> Void
    ) -> RecognitionTask {
        let task = RecognitionTask()
        let delivery = DispatchQueue(label: "scantext.recognizer.delivery", qos: .userInitiated)
        let window = DispatchSemaphore(value: options.jobs * max(1, options.pagesInFlightPerWorker))
        let run = RunState(inputs: AnyIterator(inputs.makeIterator()), options: options, task: task)
        let group = DispatchGroup()
        let options = self.options

        for id in 0..<options.jobs {
            group.enter()
            workQueue.async {
                // Whether this worker has left the group (it may before releasing its engine).
                var left = false
                do {
                    let worker = PageWorker(options: options, cancel: task.abandonFlag)
                    let deliver: @Sendable (RecognizedPage) -> Void = { page in
                        onPage(page)
                        window.signal()
                    }
                    // Whether this worker holds one of the window's places for a page it has not
                    // taken yet.
                    var holdsRoom = false
                    work: while true {
                        switch run.nextStep(worker: id, window: window, holdsRoom: &holdsRoom) {
                        case .waitForRoom:
                            window.wait()
                            holdsRoom = true
                        case .prepare(let job):
                            switch worker.prepare(job) {
                            case .finished(let result):
                                run.finishedPreparing(worker: id, nil)
                                run.complete(result, on: delivery, deliver: deliver)
                            case .ready(let page):
                                run.finishedPreparing(worker: id, page)
                            }
                        case .recognize(let page):
                            let result = worker.recognize(page)
                            run.finishedRecognizing(worker: id, result)
                            run.complete(result, on: delivery, deliver: deliver)
                        case .stop:
                            break work
                        }
                    }
                    if options.completesBeforeEnginesAreReleased {
                        group.leave()
                        left = true
                    }
                }
                // The worker and its engine are gone. While others are still at work, this
                // core would only wait: it hands the freed memory back to the system now, so
                // that less is left to unmap when the process exits.
                #if canImport(Glibc)
                if run.othersWorking(id) { malloc_trim(0) }
                #endif
                if !left { group.leave() }
            }
        }
        group.notify(queue: delivery) {
            var summary = run.summary
            summary.elapsed = run.elapsed
            summary.cancelled = task.isCancelled
            completion(summary)
        }
        return task
    }

    /// The name a worker thread carries while it is inside Tesseract, as
    /// `/proc/PID/task/TID/comm` shows it. Threads created meanwhile (OpenMP's, if it fanned
    /// out) inherit the name, which is how tests check that there are none.
    public static let recognitionThreadName = "scantext-ocr"
    static let idleThreadName = "scantext"

    static func nameCurrentThread(_ name: String) {
        #if os(Linux)
        // pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc module does not define;
        // the kernel's per-thread comm file does the same.
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        _ = name.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #endif
    }

    /// VisionKit-style: recognises a document and hands back every page, in order.
    public func recognizeText(
        in document: ScanDocument, completionHandler: @escaping @Sendable ([RecognizedPage]) -> Void
    ) {
        recognizeText(in: [.document(document)], completionHandler: completionHandler)
    }

    public func recognizeText(
        in inputs: [RecognitionInput], completionHandler: @escaping @Sendable ([RecognizedPage]) -> Void
    ) {
        let collected = Mutex<[RecognizedPage]>([])
        start(inputs, onPage: { page in collected.withLock { $0.append(page) } }) { _ in
            completionHandler(collected.withLock { $0 })
        }
    }

    /// Async wrapper: every page of `inputs`, in order.
    public func recognize(_ inputs: [RecognitionInput]) async -> [RecognizedPage] {
        await withCheckedContinuation { continuation in
            recognizeText(in: inputs) { continuation.resume(returning: $0) }
        }
    }

    public func recognize(_ document: ScanDocument) async -> [RecognizedPage] {
        await recognize([.document(document)])
    }

    /// The pages of `inputs` as an `AsyncSequence`, in order, each as soon as it is ready.
    /// Ending the iteration early cancels the run.
    public func pages(_ inputs: [RecognitionInput]) -> AsyncStream<RecognizedPage> {
        AsyncStream { continuation in
            let task = start(inputs, onPage: { continuation.yield($0) }) { _ in continuation.finish() }
            continuation.onTermination = { _ in task.abandon() }
        }
    }
}

/// One unit of work: a page to decode (or already decoded), or an input that failed to open.
struct PageJob: Sendable {
    enum Work: Sendable {
        case decode(ImageSource, index: Int)
        case decoded(ScanPage)
        case failed(RecognitionError)
    }

    let sequence: Int
    let inputIndex: Int
    let source: String
    let page: Int  // 1-based
    let work: Work

    var pagesInSource: Int {
        switch work {
        case .decode(let image, _): image.pageCount
        case .decoded, .failed: 1
        }
    }
}

/// The shared state of one run: the feeder over the inputs, the pages prepared and waiting for
/// an engine, what each worker is doing, and the in-order emitter.
private final class RunState: Sendable {
    private struct Feeder {
        var inputs: AnyIterator<RecognitionInput>
        /// Inputs read from `inputs` ahead of their turn, to count what is left; not opened.
        var upcoming: [RecognitionInput] = []
        var inputsEnded = false
        var inputIndex = -1
        var currentSource = ""
        var currentPages: [ScanPage] = []
        var currentImage: ImageSource?
        var nextPage = 0
        var sequence = 0

        mutating func nextInput() -> RecognitionInput? {
            if !upcoming.isEmpty { return upcoming.removeFirst() }
            guard !inputsEnded, let input = inputs.next() else {
                inputsEnded = true
                return nil
            }
            return input
        }

        /// Pages not yet taken, counting an input not yet opened as one page; nil when more
        /// than `horizon`.
        mutating func remaining(horizon: Int) -> Int? {
            var count = (currentImage?.pageCount ?? currentPages.count) - nextPage
            if count > horizon { return nil }
            while upcoming.count < horizon && !inputsEnded {
                if let input = inputs.next() { upcoming.append(input) } else { inputsEnded = true }
            }
            for input in upcoming {
                switch input {
                case .file, .standardInput: count += 1
                case .source(let image): count += image.pageCount
                case .document(let document): count += document.pages.count
                }
                if count > horizon { return nil }
            }
            return count > horizon || !inputsEnded ? nil : count
        }

        /// The next page in input order, opening the next input when the current one is used up.
        mutating func nextJob(limits: DecodeLimits, cancelled: () -> Bool) -> PageJob? {
            while !cancelled() {
                if let image = currentImage, nextPage < image.pageCount {
                    defer { nextPage += 1; sequence += 1 }
                    return PageJob(sequence: sequence, inputIndex: inputIndex, source: currentSource,
                                   page: nextPage + 1, work: .decode(image, index: nextPage))
                }
                if nextPage < currentPages.count {
                    defer { nextPage += 1; sequence += 1 }
                    return PageJob(sequence: sequence, inputIndex: inputIndex, source: currentSource,
                                   page: currentPages[nextPage].number, work: .decoded(currentPages[nextPage]))
                }
                currentImage = nil
                currentPages = []
                nextPage = 0
                guard let input = nextInput() else { return nil }
                inputIndex += 1
                do throws(RecognitionError) {
                    switch input {
                    case .file(let path):
                        currentSource = path
                        currentImage = try ImageSource.open(path: path, limits: limits)
                    case .standardInput:
                        currentSource = "-"
                        currentImage = try ImageSource.standardInput(limits: limits)
                    case .source(let image):
                        currentSource = image.name
                        currentImage = image
                    case .document(let document):
                        currentSource = document.source
                        currentPages = document.pages
                    }
                } catch {
                    defer { sequence += 1 }
                    return PageJob(sequence: sequence, inputIndex: inputIndex, source: currentSource, page: 1,
                                   work: .failed(error))
                }
            }
            return nil
        }
    }

    enum WorkerState {
        case idle
        case preparing(since: Double)
        case recognizing(since: Double, startsEngine: Bool)
        case stopped
    }

    private struct Plan {
        var feeder: Feeder
        /// Prepared pages waiting for an engine, oldest first.
        var ready: [PreparedPage] = []
        var workers: [WorkerState]
        var hasEngine: [Bool]
        var prepareTime = RunningMean()
        var recognizeTime = RunningMean()
        var engineTime = RunningMean()
    }

    /// What a worker does next.
    enum Step {
        /// Wait for the window to have room for one more page, then ask again.
        case waitForRoom
        case prepare(PageJob)
        case recognize(PreparedPage)
        case stop
    }

    private struct Emitter {
        var pending: [Int: RecognizedPage] = [:]
        var nextToEmit = 0
        var summary = RecognitionSummary()
        var lastFailedInput = -1
    }

    private let plan: Mutex<Plan>
    private let emitter = Mutex(Emitter())
    private let options: RecognitionOptions
    private let task: RecognitionTask
    private let started = DispatchTime.now().uptimeNanoseconds
    /// How far ahead the feeder counts pages to balance the workers (inputs are only listed,
    /// not opened).
    private let horizon: Int

    init(inputs: sending AnyIterator<RecognitionInput>, options: RecognitionOptions, task: RecognitionTask) {
        plan = Mutex(Plan(
            feeder: Feeder(inputs: inputs), workers: Array(repeating: .idle, count: options.jobs),
            hasEngine: Array(repeating: false, count: options.jobs)))
        self.options = options
        self.task = task
        horizon = 8 * options.jobs
    }

    var summary: RecognitionSummary { emitter.withLock { $0.summary } }

    /// Seconds since the run started.
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }

    /// What `worker` does next. A worker with a prepared page waiting recognises it, unless
    /// preparing another page first ends the run sooner; otherwise it prepares the next page,
    /// once the window has room for it.
    func nextStep(worker id: Int, window: DispatchSemaphore, holdsRoom: inout Bool) -> Step {
        let now = elapsed
        let limits = options.limits
        return plan.withLock { p -> Step in
            // The next page in input order, taken with the window's place this worker holds.
            func prepareNext() -> Step? {
                guard let job = p.feeder.nextJob(limits: limits, cancelled: { task.isCancelled }) else { return nil }
                holdsRoom = false
                p.workers[id] = .preparing(since: now)
                return .prepare(job)
            }
            if !p.ready.isEmpty {
                if preparesFirst(p: &p, worker: id, now: now),
                   holdsRoom || window.wait(timeout: .now()) == .success {
                    holdsRoom = true
                    if let step = prepareNext() { return step }
                }
                if holdsRoom {
                    window.signal()
                    holdsRoom = false
                }
                p.workers[id] = .recognizing(since: now, startsEngine: !p.hasEngine[id])
                return .recognize(p.ready.removeFirst())
            }
            if !holdsRoom {
                guard window.wait(timeout: .now()) == .success else {
                    p.workers[id] = .idle
                    return .waitForRoom
                }
                holdsRoom = true
            }
            if let step = prepareNext() { return step }
            window.signal()
            holdsRoom = false
            p.workers[id] = .stopped
            return .stop
        }
    }

    private func preparesFirst(p: inout Plan, worker id: Int, now: Double) -> Bool {
        if options.alwaysPrepareAhead { return !task.isCancelled }
        guard p.workers.count > 1, !task.isCancelled,
              let prepare = p.prepareTime.mean, let recognize = p.recognizeTime.mean,
              let unprepared = p.feeder.remaining(horizon: horizon), unprepared > 0
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

    /// Stores a finished page and sends every page that is now next in order to `queue`.
    func complete(_ page: RecognizedPage, on queue: DispatchQueue, deliver: @escaping @Sendable (RecognizedPage) -> Void) {
        emitter.withLock { e in
            e.pending[page.sequence] = page
            var ready: [RecognizedPage] = []
            while let next = e.pending.removeValue(forKey: e.nextToEmit) {
                ready.append(next)
                e.nextToEmit += 1
                e.summary.pages += 1
                e.summary.tesseractSeconds += next.timings.tesseract
                if next.page == 1 { e.summary.sources += 1 }
                if next.error != nil {
                    e.summary.failedPages += 1
                    if e.lastFailedInput != next.inputIndex {
                        e.summary.failedSources += 1
                        e.lastFailedInput = next.inputIndex
                    }
                }
            }
            // Enqueued while the lock is held, so batches reach the serial queue in order.
            if !ready.isEmpty {
                let batch = ready
                queue.async { for page in batch { deliver(page) } }
            }
        }
    }
}
