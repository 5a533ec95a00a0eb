import Dispatch
import Foundation
import ScanCore

/// One worker of the recognizer: it owns one Tesseract engine, made on first use and reused for
/// every page this worker takes. It never leaves the Dispatch block that created it.
final class PageWorker {
    private let options: RecognitionOptions
    private let cancel: CancellationFlag
    private var engine: Result<TesseractEngine, RecognitionError>?
    private let detector = PageDetector()
    private let corrector = PerspectiveCorrector()
    private let illumination = IlluminationCorrector()

    init(options: RecognitionOptions, cancel: CancellationFlag) {
        self.options = options
        self.cancel = cancel
    }

    private func startedEngine() throws(RecognitionError) -> TesseractEngine {
        if engine == nil {
            do throws(RecognitionError) {
                engine = .success(try TesseractEngine(options.engine))
            } catch {
                engine = .failure(error)
            }
        }
        switch engine {
        case .success(let e)?: return e
        case .failure(let error)?: throw error
        case nil: throw RecognitionError(.engineFailed, source: nil, "no engine", remedy: "")
        }
    }

    /// Decodes the page, finds its outline and flattens it: everything before Tesseract. A page
    /// that failed, or that is not to be recognised, comes back finished.
    func prepare(_ job: PageJob) -> Preparation {
        if let delay = options.simulatedDelay?(job.sequence), delay > 0 {
            usleep(UInt32(delay * 1_000_000))
        }
        var result = RecognizedPage(source: job.source, page: job.page, sequence: job.sequence, inputIndex: job.inputIndex)
        result.pagesInSource = job.pagesInSource
        let name = pageName(job)
        do throws(RecognitionError) {
            guard let page = try prepare(job, named: name, into: &result) else { return .finished(result) }
            return .ready(PreparedPage(result: result, page: page, name: name))
        } catch {
            return .finished(Self.failed(result, error, name: name))
        }
    }

    /// Recognises a prepared page with this worker's engine. The page may have been prepared by
    /// another worker.
    func recognize(_ prepared: PreparedPage) -> RecognizedPage {
        var result = prepared.result
        do throws(RecognitionError) {
            try recognize(prepared, into: &result)
        } catch {
            return Self.failed(result, error, name: prepared.name)
        }
        return result
    }

    private static func failed(_ partial: RecognizedPage, _ error: RecognitionError, name: String) -> RecognizedPage {
        var result = partial
        result.error = error.source == nil ? error.about(name) : error
        result.text = ""
        result.words = []
        result.tsv = nil
        result.hocr = nil
        return result
    }

    /// `file` for a one-page source, `file (page N)` inside a multi-page one.
    private func pageName(_ job: PageJob) -> String {
        if case .decode(let image, _) = job.work, image.pageCount > 1 { return "\(job.source) (page \(job.page))" }
        return job.source
    }

