import ArgumentParser
import Foundation
import PagePreparation
import ScanBatch
import ScanOutput
import TextRecognition

/// `scantext [recognize] [OPTIONS] INPUT...`: recognise the text of images.
struct RecognizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recognize",
        abstract: "Turn scans and phone photos of documents into text.",
        discussion: discussion
    )

    static let discussion = """
            Reads PNG, JPEG, TIFF (every page), WebP, BMP, PNM and GIF images and PDFs (every page, \
            rendered at --pdf-dpi), or one such file from \
            standard input ('-'). Finds the page in photos and flattens it before recognition; flat \
            scans keep their pixels. Every page is then turned upright (sideways or upside-down \
            scans), levelled (text tilted by up to 15 degrees) and, if its text is tiny, scaled \
            up; --format jsonl reports rotation, skew and scale, and word boxes map back to the \
            file's pixels. Text goes to stdout, pages separated by a form feed; \
            errors and progress go to stderr.

            EXAMPLES:
              scantext page.png                  print the text of one page
              scantext scan.tif | less           every page of a multi-page TIFF
              cat photo.jpg | scantext -         read standard input
              scantext report.pdf                every page of a PDF
              scantext --format pdf p1.jpg p2.jpg > scan.pdf
                                                 photos in, one searchable PDF out
              scantext --lang eng+deu brief.jpg  two languages (tesseract-ocr-deu)
              scantext --format jsonl *.jpg      text, confidence, word boxes, corners
              scantext --crop none --psm 6 receipt.png
                                                 no page detection, one text block
              scantext --rotate none --deskew none scan.png
                                                 read the scan exactly as it lies
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

    @OptionGroup(title: "Workers")
    var workers: WorkerOptions

    @Option(help: ArgumentHelp(
        "Page outline: 'auto' finds the page in photos, 'none' reads the image as it is, or four corners 'x1,y1;x2,y2;x3,y3;x4,y4' (TL;TR;BR;BL, source pixels).",
        valueName: "auto|none|quad"))
    var crop: CropArgument = .mode(.auto)

    @Option(help: ArgumentHelp("Output: text (form feed between pages), jsonl (one object per page), tsv, hocr, alto (ALTO XML), pdf (searchable PDF), or none.", valueName: "format"))
    var format: FormatArgument = .format(.text)

    @Option(help: ArgumentHelp("Write each page, as corrected, to DIR as PNG.", valueName: "dir"))
    var savePages: String?

    @Option(help: ArgumentHelp(
        "PDF pages that already carry text: 'ocr' recognises them from their rendering like any page; 'use' takes their text (exact for born-digital pages) and, with --format pdf, copies them unchanged.",
        valueName: "ocr|use"))
    var pdfText: PDFTextMode = .recognize

    @OptionGroup(title: "Inputs")
    var input: InputOptions

    @OptionGroup(title: "Batch runs")
    var batch: BatchOptions

    func validate() throws {
        if format == .none && savePages == nil {
            throw ValidationError("--format none prints nothing; add --save-pages DIR to keep the corrected pages")
        }
        if format == .format(.pdf) && batch.outputDir == nil && DescriptorWriter.standardOutput.isTerminal {
            throw ValidationError("--format pdf writes a PDF file; redirect standard output (> scan.pdf) or pass --output-dir DIR")
        }
        if format == .none && batch.outputDir != nil {
            throw ValidationError("--format none writes no text; drop --output-dir, or choose a --format")
        }
        try batch.validate(inputs: input.inputs)
    }

    func run() throws {
        try requireInputs(input.inputs, of: Self.self)
        Diagnostics.ignoreBrokenPipes()
        Diagnostics.setQuiet(batch.quiet)
        let outputFormat = format.outputFormat
        let isBatch = batch.outputDir != nil || input.recursive

        // Output directories first: the walk must know them to leave them out.
        var excluded: Set<FileIdentity> = []
        let saver = try setUp { () throws(BatchError) -> PageSaver? in
            guard let savePages else { return nil }
            try PageSaver.prepare(directory: savePages)
            if let id = FileIdentity(path: savePages) { excluded.insert(id) }
            return PageSaver(directory: savePages, mirrorTree: isBatch)
        }
        let layout = try setUp { () throws(BatchError) -> OutputLayout? in
            guard let outputDir = batch.outputDir, let outputFormat else { return nil }
            do {
                try FileManager.default.createDirectory(atPath: outputDir, withIntermediateDirectories: true)
            } catch {
                throw BatchError("\(outputDir): cannot create the --output-dir directory; check the path and permissions")
            }
            if let id = FileIdentity(path: outputDir) { excluded.insert(id) }
            return OutputLayout(directory: outputDir, fileExtension: outputFormat.fileExtension)
        }
        let errorLog = try setUp { () throws(BatchError) in try batch.errors.map { path throws(BatchError) in try ErrorLog(path: path) } }

        let pipeline: any PagePipeline
        if let outputFormat {
            var options = engine.recognitionOptions(crop: crop.cropMode, workers: workers)
            options.renderings = outputFormat.tesseractRenderings
            options.keepsPreparedImages = savePages != nil
            options.pdfText = pdfText
            do {
                pipeline = try TextRecognizer(options: options)
            } catch {
                Diagnostics.error(error.message)
                throw ExitCode(ExitStatus.setupFailed)
            }
        } else {
            pipeline = workers.outliner(crop: crop.cropMode, flattens: true)
        }

        let sink: any PageSink = if let layout, let outputFormat {
            OutputTreeSink(layout: layout, format: outputFormat)
        } else if let outputFormat {
            StandardOutputSink(format: outputFormat)
        } else {
            DiscardingSink()
        }
        var configuration = RunSession.Configuration(sink: sink)
        configuration.saver = saver
        configuration.errorLog = errorLog
        configuration.progress = batch.progressMode(stdoutIsOutput: layout == nil && outputFormat != nil, recursive: input.recursive)
        configuration.summary = isBatch && !batch.quiet

        let makePlan: @Sendable (_ skipExisting: Bool, _ observer: any BatchPlanObserver) -> BatchPlan =
            { [input, excluded, roots = input.inputs] skip, observer in
                BatchPlan(walker: input.walker(excluding: excluded), layout: layout, shard: input.shard,
                          skipExisting: skip, trackCollisions: roots.count > 1, observer: observer)
            }
        let session = RunSession(configuration: configuration)
        let outcome = session.run(pipeline, plan: makePlan(batch.skipExisting, session)) {
            var plan = makePlan(false, SilentObserver())
            var total = 0
            while plan.next() != nil { total += 1 }
            return total
        }
        let status = outcome.exitStatus
        if status != ExitStatus.success { throw ExitCode(status) }
    }

    /// Runs a setup step; one that fails is reported and stops the command with exit 2.
    private func setUp<T>(_ step: () throws(BatchError) -> T) throws -> T {
        do {
            return try step()
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(ExitStatus.setupFailed)
        }
    }
}
