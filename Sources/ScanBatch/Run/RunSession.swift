#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Synchronization
import TextRecognition

/// One run of the recognizer over the planned inputs: hands pages to the sink in order,
/// reports failures (stderr and `--errors`), saves corrected pages, counts, draws progress,
/// and handles Ctrl-C and a closed stdout.
///
/// Interruption: the first SIGINT or SIGTERM stops taking new inputs and lets the pages in
/// progress finish; after `gracePeriod` seconds they are abandoned. Inputs left incomplete are
/// dropped (their temporary files removed), the summary is printed, and the run reports
/// `interrupted`. A second signal removes every temporary file and exits 130 at once.
public final class RunSession: Sendable, BatchPlanObserver {
    public struct Configuration: Sendable {
        public var sink: any PageSink
        public var saver: PageSaver?
        public var errorLog: ErrorLog?
        public var progress: ProgressReporter.Mode = .off
        /// Print the summary line at the end (batch runs).
        public var summary = false
        /// Seconds pages in progress may take to finish after the first Ctrl-C.
        public var gracePeriod = 3.0

        public init(sink: any PageSink) { self.sink = sink }
    }

    public struct Outcome: Sendable {
        public var counts: RunCounts
        public var interrupted: Bool
        public var outputClosed: Bool
        public var elapsed: Double

        /// The process's exit status for this outcome.
        public var exitStatus: Int32 {
            outputClosed ? ExitStatus.outputClosed
                : interrupted ? ExitStatus.interrupted
                : counts.failed > 0 ? ExitStatus.someFailed : ExitStatus.success
        }
    }

    private struct Delivery {
        var inputIndex = -1
        var open = false
        var failed = false
        var cancelled = false
    }

    public let configuration: Configuration
    private let counts = Mutex(RunCounts())
    private let inputs = Mutex<[Int: BatchInput]>([:])
    private let delivery = Mutex(Delivery())
    private let interrupted = CancellationFlag()
    /// The pipeline's task, once started: cancelled on Ctrl-C, abandoned when stdout closes.
    private let task = Mutex<RecognitionTask?>(nil)

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public var snapshot: RunCounts { counts.withLock { $0 } }

    /// Runs `plan` through `pipeline` to the end, or to an interruption. `totalCount`, when
    /// given, counts the run's inputs in the background so the progress line can show an ETA.
    /// Call it on the main thread (see `InterruptWatch`).
    public func run(_ pipeline: some PagePipeline, plan: sending BatchPlan, totalCount: (@Sendable () -> Int)? = nil) -> Outcome {
        let sink = configuration.sink
        let started = Self.now()
        let progress = ProgressReporter(mode: configuration.progress, started: started)
        let control = DispatchQueue(label: "scantext.run.control")
        let interrupts = InterruptWatch(queue: control) { count in self.handleInterrupt(count, progress: progress, on: control) }
        defer { interrupts.cancel() }
        if let totalCount, configuration.progress != .off {
            Thread {
                let total = totalCount()
                self.counts.withLock { $0.total = total }
            }.start()
        }

        sink.start()
        let finished = DispatchSemaphore(value: 0)
        let feed = Feed(plan: plan, session: self)
        let task = pipeline.start(feed, onPage: { page in self.deliver(page) }) { _ in finished.signal() }
        control.sync {
            self.task.withLock { $0 = task }
            // A Ctrl-C that came before the task existed.
            if interrupted.isSet {
                task.cancel()
                control.asyncAfter(deadline: .now() + configuration.gracePeriod) { task.abandon() }
            }
        }
        let ticker = progress.mode == .off ? nil : DispatchSource.makeTimerSource(queue: control)
        ticker?.setEventHandler { progress.tick(self.snapshot, now: Self.now()) }
        ticker?.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        ticker?.resume()
        finished.wait()
        ticker?.cancel()

        do throws(BatchError) {
            try sink.finish()
        } catch {
            Diagnostics.error(error.message)
            counts.withLock { $0.failedEntries += 1 }
        }
        counts.withLock { c in
            if delivery.withLock({ $0.open }) { c.unfinished += 1 }
            c.current = nil
        }
        control.sync { progress.clear() }
        let outcome = Outcome(counts: snapshot, interrupted: interrupted.isSet, outputClosed: sink.outputClosed,
                              elapsed: Self.now() - started)
        if configuration.summary || outcome.interrupted {
            Diagnostics.note(Self.summary(outcome, resumable: sink is OutputTreeSink))
        }
        return outcome
    }

