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

    func process(_ job: PageJob) -> RecognizedPage {
        if let delay = options.simulatedDelay?(job.sequence), delay > 0 {
            usleep(UInt32(delay * 1_000_000))
        }
        var result = RecognizedPage(source: job.source, page: job.page, sequence: job.sequence, inputIndex: job.inputIndex)
        result.pagesInSource = job.pagesInSource
        do throws(RecognitionError) {
            try run(job, into: &result)
        } catch {
            result.error = error.source == nil ? error.about(pageName(job)) : error
            result.text = ""
            result.words = []
            result.tsv = nil
            result.hocr = nil
        }
        return result
    }

    /// `file` for a one-page source, `file (page N)` inside a multi-page one.
    private func pageName(_ job: PageJob) -> String {
        if case .decode(let image, _) = job.work, image.pageCount > 1 { return "\(job.source) (page \(job.page))" }
        return job.source
    }

    private func run(_ job: PageJob, into result: inout RecognizedPage) throws(RecognitionError) {
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
                throw image.pageCount > 1 ? error.about(pageName(job)) : error
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
            return
        }
        if let quad {
            do throws(ScanCoreError) {
                // The flattened page is grey in the end, so only one channel is warped.
                if page.image.format != .gray { try page.applyFilter("grey", grey ?? page.image.grayscale()) }
                try page.correctPerspective(quad, detected: options.crop == .auto, using: corrector)
            } catch {
                throw RecognitionError(
                    .geometry, source: pageName(job), "the page outline \(quad) cannot be rectified (\(error.message))",
                    remedy: "give four corners TL;TR;BR;BL of a convex outline, or use --crop none")
            }
            result.quad = page.quad
            result.quadDetected = options.crop == .auto
            // A rectified photo carries the photo's uneven light; flat scans are left as they are.
            do throws(ScanCoreError) {
                try page.applyFilter("illumination", illumination.flatten(page.image))
            } catch {
                throw RecognitionError(.geometry, source: pageName(job), error.message, remedy: "")
            }
        }
        result.timings.warp = clock.lap()
        result.pageWidth = page.image.width
        result.pageHeight = page.image.height
        result.steps = page.steps
        if options.keepCorrectedImages { result.correctedImage = page.image }
        if options.skipRecognition { return }

        // A file's resolution describes the file's pixels; after a warp it no longer applies.
        let resolution = options.dpi ?? (page.quad == nil ? page.resolution : nil)
        let engine = try startedEngine()
        result.timings.engine = clock.lap()
        let output: EngineOutput
        do throws(RecognitionError) {
            output = try engine.recognize(
                page.image, resolution: resolution, deadline: options.pageTimeout, pageNumber: job.page,
                wantTSV: options.renderTSV, wantHOCR: options.renderHOCR, cancel: cancel)
        } catch {
            throw error.about(pageName(job))
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
