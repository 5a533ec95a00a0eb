import ArgumentParser
import ImageInput
import PagePreparation
import ScanCore
import TextRecognition

/// How Tesseract reads a page.
struct EngineOptions: ParsableArguments {
    @Option(name: [.customShort("l"), .long], help: "Tesseract languages, joined by '+' (e.g. eng+deu).")
    var lang = "eng"

    @Option(help: ArgumentHelp("Tesseract page segmentation mode, 0-13, for every page. By default Tesseract's automatic layout (3) reads pages in columns, and a single column is read as one block (6).", valueName: "mode"))
    var psm: Int?

    @Option(help: ArgumentHelp(
        "Resolution to assume, in dots per inch, for images with none or a wrong one (phone photos). By default the file's own is used if Tesseract would trust it (70-2400), else Tesseract estimates one.",
        valueName: "dpi"))
    var dpi: Int?

    @Option(help: ArgumentHelp(
        "Turn pages upright: 'auto' turns a page whose text stands sideways or upside down, 'none' never turns, 0, 90, 180 or 270 turns every page that many degrees clockwise.",
        valueName: "auto|none|degrees"))
    var rotate: RotationMode = .auto

    @Option(help: ArgumentHelp(
        "Level tilted text: 'auto' measures the lines' angle (up to 15 degrees) and rotates the page to level them, 'none' leaves it.",
        valueName: "auto|none"))
    var deskew: DeskewMode = .auto

    @Flag(inversion: .prefixedNo, help: "Scale pages whose text is too small for Tesseract (characters under 16 pixels) up to 20-pixel characters.")
    var upscale = true

    @Option(help: ArgumentHelp("Directory holding LANG.traineddata files (default: $TESSDATA_PREFIX or Debian's).", valueName: "dir"))
    var tessdata: String?

    @Option(help: ArgumentHelp("Give up on a page after this many seconds in Tesseract; it becomes an error.", valueName: "seconds"))
    var pageTimeout: Double?

    func validate() throws {
        if let psm, !(0...13).contains(psm) { throw ValidationError("--psm must be 0 to 13, got \(psm); see tesseract --help-psm") }
        if let dpi, !(30...4800).contains(dpi) { throw ValidationError("--dpi must be 30 to 4800, got \(dpi)") }
        if let pageTimeout, !(pageTimeout > 0) { throw ValidationError("--page-timeout must be a positive number of seconds") }
    }

    func recognitionOptions(crop: CropMode, workers: WorkerOptions) -> RecognitionOptions {
        var options = RecognitionOptions(
            engine: EngineConfiguration(languages: lang, tessdataDirectory: tessdata, pageSegmentationMode: psm),
            crop: crop, dpi: dpi, pageTimeout: pageTimeout, limits: workers.limits)
        options.rotation = rotate
        options.deskew = deskew
        options.upscale = upscale
        if let jobs = workers.jobs { options.jobs = jobs }
        options.pdfResolution = workers.pdfDpi
        return options
    }
}

/// How many pages run at once, and how large an image may be.
struct WorkerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Parallel workers, each with its own Tesseract engine (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Refuse images larger than this many megapixels (decompression bombs).", valueName: "mp"))
    var maxMegapixels: Int = 250

    @Option(help: ArgumentHelp("Refuse inputs of more pages than this (a small file can hold thousands of tiny pages).", valueName: "n"))
    var maxPages: Int = 10_000

    @Option(help: ArgumentHelp("Render PDF pages at this many dots per inch; a page that is one scanned image or photo at no more than its own resolution.", valueName: "dpi"))
    var pdfDpi: Int = ImageSource.defaultPDFResolution

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be 1 to 256, got \(jobs)") }
        if !(1...100_000).contains(maxMegapixels) { throw ValidationError("--max-megapixels must be 1 to 100000") }
        if !(1...10_000_000).contains(maxPages) { throw ValidationError("--max-pages must be 1 to 10000000") }
        if !(36...1200).contains(pdfDpi) { throw ValidationError("--pdf-dpi must be 36 to 1200, got \(pdfDpi)") }
    }

    var limits: DecodeLimits {
        DecodeLimits(maxPixels: maxMegapixels * 1_000_000, maxFileBytes: DecodeLimits.default.maxFileBytes, maxPages: maxPages)
    }

    func outliner(crop: CropMode, flattens: Bool) -> PageOutliner {
        var options = PageOutliner.Options(crop: crop, limits: limits, flattens: flattens)
        options.pdfResolution = pdfDpi
        if let jobs { options.jobs = jobs }
        return PageOutliner(options: options)
    }
}
