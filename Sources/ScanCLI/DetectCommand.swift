import ArgumentParser
import Foundation
import ScanCore
import TextRecognition

/// `scantext detect`: page detection only.
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

    @Option(help: "Output: text (one line per page) or jsonl (one object per page).")
    var format: Format = .text

    @Option(help: ArgumentHelp("Parallel workers (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Refuse images larger than this many megapixels.", valueName: "mp"))
    var maxMegapixels: Int = 250

    @Flag(name: [.customShort("r"), .long], help: "Read the images in directories given as inputs, and in their subdirectories.")
    var recursive = false

    @Option(help: ArgumentHelp("With -r, only take files that match this glob (repeatable), as for the main command.", valueName: "glob"))
    var include: [String] = []

    @Option(help: ArgumentHelp("With -r, leave out files and directories that match this glob (repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp(
        "Take only shard K of N: the inputs whose relative path hashes to K (FNV-1a 64, mod N, plus 1), as for the main command.",
        valueName: "k/n"))
    var shard: Shard?

    @Argument(help: ArgumentHelp("Image files or, with -r, directories; '-' reads standard input.", valueName: "input"))
    var inputs: [String] = []

    func validate() throws {
        if (!include.isEmpty || !exclude.isEmpty) && !recursive {
            throw ValidationError("--include and --exclude filter the files found in directories; add --recursive")
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given only once") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be 1 to 256, got \(jobs)") }
    }

    func run() throws {
        try requireInputs(inputs, of: Self.self)
        Diagnostics.ignoreBrokenPipes()
        var options = RecognitionOptions(crop: .auto, limits: DecodeLimits(maxPixels: maxMegapixels * 1_000_000, maxFileBytes: DecodeLimits.default.maxFileBytes))
        if let jobs { options.jobs = jobs }
        options.skipRecognition = true
        let recognizer = try TextRecognizer(options: options)
        let out = DescriptorWriter.standardOutput
        let format = self.format
        let done = DispatchSemaphore(value: 0)
        let failed = CancellationFlag()
        let walker = InputWalker(roots: inputs, options: InputWalker.Options(recursive: recursive, include: include, exclude: exclude))
        let plan = BatchPlan(walker: walker, layout: nil, shard: shard, skipExisting: false, trackCollisions: false,
                             observer: WalkReporter(failed: failed))
        recognizer.start(DetectInputs(plan: plan), onPage: { page in
            if let error = page.error {
                Diagnostics.error(error.message)
                failed.set()
                return
            }
            out.write(format == .jsonl ? Self.json(page) + "\n" : Self.text(page) + "\n")
        }) { _ in done.signal() }
        done.wait()
        if failed.isSet { throw ExitCode(ExitStatus.someFailed) }
    }

    /// The inputs the walk and the shard leave, as the recognizer reads them.
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

    /// Exactly: source, page, width, height, quad, confidence.
    static func json(_ page: RecognizedPage) -> String {
        let quad = page.quad.map { q in
            "[" + q.corners.map { "[\(number($0.x)),\(number($0.y))]" }.joined(separator: ",") + "]"
        } ?? "null"
        return "{\"source\":\(jsonString(page.source)),\"page\":\(page.page),\"width\":\(page.width),\"height\":\(page.height),\"quad\":\(quad),\"confidence\":\(number(page.detectionConfidence ?? 0, digits: 3))}"
    }

    static func text(_ page: RecognizedPage) -> String {
        let quad = page.quad.map { $0.description } ?? "none"
        return "\(page.source)\tpage \(page.page)\t\(page.width)x\(page.height)\t\(quad)\tconfidence \(number(page.detectionConfidence ?? 0, digits: 3))"
    }

    static func number(_ v: Double, digits: Int = 2) -> String {
        let p = pow(10.0, Double(digits))
        let r = (v * p).rounded() / p
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }

    static func jsonString(_ s: String) -> String {
        let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
