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
final class RunSession: Sendable, BatchPlanObserver {
    struct Configuration: Sendable {
        var sink: any PageSink
        var saver: PageSaver?
        var errorLog: ErrorLog?
        var progress: ProgressReporter.Mode = .off
        /// Print the summary line at the end (batch runs).
        var summary = false
        /// Seconds pages in progress may take to finish after the first Ctrl-C.
        var gracePeriod = 3.0
    }

    struct Outcome {
        var counts: RunCounts
        var interrupted: Bool
        var outputClosed: Bool
        var elapsed: Double
    }

    private struct Delivery {
        var inputIndex = -1
        var open = false
        var failed = false
        var cancelled = false
    }

    let configuration: Configuration
    private let counts = Mutex(RunCounts())
    private let inputs = Mutex<[Int: BatchInput]>([:])
    private let delivery = Mutex(Delivery())
    private let interrupted = CancellationFlag()

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    var snapshot: RunCounts { counts.withLock { $0 } }

    /// Runs `plan` to the end, or to an interruption. `totalCount`, when given, counts the
    /// run's inputs in the background so the progress line can show an ETA.
    func run(_ recognizer: TextRecognizer, plan: BatchPlan, totalCount: (@Sendable () -> Int)? = nil) -> Outcome {
        let sink = configuration.sink
        let started = Self.now()
        let progress = ProgressReporter(mode: configuration.progress, started: started)
        if let totalCount, configuration.progress != .off {
            Thread {
                let total = totalCount()
                self.counts.withLock { $0.total = total }
            }.start()
        }

        sink.start()
        Interrupts.install()
        defer { Interrupts.uninstall() }
        let finished = DispatchSemaphore(value: 0)
        let feed = Feed(plan: plan, session: self)
        let task = recognizer.start(feed, onPage: { page in self.deliver(page) }) { _ in finished.signal() }

        var interruptedAt: Double?
        while finished.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            let now = Self.now()
            if sink.outputClosed { task.abandon() }
            let signals = Interrupts.count
            if signals >= 2 {
                // The user insists: no waiting, but nothing partial left behind either.
                TemporaryFiles.shared.removeAll()
                progress.clear()
                Diagnostics.error("interrupted again; stopped at once (temporary files removed)")
                _exit(ExitStatus.interrupted)
            }
            if signals == 1 && interruptedAt == nil {
                interruptedAt = now
                interrupted.set()
                task.cancel()
                Diagnostics.note("interrupted; finishing the pages in progress (press Ctrl-C again to stop at once)")
            }
            if let t = interruptedAt, now - t > configuration.gracePeriod { task.abandon() }
            progress.tick(snapshot, now: now)
        }

        sink.finish()
        counts.withLock { c in
            if delivery.withLock({ $0.open }) { c.unfinished += 1 }
            c.current = nil
        }
        progress.clear()
        let outcome = Outcome(counts: snapshot, interrupted: interruptedAt != nil, outputClosed: sink.outputClosed,
                              elapsed: Self.now() - started)
        if configuration.summary || outcome.interrupted {
            Diagnostics.note(Self.summary(outcome, resumable: sink is OutputTreeSink))
        }
        return outcome
    }

    /// `40 done, 3 skipped, 2 failed; 57 pages in 23.4 s (2.44 pages/s)`
    /// `resumable`: outputs go to files, so `--skip-existing` can finish the job.
    static func summary(_ o: Outcome, resumable: Bool = false) -> String {
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

    func skipped(_ input: BatchInput) {
        counts.withLock { $0.skipped += 1 }
    }

    func problem(_ problem: WalkProblem) {
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
            do throws(CLIError) {
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
        do throws(CLIError) {
            try sink.write(page)
        } catch {
            if !d.failed { report(error.message, code: "output-failed", source: input.path, page: page.page) }
            d.failed = true
        }
        if page.page >= page.pagesInSource {
            do throws(CLIError) {
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

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
