#if canImport(Glibc)
import Glibc
#endif
import CTesseract
import Dispatch
import Foundation
import ScanCore
import Synchronization

/// The text-recognizer service: recognises pages on a concurrent Dispatch queue, one Tesseract
/// engine per worker, and delivers results in page order, each as soon as every page before it
/// is done.
///
/// A run is three parts around the workers: the `PageFeeder` hands out pages in input order,
/// opening inputs lazily; the `Scheduler` tells each worker whether to recognise a prepared
/// page or prepare the next one, so that all reach the end together; the `InOrderEmitter`
/// delivers results in order on a serial queue. At most `jobs × 2` pages
/// are held at once. Blocking Tesseract calls run on Dispatch threads, never on Swift's
/// cooperative pool.
public final class TextRecognizer: Sendable {
    public let options: RecognitionOptions
    /// Engines borrowed instead of started, when the recognizer outlives a run (a server).
    public let engines: EnginePool?
    let hooks: PipelineHooks
    private let workQueue = DispatchQueue(label: "scantext.recognizer.workers", qos: .userInitiated, attributes: .concurrent)

    /// Checks the options (language data above all) before any page is read.
    /// `engines`: a pool shared with other recognizers, whose engines every worker borrows
    /// (and waits for while all are lent); without one, each worker starts its own.
    public convenience init(options: RecognitionOptions = RecognitionOptions(), engines: EnginePool? = nil) throws(RecognitionError) {
        try self.init(options: options, engines: engines, hooks: PipelineHooks())
    }

    init(options: RecognitionOptions, engines: EnginePool? = nil, hooks: PipelineHooks) throws(RecognitionError) {
        try options.engine.validate()
        self.options = options
        self.engines = engines
        self.hooks = hooks
    }

    /// Starts recognising `inputs` in the background. `onPage` is called once per page, in
    /// order, on a serial queue; `completion` after the last page, once every engine is
    /// released.
    @discardableResult
    public func start(
        _ inputs: sending some Sequence<RecognitionInput>,
        onPage: @escaping @Sendable (RecognizedPage) -> Void,
        completion: @escaping @Sendable (RecognitionSummary) -> Void
    ) -> RecognitionTask {
        let options = self.options, hooks = self.hooks, engines = self.engines
        let run = PipelineRun(
            inputs: AnyIterator(inputs.makeIterator()), jobs: options.jobs, limits: options.limits,
            pdfResolution: options.pdfResolution, label: "recognizer",
            onPage: onPage)
        let scheduler = Scheduler(workers: options.jobs, run: run, alwaysPrepareAhead: hooks.alwaysPrepareAhead)
        for id in 0..<options.jobs {
            workQueue.async(group: run.workers) {
                Self.work(id: id, options: options, engines: engines, hooks: hooks, run: run, scheduler: scheduler)
                // The worker and its engine are gone. While others are still at work, this
                // core would only wait: it hands the freed memory back to the system now.
                #if canImport(Glibc)
                if scheduler.othersWorking(id) { malloc_trim(0) }
                #endif
            }
        }
        run.whenWorkersFinish(completion)
        return run.task
    }

    /// One worker's loop: its engine lives as long as this call.
    private static func work(
        id: Int, options: RecognitionOptions, engines: EnginePool?, hooks: PipelineHooks, run: PipelineRun, scheduler: Scheduler
    ) {
        let worker = PageWorker(options: options, cancel: run.task.abandonFlag, pool: engines, hooks: hooks)
        defer { worker.finish() }
        var holdsRoom = false
        while true {
            switch scheduler.nextStep(worker: id, holdsRoom: &holdsRoom) {
            case .waitForRoom:
                run.window.wait()
                holdsRoom = true
            case .prepare(let job):
                switch worker.prepare(job) {
                case .finished(let result):
                    scheduler.finishedPreparing(worker: id, nil)
                    run.emitter.complete(result)
                case .ready(let page):
                    scheduler.finishedPreparing(worker: id, page)
                }
            case .recognize(let page):
                let result = worker.recognize(page)
                scheduler.finishedRecognizing(worker: id, result)
                run.emitter.complete(result)
            case .stop:
                return
            }
        }
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