    /// The first Ctrl-C stops taking inputs and gives the pages in progress `gracePeriod`
    /// seconds; the second stops at once, leaving no temporary file behind.
    private func handleInterrupt(_ count: Int, progress: ProgressReporter, on control: DispatchQueue) {
        if count >= 2 {
            TemporaryFiles.shared.removeAll()
            progress.clear()
            Diagnostics.error("interrupted again; stopped at once (temporary files removed)")
            _exit(ExitStatus.interrupted)
        }
        guard !interrupted.isSet else { return }
        interrupted.set()
        let task = self.task.withLock { $0 }
        task?.cancel()
        Diagnostics.note("interrupted; finishing the pages in progress (press Ctrl-C again to stop at once)")
        control.asyncAfter(deadline: .now() + configuration.gracePeriod) { task?.abandon() }
    }

    /// `40 done, 3 skipped, 2 failed; 57 pages in 23.4 s (2.44 pages/s)`
    /// `resumable`: outputs go to files, so `--skip-existing` can finish the job.
    public static func summary(_ o: Outcome, resumable: Bool = false) -> String {
        let c = o.counts
        var line = o.interrupted ? "interrupted: " : ""
        line += "\(c.done) done, \(c.skipped) skipped, \(c.failed) failed"
        if c.unfinished > 0 {
            line += ", \(c.unfinished) unfinished" + (resumable ? " (not written; run again with --skip-existing)" : "")
        }
        let rate = o.elapsed > 0 ? Double(c.pages) / o.elapsed : 0
        let time = o.elapsed < 60 ? String(format: "%.1f s", o.elapsed) : ProgressReporter.duration(o.elapsed)
        line += "; \(c.pages) page\(c.pages == 1 ? "" : "s") in \(time) (\(String(format: "%.2f", rate)) pages/s)"
        return line
    }

    // MARK: Feeding

    /// The recognizer's input sequence: the plan's inputs, each remembered under the index the
    /// recognizer gives it (it counts inputs in the order it pulls them).
    private struct Feed: Sequence, IteratorProtocol {
        var plan: BatchPlan
        let session: RunSession
        var index = 0

        mutating func next() -> RecognitionInput? {
            guard let input = plan.next() else { return nil }
            session.register(input, at: index)
            index += 1
            return input.recognitionInput
        }
    }

    private func register(_ input: BatchInput, at index: Int) {
        inputs.withLock { $0[index] = input }
    }

    // MARK: BatchPlanObserver

    public func skipped(_ input: BatchInput) {
        counts.withLock { $0.skipped += 1 }
    }

    public func problem(_ problem: WalkProblem) {
        problem.report()
        guard problem.kind == .failed else { return }
        counts.withLock { $0.failedEntries += 1 }
        configuration.errorLog?.record(.init(source: problem.path, page: nil, code: problem.code, error: problem.message))
    }

    // MARK: Delivery (serial queue, page order)

    private func deliver(_ page: RecognizedPage) {
        let sink = configuration.sink
        // Every input is registered as the feeder takes it; the fallback only guards the lookup.
        let input = inputs.withLock { $0[page.inputIndex] }
            ?? InputWalker.file(path: page.source, relative: InputWalker.name(of: page.source), keepExtension: false, modified: nil)
        var d = delivery.withLock { $0 }
        if d.inputIndex != page.inputIndex || !d.open {
            // The recognizer lists inputs ahead of their turn, so the progress line names the
            // input whose pages are arriving, not the last one listed.
            counts.withLock { $0.current = input.path }
            d = Delivery(inputIndex: page.inputIndex, open: true)
            do throws(BatchError) {
                try sink.begin(input)
            } catch {
                report(error.message, code: "output-failed", source: input.path, page: page.page)
                d.failed = true
            }
        }
        if let error = page.error {
            if error.code == .cancelled && interruptedOrClosed {
                d.cancelled = true
            } else {
                report(error.message, code: error.code.description, source: page.source, page: page.page)
                d.failed = true
            }
        } else {
            counts.withLock { $0.pages += 1 }
            configuration.saver?.save(page, input: input)
        }
        do throws(BatchError) {
            try sink.write(page)
            if sink.outputClosed { task.withLock { $0 }?.abandon() }
        } catch {
            if !d.failed { report(error.message, code: "output-failed", source: input.path, page: page.page) }
            d.failed = true
        }
        if page.page >= page.pagesInSource {
            do throws(BatchError) {
                try sink.end(input, complete: !d.failed && !d.cancelled)
            } catch {
                report(error.message, code: "output-failed", source: input.path, page: page.page)
                d.failed = true
            }
            counts.withLock { c in
                if d.failed { c.failedInputs += 1 } else if d.cancelled { c.unfinished += 1 } else { c.done += 1 }
            }
            inputs.withLock { _ = $0.removeValue(forKey: page.inputIndex) }
            d.open = false
        }
        delivery.withLock { $0 = d }
    }

    private var interruptedOrClosed: Bool { interrupted.isSet || configuration.sink.outputClosed }

    private func report(_ message: String, code: String, source: String, page: Int?) {
        Diagnostics.error(message)
        configuration.errorLog?.record(.init(source: source, page: page, code: code, error: message))
    }

    public static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
