import ArgumentParser
import CTesseract
import Foundation
import ScanCore
import TextRecognition

/// The root command: `scantext [recognize] [OPTIONS] INPUT...` or `scantext detect ...`.
public struct ScantextCommand: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "scantext",
        abstract: "Turn scans and phone photos of documents into text.",
        discussion: RecognizeCommand.discussion + """

            Run 'scantext help recognize' for every recognition option.
            """,
        version: "scantext \(version) (tesseract \(Tesseract.version))",
        subcommands: [RecognizeCommand.self, DetectCommand.self],
        defaultSubcommand: RecognizeCommand.self
    )

    public init() {}
}

/// `scantext [recognize] [OPTIONS] INPUT...`: recognise the text of images.
struct RecognizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recognize",
        abstract: "Turn scans and phone photos of documents into text.",
        discussion: discussion
    )

    static let discussion = """
            Reads PNG, JPEG, TIFF (every page), WebP, BMP, PNM and GIF images, or one image from \
            standard input ('-'). Finds the page in photos and flattens it before recognition; flat \
            scans pass through untouched. Text goes to stdout, pages separated by a form feed; \
            errors and progress go to stderr.

            EXAMPLES:
              scantext page.png                  print the text of one page
              scantext scan.tif | less           every page of a multi-page TIFF
              cat photo.jpg | scantext -         read standard input
              scantext --lang eng+deu brief.jpg  two languages (tesseract-ocr-deu)
              scantext --format jsonl *.jpg      text, confidence, word boxes, corners
              scantext --crop none --psm 6 receipt.png
                                                 no page detection, one text block
              scantext --crop '10,12;900,30;880,1200;5,1180' photo.jpg
                                                 your own page corners (TL;TR;BR;BL)
              scantext --save-pages flat/ --format none photo.jpg
                                                 scanner only: flattened pages, no OCR
              scantext detect --format jsonl photo.jpg
                                                 page corners only
              scantext -r scans/ -o text/        a tree: scans/a/b.jpg -> text/a/b.txt
              scantext -r scans/ -o text/ --skip-existing
                                                 resume: only missing or outdated outputs
              scantext -r scans/ -o text/ --shard 2/8 --errors failed.jsonl
                                                 this machine's eighth of the tree

            BATCH RUNS: outputs are written to a temporary file and renamed into place only \
            when every page of the input succeeded. The first Ctrl-C finishes the pages in \
            progress and exits 130; a second stops at once. Neither leaves partial files. \
            --shard K/N takes the inputs whose path below the directory given hashes to K \
            (FNV-1a 64 of its UTF-8 bytes, mod N, plus 1).

            \(ExitStatus.helpText)
            """

    @OptionGroup(title: "Recognition")
    var engine: EngineOptions

    @Option(help: ArgumentHelp(
        "Page outline: 'auto' finds the page in photos, 'none' reads the image as it is, or four corners 'x1,y1;x2,y2;x3,y3;x4,y4' (TL;TR;BR;BL, source pixels).",
        valueName: "auto|none|quad"))
    var crop: CropArgument = .mode(.auto)

    @Option(help: ArgumentHelp("Output: text (form feed between pages), jsonl (one object per page), tsv, hocr, or none.", valueName: "format"))
    var format: FormatArgument = .format(.text)

    @Option(help: ArgumentHelp("Write each page, as corrected, to DIR as PNG.", valueName: "dir"))
    var savePages: String?

    @OptionGroup(title: "Batch runs")
    var batch: BatchOptions

    @Argument(help: ArgumentHelp("Image files or directories; '-' reads standard input.", valueName: "input"))
    var inputs: [String] = []

    func validate() throws {
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given only once") }
        if format == .none && savePages == nil {
            throw ValidationError("--format none prints nothing; add --save-pages DIR to keep the corrected pages")
        }
        if format == .none && batch.outputDir != nil {
            throw ValidationError("--format none writes no text; drop --output-dir, or choose a --format")
        }
        try batch.validate(inputs: inputs)
    }

    func run() throws {
        try requireInputs(inputs, of: Self.self)
        Diagnostics.ignoreBrokenPipes()
        Diagnostics.setQuiet(batch.quiet)
        var options = engine.recognitionOptions(crop: crop.cropMode)
        let outputFormat = format.outputFormat
        options.renderTSV = outputFormat == .tsv
        options.renderHOCR = outputFormat == .hocr
        options.keepCorrectedImages = savePages != nil
        options.skipRecognition = outputFormat == nil
        // This run ends the process with `_exit` (see `endProcess`), so the last engine's
        // release need not hold up the end of the run.
        options.completesBeforeEnginesAreReleased = true

        // Output directories first: the walk must know them to leave them out.
        var excluded: Set<FileIdentity> = []
        if let savePages {
            try PageSaver.prepare(directory: savePages)
            if let id = FileIdentity(path: savePages) { excluded.insert(id) }
        }
        var layout: OutputLayout?
        if let outputDir = batch.outputDir, let outputFormat {
            do {
                try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            } catch {
                Diagnostics.error("\(outputDir): cannot create the --output-dir directory; check the path and permissions")
                throw ExitCode(ExitStatus.setupFailed)
            }
            if let id = FileIdentity(path: outputDir) { excluded.insert(id) }
            layout = OutputLayout(directory: outputDir, fileExtension: outputFormat.fileExtension)
        }
        let errorLog: ErrorLog?
        do {
            errorLog = try batch.errors.map { path throws(CLIError) in try ErrorLog(path: path) }
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(ExitStatus.setupFailed)
        }

        let recognizer: TextRecognizer
        do {
            recognizer = try TextRecognizer(options: options)
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(ExitStatus.setupFailed)
        }

        let sink: any PageSink = if let layout, let outputFormat {
            OutputTreeSink(layout: layout, format: outputFormat)
        } else if let outputFormat {
            StandardOutputSink(format: outputFormat)
        } else {
            DiscardingSink()
        }
        let isBatch = batch.outputDir != nil || batch.recursive
        var configuration = RunSession.Configuration(sink: sink)
        configuration.saver = savePages.map { PageSaver(directory: $0, mirrorTree: isBatch) }
        configuration.errorLog = errorLog
        configuration.progress = batch.progressMode(stdoutIsOutput: layout == nil && outputFormat != nil)
        configuration.summary = isBatch && !batch.quiet

        let outputLayout = layout
        let walkerOptions = InputWalker.Options(
            recursive: batch.recursive, include: batch.include, exclude: batch.exclude, excludedDirectories: excluded)
        let roots = inputs
        let shard = batch.shard
        let makePlan: @Sendable (_ skipExisting: Bool, _ observer: any BatchPlanObserver) -> BatchPlan = { skip, observer in
            BatchPlan(walker: InputWalker(roots: roots, options: walkerOptions), layout: outputLayout, shard: shard,
                      skipExisting: skip, trackCollisions: roots.count > 1, observer: observer)
        }
        let session = RunSession(configuration: configuration)
        let outcome = session.run(recognizer, plan: makePlan(batch.skipExisting, session)) {
            var plan = makePlan(false, SilentObserver())
            var total = 0
            while plan.next() != nil { total += 1 }
            return total
        }
        let status =
            outcome.outputClosed ? ExitStatus.outputClosed
            : outcome.interrupted ? ExitStatus.interrupted
            : outcome.counts.failed > 0 ? ExitStatus.someFailed : ExitStatus.success
        Self.endProcess(status)
    }

    /// Ends the process once a run is over, without exit handlers or static destructors.
    ///
    /// The run reports completion as soon as its last page is delivered
    /// (`completesBeforeEnginesAreReleased`), while the last worker still releases its
    /// Tesseract engine, about 4 ms for `eng`; waiting for that before leaving is time the
    /// user waits for nothing. `exit()` would run libtesseract's static destructors meanwhile,
    /// so the process leaves with `_exit`, which ends every thread at once. Nothing is lost:
    /// every output (standard output, batch files, saved pages, the --errors file) has been
    /// written with `write(2)` and, for files, renamed into place by then; stdio buffers,
    /// which nothing on this path uses, are flushed all the same.
    static func endProcess(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}

/// `--format`, which also takes `none`.
enum FormatArgument: ExpressibleByArgument, Equatable {
    case format(OutputFormat)
    case none

    init?(argument: String) {
        if argument == "none" { self = .none; return }
        guard let f = OutputFormat(rawValue: argument) else { return nil }
        self = .format(f)
    }

    var outputFormat: OutputFormat? {
        if case .format(let f) = self { return f }
        return nil
    }

    static var allValueStrings: [String] { OutputFormat.allCases.map(\.rawValue) + ["none"] }
}

extension ScantextCommand {
    /// Stops with a one-line error, before any kernel runs, when ScanCore was compiled for
    /// x86-64-v3 and this CPU lacks it (an illegal instruction would kill the process instead).
    /// This function and its callers are compiled for the baseline.
    public static func requireKernelCPU() {
        #if SCANCORE_X86_64_V3
        if scantext_cpu_runs_x86_64_v3() == 0 {
            Diagnostics.error(
                "this build needs an x86-64-v3 CPU (AVX2, FMA, BMI2) and this one lacks them; "
                    + "rebuild with 'SCANTEXT_PORTABLE=1 swift build -c release'")
            Foundation.exit(ExitStatus.setupFailed)
        }
        #endif
    }
}