    /// The page ready for Tesseract, or nil when the run stops before recognition.
    private func prepare(_ job: PageJob, named name: String, into result: inout RecognizedPage) throws(RecognitionError) -> ScanPage? {
        var clock = Stopwatch()
        var page: ScanPage
        switch job.work {
        case .failed(let error):
            throw error
        case .decoded(let decoded):
            page = decoded
        case .decode(let image, let index):
            do throws(RecognitionError) {
                // Recognition reads grey; colour is kept only for pages saved as they are.
                page = try image.page(index, limits: options.limits, luminanceOnly: !options.keepCorrectedImages)
            } catch {
                throw image.pageCount > 1 ? error.about(name) : error
            }
        }
        result.timings.decode = clock.lap()
        result.width = page.image.width
        result.height = page.image.height

        let quad: Quad?
        // The grey page, made once: detection reads it, and a rectified page is warped from it.
        var grey: PixelBuffer?
        switch options.crop {
        case .none:
            quad = nil
        case .quad(let given):
            quad = given
        case .auto:
            // Detection always reads grey, whatever the format and whether pages are saved in
            // colour, so a photo gets the same outline from every path. On the corpus's photos
            // the detector's colour gradients found worse outlines than grey (mean IoU 0.9457
            // against 0.9697, one photo at 0.55) and cropped a flat receipt.
            let image = page.image.format == .gray ? page.image : page.image.grayscale()
            grey = image
            let detection = detector.detect(in: image)
            result.detectionConfidence = detection?.confidence ?? 0
            quad = detection?.quad
        }
        result.timings.detect = clock.lap()
        // Detection only (no text, no saved pages): the quad is the answer; nothing to warp.
        if options.skipRecognition && !options.keepCorrectedImages {
            result.quad = quad
            result.quadDetected = quad != nil && options.crop == .auto
            result.pageWidth = page.image.width
            result.pageHeight = page.image.height
            return nil
        }
        if let quad {
            do throws(ScanCoreError) {
                // The flattened page is grey in the end, so only one channel is warped.
                if page.image.format != .gray { try page.applyFilter("grey", grey ?? page.image.grayscale()) }
                try page.correctPerspective(quad, detected: options.crop == .auto, using: corrector)
            } catch {
                throw RecognitionError(
                    .geometry, source: name, "the page outline \(quad) cannot be rectified (\(error.message))",
                    remedy: "give four corners TL;TR;BR;BL of a convex outline, or use --crop none")
            }
            result.quad = page.quad
            result.quadDetected = options.crop == .auto
            // A rectified photo carries the photo's uneven light; flat scans are left as they are.
            do throws(ScanCoreError) {
                try page.applyFilter("illumination") { illumination.flatten(&$0) }
            } catch {
                throw RecognitionError(.geometry, source: name, error.message, remedy: "")
            }
        }
        result.timings.warp = clock.lap()
        result.pageWidth = page.image.width
        result.pageHeight = page.image.height
        result.steps = page.steps
        if options.keepCorrectedImages { result.correctedImage = page.image }
        return options.skipRecognition ? nil : page
    }

    private func recognize(_ prepared: PreparedPage, into result: inout RecognizedPage) throws(RecognitionError) {
        var clock = Stopwatch()
        let page = prepared.page

        // A file's resolution describes the file's pixels; after a warp it no longer applies.
        let resolution = options.dpi ?? (page.quad == nil ? page.resolution : nil)
        let engine = try startedEngine()
        result.timings.engine = clock.lap()
        let output: EngineOutput
        do throws(RecognitionError) {
            output = try engine.recognize(
                page.image, resolution: resolution, deadline: options.pageTimeout, pageNumber: result.page,
                wantTSV: options.renderTSV, wantHOCR: options.renderHOCR, cancel: cancel)
        } catch {
            throw error.about(prepared.name)
        }
        result.timings.recognize = clock.lap()
        result.text = output.text
        result.confidence = output.confidence
        result.tsv = output.tsv
        result.hocr = output.hocr
        let toSource = page.quad == nil ? nil : try? page.sourceToCurrent.inverted()
        result.words = output.words.map { word in
            var w = word
            w.sourceBox = toSource.map { Self.map(word.box, through: $0) } ?? word.box
            return w
        }
    }

    /// The bounding box of a box's four corners mapped through `h`.
    static func map(_ box: WordBox, through h: Homography) -> WordBox {
        let corners = [
            Point(Double(box.x), Double(box.y)), Point(Double(box.x + box.width), Double(box.y)),
            Point(Double(box.x + box.width), Double(box.y + box.height)), Point(Double(box.x), Double(box.y + box.height)),
        ].compactMap { h.apply($0) }
        guard corners.count == 4 else { return box }
        let minX = corners.map(\.x).min() ?? 0, maxX = corners.map(\.x).max() ?? 0
        let minY = corners.map(\.y).min() ?? 0, maxY = corners.map(\.y).max() ?? 0
        return WordBox(x: Int(minX.rounded()), y: Int(minY.rounded()),
                       width: Int((maxX - minX).rounded()), height: Int((maxY - minY).rounded()))
    }
}

/// A page decoded, outlined and flattened, waiting for an engine. Any worker may recognise it.
struct PreparedPage: Sendable {
    /// The result so far: sizes, outline, steps and the timings of the stages done.
    let result: RecognizedPage
    let page: ScanPage
    /// How errors name the page.
    let name: String
}

/// What preparing a page gives.
enum Preparation: Sendable {
    /// Failed, or not to be recognised (detection only): the result is final.
    case finished(RecognizedPage)
    case ready(PreparedPage)
}

/// Measures consecutive stages.
struct Stopwatch {
    private var last = DispatchTime.now().uptimeNanoseconds

    /// Seconds since the last lap (or since creation).
    mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1e9
    }
}
