import CTesseract
import CTesseractHooks
import Foundation
import ScanCore

/// Where Tesseract's language data lives and which languages to load.
public struct EngineConfiguration: Sendable, Equatable {
    /// Tesseract language codes joined by `+`, e.g. `eng+deu`.
    public var languages: String
    /// A tessdata directory, or nil for `TESSDATA_PREFIX` or Debian's default.
    public var tessdataDirectory: String?
    /// Tesseract page segmentation mode (0–13), or nil for Tesseract's default (3).
    public var pageSegmentationMode: Int?

    public init(languages: String = "eng", tessdataDirectory: String? = nil, pageSegmentationMode: Int? = nil) {
        self.languages = languages
        self.tessdataDirectory = tessdataDirectory
        self.pageSegmentationMode = pageSegmentationMode
    }

    /// Debian's places for tessdata, newest first.
    static let standardDirectories = [
        "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata",
        "/usr/local/share/tessdata",
    ]

    /// The directory that will be used: `--tessdata`, then `TESSDATA_PREFIX`, then the first
    /// standard directory that exists.
    public var resolvedTessdataDirectory: String {
        if let tessdataDirectory { return tessdataDirectory }
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            // Tesseract accepts both the tessdata folder and its parent.
            let nested = (prefix as NSString).appendingPathComponent("tessdata")
            return FileManager.default.fileExists(atPath: nested) ? nested : prefix
        }
        return Self.standardDirectories.first { FileManager.default.fileExists(atPath: $0) } ?? Self.standardDirectories[0]
    }

    public var languageCodes: [String] {
        languages.split(separator: "+").map(String.init)
    }

    /// Checks, before any engine starts, that every language's data file exists, and names the
    /// Debian package to install when one does not.
    public func validate() throws(RecognitionError) {
        let codes = languageCodes
        guard !codes.isEmpty, codes.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } }) else {
            throw RecognitionError(
                .missingLanguage, source: nil, "'\(languages)' is not a language list",
                remedy: "write Tesseract codes joined by '+', e.g. --lang eng+deu")
        }
        if let psm = pageSegmentationMode, !(0...13).contains(psm) {
            throw RecognitionError(.engineFailed, source: nil, "--psm \(psm) is not a page segmentation mode", remedy: "use 0 to 13 (see tesseract --help-psm)")
        }
        let dir = resolvedTessdataDirectory
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw RecognitionError(
                .missingLanguage, source: nil, "the tessdata directory \(dir) does not exist",
                remedy: tessdataDirectory == nil
                    ? "install tesseract-ocr-eng (apt-get install tesseract-ocr-eng) or pass --tessdata DIR"
                    : "pass --tessdata with the directory that holds LANG.traineddata")
        }
        for code in codes {
            let file = (dir as NSString).appendingPathComponent("\(code).traineddata")
            if !FileManager.default.fileExists(atPath: file) {
                throw RecognitionError(
                    .missingLanguage, source: nil, "language data for '\(code)' is not installed (no \(file))",
                    remedy: "install it with apt-get install \(Self.debianPackage(for: code)), or pass --tessdata DIR")
            }
        }
    }

    /// The Debian package holding a language: `chi_sim` → `tesseract-ocr-chi-sim`, `script/Latin`
    /// is left as a best guess.
    static func debianPackage(for code: String) -> String {
        "tesseract-ocr-" + code.lowercased().replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: "/", with: "-")
    }
}

/// What one engine call returns: text, confidence and words in the recognised image's pixels.
struct EngineOutput {
    var text: String
    var confidence: Double
    var words: [RecognizedWord]
    var tsv: String?
    var hocr: String?
}

/// The owner of one `TessBaseAPI` handle, ended and deleted in `deinit`.
///
/// Not `Sendable`: an engine belongs to the worker that made it and is used on that worker only.
final class TesseractEngine {
    private let handle: OpaquePointer
    let configuration: EngineConfiguration
    /// Whether Tesseract's in-memory line PNGs are written stored rather than compressed, and
    /// its OpenMP regions run inline, while this engine recognises (see CTesseractHooks). Only
    /// the tests turn them off, to compare.
    var storesLineImages = true
    var runsOpenMPInline = true

