import Dispatch
import Foundation
import ImageInput
import PagePreparation

/// The page pipeline without recognition: finds each page's outline, and with `flattens` also
/// warps it flat and keeps the pixels, over the same inputs and in the same order as the
/// recognizer. `scantext detect` and `--format none --save-pages` run on it; it starts no
/// engine.
public final class PageOutliner: Sendable {
    public struct Options: Sendable {
        public var jobs: Int
        public var crop: CropMode
        public var limits: DecodeLimits
        /// Warp each page flat and keep its pixels on the result (`correctedImage`).
        public var flattens: Bool
        /// Dots per inch PDF pages are rendered at.
        public var pdfResolution = ImageSource.defaultPDFResolution

        public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, crop: CropMode = .auto,
                    limits: DecodeLimits = .default, flattens: Bool = false) {
            self.jobs = max(1, jobs)
            self.crop = crop
            self.limits = limits
            self.flattens = flattens
        }
    }

    public let options: Options
    private let workQueue = DispatchQueue(label: "scantext.outliner.workers", qos: .userInitiated, attributes: .concurrent)

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Starts outlining `inputs` in the background; `onPage` is called once per page, in order,
    /// on a serial queue, and `completion` after the last.
    @discardableResult
    public func start(
        _ inputs: sending some Sequence<RecognitionInput>,
        onPage: @escaping @Sendable (RecognizedPage) -> Void,
        completion: @escaping @Sendable (RecognitionSummary) -> Void
    ) -> RecognitionTask {
        let options = self.options
        let run = PipelineRun(
            inputs: AnyIterator(inputs.makeIterator()), jobs: options.jobs, limits: options.limits,
            pdfResolution: options.pdfResolution, label: "outliner",
            onPage: onPage)
        for _ in 0..<options.jobs {
            workQueue.async(group: run.workers) {
                let preparing = JobPreparer(crop: options.crop, limits: options.limits, keepsImages: options.flattens)
                while true {
                    run.window.wait()
                    guard let job = run.feeder.next() else {
                        run.window.signal()
                        return
                    }
                    run.emitter.complete(preparing.run(job, flatten: options.flattens).result)
                }
            }
        }
        run.whenWorkersFinish(completion)
        return run.task
    }
}
