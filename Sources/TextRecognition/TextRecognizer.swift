import Dispatch
#if canImport(Glibc)
import Glibc
#endif
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
    /// Test hook: seconds to sleep before processing the page at this run position.
    var simulatedDelay: (@Sendable (Int) -> Double)?

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
/// caller on a serial queue. Decoding is lazy and at most `jobs × pagesInFlightPerWorker` pages
/// are held at once, so memory depends on the number of workers, not the number of pages.
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
        let started = DispatchTime.now().uptimeNanoseconds
        let options = self.options

        for _ in 0..<options.jobs {
            group.enter()
            workQueue.async {
                defer { group.leave() }
                let worker = PageWorker(options: options, cancel: task.abandonFlag)
                while true {
                    window.wait()
                    guard let job = run.nextJob() else {
                        window.signal()
                        break
                    }
                    let result = worker.process(job)
                    run.complete(result, on: delivery) { page in
                        onPage(page)
                        window.signal()
                    }
                }
            }
        }
        group.notify(queue: delivery) {
            var summary = run.summary
            summary.elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
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

/// The shared state of one run: the feeder over the inputs and the in-order emitter.
private final class RunState: Sendable {
    private struct Feeder {
        var inputs: AnyIterator<RecognitionInput>
        var inputIndex = -1
        var current: PageJob.Work?
        var currentSource = ""
        var currentPages: [ScanPage] = []
        var currentImage: ImageSource?
        var nextPage = 0
        var sequence = 0
    }

    private struct Emitter {
        var pending: [Int: RecognizedPage] = [:]
        var nextToEmit = 0
        var summary = RecognitionSummary()
        var lastFailedInput = -1
    }

    private let feeder: Mutex<Feeder>
    private let emitter = Mutex(Emitter())
    private let options: RecognitionOptions
    private let task: RecognitionTask

    init(inputs: sending AnyIterator<RecognitionInput>, options: RecognitionOptions, task: RecognitionTask) {
        feeder = Mutex(Feeder(inputs: inputs))
        self.options = options
        self.task = task
    }

    var summary: RecognitionSummary { emitter.withLock { $0.summary } }

    /// The next page in input order, opening the next input when the current one is used up.
    func nextJob() -> PageJob? {
        let limits = options.limits
        return feeder.withLock { f -> PageJob? in
            while !task.isCancelled {
                if let image = f.currentImage, f.nextPage < image.pageCount {
                    defer { f.nextPage += 1; f.sequence += 1 }
                    return PageJob(sequence: f.sequence, inputIndex: f.inputIndex, source: f.currentSource,
                                   page: f.nextPage + 1, work: .decode(image, index: f.nextPage))
                }
                if f.nextPage < f.currentPages.count {
                    defer { f.nextPage += 1; f.sequence += 1 }
                    return PageJob(sequence: f.sequence, inputIndex: f.inputIndex, source: f.currentSource,
                                   page: f.currentPages[f.nextPage].number, work: .decoded(f.currentPages[f.nextPage]))
                }
                f.currentImage = nil
                f.currentPages = []
                f.nextPage = 0
                guard let input = f.inputs.next() else { return nil }
                f.inputIndex += 1
                do throws(RecognitionError) {
                    switch input {
                    case .file(let path):
                        f.currentSource = path
                        f.currentImage = try ImageSource.open(path: path, limits: limits)
                    case .standardInput:
                        f.currentSource = "-"
                        f.currentImage = try ImageSource.standardInput(limits: limits)
                    case .source(let image):
                        f.currentSource = image.name
                        f.currentImage = image
                    case .document(let document):
                        f.currentSource = document.source
                        f.currentPages = document.pages
                    }
                } catch {
                    defer { f.sequence += 1 }
                    return PageJob(sequence: f.sequence, inputIndex: f.inputIndex, source: f.currentSource, page: 1,
                                   work: .failed(error))
                }
            }
            return nil
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