    /// Starts an engine (about 0.08 s for `eng`). Throws when the language data is missing or
    /// Tesseract refuses it.
    init(_ configuration: EngineConfiguration) throws(RecognitionError) {
        try configuration.validate()
        guard let handle = TessBaseAPICreate() else {
            throw RecognitionError(.engineFailed, source: nil, "Tesseract could not be created", remedy: "check the installation of libtesseract5")
        }
        // Tesseract prints warnings ("Estimating resolution…") with tprintf; scantext reports
        // what matters itself, so they go nowhere.
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        let dir = configuration.resolvedTessdataDirectory
        let status = TessBaseAPIInit3(handle, dir, configuration.languages)
        guard status == 0 else {
            TessBaseAPIDelete(handle)
            throw RecognitionError(
                .missingLanguage, source: nil, "Tesseract could not load '\(configuration.languages)' from \(dir)",
                remedy: "reinstall the tesseract-ocr-LANG packages, or pass --tessdata DIR")
        }
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        // The API's own default is a single block of text (6), which reads columns and tables
        // as one run of lines; the tesseract CLI, and scantext, default to automatic layout (3).
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(UInt32(configuration.pageSegmentationMode ?? 3)))
        self.handle = handle
        self.configuration = configuration
    }

    /// The page segmentation mode Tesseract will use, as it reports it.
    var pageSegmentationMode: Int { Int(TessBaseAPIGetPageSegMode(handle).rawValue) }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Recognises one image. `resolution` is passed to Tesseract when known (otherwise it
    /// estimates one from the text size). `deadline` stops recognition after that many seconds.
    func recognize(
        _ image: PixelBuffer, resolution: Int?, deadline: Double?, pageNumber: Int,
        wantTSV: Bool, wantHOCR: Bool, cancel: CancellationFlag?
    ) throws(RecognitionError) -> EngineOutput {
        // One OpenMP thread for every parallel region this thread starts (see shim.h).
        omp_set_max_active_levels(0)
        TextRecognizer.nameCurrentThread(TextRecognizer.recognitionThreadName)
        defer {
            TessBaseAPIClear(handle)
            TextRecognizer.nameCurrentThread(TextRecognizer.idleThreadName)
        }
        image.pixels.withUnsafeBufferPointer { px in
            TessBaseAPISetImage(
                handle, px.baseAddress, Int32(image.width), Int32(image.height),
                Int32(image.format.channels), Int32(image.bytesPerRow))
        }
        if let resolution { TessBaseAPISetSourceResolution(handle, Int32(resolution)) }

        let monitor = RecognitionMonitor(deadline: deadline, cancel: cancel)
        let start = DispatchTime.now().uptimeNanoseconds
        // Work that changes nothing in the results, spared on this thread while it recognises
        // (see CTesseractHooks): line images are round-tripped through stored PNGs, and OpenMP
        // regions run inline instead of in a team of one.
        scantext_line_images_stored(storesLineImages ? 1 : 0)
        scantext_openmp_inline(runsOpenMPInline ? 1 : 0)
        let status = TessBaseAPIRecognize(handle, monitor.pointer)
        scantext_openmp_inline(0)
        scantext_line_images_stored(0)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if cancel?.isSet == true {
            throw RecognitionError(.cancelled, source: nil, "recognition was cancelled", remedy: "")
        }
        if let deadline, elapsed >= deadline {
            throw RecognitionError(
                .timedOut, source: nil, "recognition took over \(Self.seconds(deadline))",
                remedy: "raise --page-timeout, or check that the page is a document")
        }
        guard status == 0 else {
            throw RecognitionError(.engineFailed, source: nil, "Tesseract failed to recognise the page", remedy: "check that the image holds a document page")
        }

        let text = takeString(TessBaseAPIGetUTF8Text(handle)) ?? ""
        let confidence = Double(TessBaseAPIMeanTextConf(handle))
        let words = ResultIterator(TessBaseAPIGetIterator(handle))?.words() ?? []
        let tsv = wantTSV ? takeString(TessBaseAPIGetTsvText(handle, Int32(pageNumber - 1))) : nil
        let hocr = wantHOCR ? takeString(TessBaseAPIGetHOCRText(handle, Int32(pageNumber - 1))) : nil
        return EngineOutput(text: text, confidence: max(confidence, 0), words: words, tsv: tsv, hocr: hocr)
    }

    static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }
}

/// Takes ownership of a string Tesseract allocated, copying it and freeing the original.
private func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { TessDeleteText(pointer) }
    return String(cString: pointer)
}

/// The owner of one `TessResultIterator`, deleted in `deinit` with the result-iterator deleter.
private final class ResultIterator {
    private let handle: OpaquePointer

    init?(_ handle: OpaquePointer?) {
        guard let handle else { return nil }
        self.handle = handle
    }

    deinit { TessResultIteratorDelete(handle) }

    /// Every word on the page with its confidence and box.
    func words() -> [RecognizedWord] {
        var words: [RecognizedWord] = []
        let level = RIL_WORD
        repeat {
            guard let text = takeString(TessResultIteratorGetUTF8Text(handle, level)) else { continue }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            let pageIterator = TessResultIteratorGetPageIteratorConst(handle)
            guard TessPageIteratorBoundingBox(pageIterator, level, &l, &t, &r, &b) != 0 else { continue }
            let confidence = Double(TessResultIteratorConfidence(handle, level))
            words.append(RecognizedWord(
                text: trimmed, confidence: confidence,
                box: WordBox(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t))))
        } while TessResultIteratorNext(handle, level) != 0
        return words
    }
}

/// A flag that a running recognition polls to stop early.
public final class CancellationFlag: Sendable {
    private let state = AtomicFlag()
    public init() {}
    public var isSet: Bool { state.value }
    public func set() { state.set() }
}

/// The owner of one `ETEXT_DESC` monitor, deleted in `deinit`. It carries the deadline and the
/// cancel callback into Tesseract.
private final class RecognitionMonitor {
    let pointer: OpaquePointer?
    private let cancel: CancellationFlag?

    init(deadline: Double?, cancel: CancellationFlag?) {
        self.cancel = cancel
        pointer = (deadline != nil || cancel != nil) ? TessMonitorCreate() : nil
        guard let pointer else { return }
        if let deadline {
            TessMonitorSetDeadlineMSecs(pointer, Int32(min(deadline * 1000, Double(Int32.max))))
        }
        if let cancel {
            // The flag outlives the call: this monitor holds it until deinit, after Recognize returns.
            TessMonitorSetCancelThis(pointer, Unmanaged.passUnretained(cancel).toOpaque())
            TessMonitorSetCancelFunc(pointer) { context, _ in
                guard let context else { return false }
                return Unmanaged<CancellationFlag>.fromOpaque(context).takeUnretainedValue().isSet
            }
        }
    }

    deinit {
        if let pointer { TessMonitorDelete(pointer) }
    }
}
