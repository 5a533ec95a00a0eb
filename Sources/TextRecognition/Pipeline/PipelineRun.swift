import Dispatch
import ImageInput

/// What every run of a page pipeline shares: its task, the window of pages taken but not yet
/// delivered (which bounds memory by the number of workers), the feeder, the in-order emitter,
/// and the workers' group whose end completes the run.
final class PipelineRun: Sendable {
    let task = RecognitionTask()
    let window: DispatchSemaphore
    let feeder: PageFeeder
    let emitter: InOrderEmitter
    let workers = DispatchGroup()
    private let delivery: DispatchQueue
    private let started = DispatchTime.now().uptimeNanoseconds

    /// Pages a worker may hold beyond the oldest one not yet delivered.
    static let pagesInFlightPerWorker = 2

    init(inputs: sending AnyIterator<RecognitionInput>, jobs: Int, limits: DecodeLimits, pdfResolution: Int, label: String,
         onPage: @escaping @Sendable (RecognizedPage) -> Void) {
        let window = DispatchSemaphore(value: jobs * Self.pagesInFlightPerWorker)
        self.window = window
        feeder = PageFeeder(inputs: inputs, limits: limits, pdfResolution: pdfResolution, task: task)
        delivery = DispatchQueue(label: "scantext.\(label).delivery", qos: .userInitiated)
        emitter = InOrderEmitter(queue: delivery) { page in
            onPage(page)
            window.signal()
        }
    }

    /// Seconds since the run started.
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }

    /// Calls `completion` on the delivery queue, after the last page, once every worker has left.
    func whenWorkersFinish(_ completion: @escaping @Sendable (RecognitionSummary) -> Void) {
        workers.notify(queue: delivery) {
            var summary = self.emitter.summary
            summary.elapsed = self.elapsed
            summary.cancelled = self.task.isCancelled
            completion(summary)
        }
    }
}
