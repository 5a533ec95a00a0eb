import Dispatch
import Foundation
import ScanCore
import Synchronization
import TextRecognition

/// Runs the recognizer and streams results to stdout in page order, errors to stderr.
final class StreamSession: Sendable {
    let format: OutputFormat?
    let saver: PageSaver?

    init(format: OutputFormat?, saver: PageSaver?) {
        self.format = format
        self.saver = saver
    }

    func run(_ recognizer: TextRecognizer, inputs: [RecognitionInput]) -> SessionSummary {
        let out = DescriptorWriter.standardOutput
        let done = DispatchSemaphore(value: 0)
        let renderer = RendererBox(format: format)
        if let header = renderer.header() { out.write(header) }
        let result = ResultBox()
        let task = recognizer.start(inputs, onPage: { [saver] page in
            if let error = page.error, !(result.stopRequested.isSet && error.code == .cancelled) {
                Diagnostics.error(error.message)
            }
            if let saver, page.error == nil { saver.save(page) }
            if let text = renderer.render(page), !out.write(text) {
                // The reader went away (e.g. `| head`): nothing more is wanted.
                result.stopRequested.set()
            }
        }) { summary in
            result.set(summary)
            done.signal()
        }
        // Poll for a closed stdout so the run ends early instead of recognising for nobody.
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if result.stopRequested.isSet { task.abandon() }
        }
        if let footer = renderer.footer() { out.write(footer) }
        var summary = SessionSummary(run: result.summary)
        summary.outputClosed = result.stopRequested.isSet
        return summary
    }
}

/// The renderer for one stdout stream. Calls come from the delivery queue and, before and after
/// the run, from the calling thread; the mutex makes that safe without reasoning about order.
private final class RendererBox: Sendable {
    private let renderer: Mutex<PageRenderer?>

    init(format: OutputFormat?) { renderer = Mutex(format.map(PageRenderer.init(format:))) }
    func header() -> String? { renderer.withLock { $0?.header() } }
    func footer() -> String? { renderer.withLock { $0?.footer() } }
    func render(_ page: RecognizedPage) -> String? { renderer.withLock { $0?.page(page) } }
}

/// The recognizer's totals plus what happened to stdout.
struct SessionSummary {
    var run: RecognitionSummary
    /// The reader of stdout went away before the end.
    var outputClosed = false
    var failedPages: Int { run.failedPages }
}

private final class ResultBox: Sendable {
    private let storage = Mutex(RecognitionSummary())
    let stopRequested = CancellationFlag()
    func set(_ s: RecognitionSummary) { storage.withLock { $0 = s } }
    var summary: RecognitionSummary { storage.withLock { $0 } }
}
