import ArgumentParser
import Foundation
import ScanBatch
import ScanOutput
import TextRecognition

/// `scantext detect`: page detection only, on the outline pipeline (no Tesseract engine).
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find the page outline in each image, without recognising text.",
        discussion: """
            Prints, for each page, the corners of the page found in the image (top-left, \
            top-right, bottom-right, bottom-left, in the image's pixels) and a confidence. A flat \
            scan, or an image with no convincing page, has no quad (null).

            Directories are read with -r, in the same order and with the same --include, \
            --exclude and --shard as the main command, so a tree can be split over machines.

            EXAMPLES:
              scantext detect photo.jpg
              scantext detect --format jsonl photos/*.jpg > corners.jsonl
              scantext detect -r --include '*.jpg' --format jsonl photos/ > corners.jsonl
              scantext detect -r --shard 2/8 --format jsonl photos/ > corners-2.jsonl

            \(ExitStatus.helpText)
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, jsonl
    }

    @Option(help: "Output: text (one line per page) or jsonl (one object per page: source, page, width, height, quad, confidence).")
    var format: Format = .text

    @OptionGroup(title: "Workers")
    var workers: WorkerOptions

    @OptionGroup(title: "Inputs")
    var input: InputOptions

    func run() throws {
        try requireInputs(input.inputs, of: Self.self)
        Diagnostics.ignoreBrokenPipes()
        let out = DescriptorWriter.standardOutput
        let format = self.format
        let done = DispatchSemaphore(value: 0)
        let failed = CancellationFlag()
        let plan = BatchPlan(walker: input.walker(), layout: nil, shard: input.shard, skipExisting: false,
                             trackCollisions: false, observer: WalkReporter(failed: failed))
        workers.outliner(crop: .auto, flattens: false).start(DetectInputs(plan: plan), onPage: { page in
            if let error = page.error {
                Diagnostics.error(error.message)
                failed.set()
                return
            }
            out.write(format == .jsonl ? PageRecord(page, view: .outline).json + "\n" : Self.text(page) + "\n")
        }) { _ in done.signal() }
        done.wait()
        if failed.isSet { throw ExitCode(ExitStatus.someFailed) }
    }

    /// The inputs the walk and the shard leave, as the pipeline reads them.
    struct DetectInputs: Sequence, IteratorProtocol {
        var plan: BatchPlan

        mutating func next() -> RecognitionInput? {
            plan.next()?.recognitionInput
        }
    }

    /// Directories that cannot be read are errors (and make the exit status 1); what the walk
    /// skips (a symbolic-link loop) is a note.
    struct WalkReporter: BatchPlanObserver {
        let failed: CancellationFlag

        func skipped(_ input: BatchInput) {}

        func problem(_ problem: WalkProblem) {
            problem.report()
            if problem.kind == .failed { failed.set() }
        }
    }

    /// `SOURCE<TAB>page N<TAB>WxH<TAB>QUAD<TAB>confidence C`.
    static func text(_ page: RecognizedPage) -> String {
        let quad = page.quad.map { $0.description } ?? "none"
        let confidence = PageRecord.round(page.detectionConfidence ?? 0, 3)
        return "\(page.source)\tpage \(page.page)\t\(page.width)x\(page.height)\t\(quad)\tconfidence \(Self.number(confidence))"
    }

    /// A number as JSON writes it: no ".0" on whole numbers.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
