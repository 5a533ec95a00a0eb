#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PagePreparation
import ScanCore

/// One worker of the recognizer: it owns one Tesseract engine, made on first use (or borrowed
/// from a pool) and reused for every page this worker recognises. It never leaves the Dispatch
/// block that created it.
final class PageWorker {
    private let options: RecognitionOptions
    private let cancel: CancellationFlag
    private let hooks: PipelineHooks
    private let preparing: JobPreparer
    private let pool: EnginePool?
    private var engine: Result<TesseractEngine, RecognitionError>?
    private let ruleEraser = RuleEraser()

    init(options: RecognitionOptions, cancel: CancellationFlag, pool: EnginePool? = nil, hooks: PipelineHooks = PipelineHooks()) {
        self.options = options
        self.cancel = cancel
        self.pool = pool
        self.hooks = hooks
        preparing = JobPreparer(crop: options.crop, rotation: options.rotation, deskew: options.deskew, upscale: options.upscale,
                                limits: options.limits, keepsImages: options.keepsPreparedImages,
                                usesExistingText: options.pdfText == .use, laysTextOverPDFPages: options.renderings.contains(.pdf))
    }

    private func startedEngine() throws(RecognitionError) -> TesseractEngine {
        if engine == nil {
            do throws(RecognitionError) {
                if let pool {
                    guard let borrowed = try pool.borrow(options.engine, cancel: cancel) else {
                        throw RecognitionError(.cancelled, source: nil, "cancelled before an engine was free", remedy: "")
                    }
                    engine = .success(borrowed)
                } else {
                    engine = .success(try TesseractEngine(options.engine))
                }
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

    /// Gives a borrowed engine back to its pool; the worker is done.
    func finish() {
        if let pool, case .success(let borrowed)? = engine { pool.giveBack(borrowed) }
        engine = nil
    }

    /// Decodes the page, finds its outline and flattens it: everything before Tesseract. A page
    /// that failed comes back finished.
    func prepare(_ job: PageJob) -> Preparation {
        if let delay = hooks.simulatedDelay?(job.sequence), delay > 0 {
            usleep(UInt32(delay * 1_000_000))
        }
        let (result, page) = preparing.run(job, flatten: true)
        guard let page else { return .finished(result) }
        return .ready(PreparedPage(result: result, page: page, name: job.name))
    }

    /// Recognises a prepared page with this worker's engine. The page may have been prepared by
    /// another worker.
    func recognize(_ prepared: PreparedPage) -> RecognizedPage {
        var result = prepared.result
        do throws(RecognitionError) {
            try recognize(prepared, into: &result)
        } catch {
            return result.failed(error, name: prepared.name)
        }
        return result
    }

    private func recognize(_ prepared: PreparedPage, into result: inout RecognizedPage) throws(RecognitionError) {
        var clock = Stopwatch()
        var page = prepared.page

        // A file's resolution describes the file's pixels; after a warp it no longer applies.
        let resolution = options.dpi ?? page.currentResolution
        let engine = try startedEngine()
        result.timings.engine = clock.lap()
        if let legible = result.legibility, legible.uprightUnsure, let bounds = legible.textBounds {
            // The band is in the page's pixels as scaled; so is the character height it is cut by.
            settleWayUp(&page, bounds: bounds, characterHeight: (legible.geometry?.characterHeight ?? 20) * legible.scale,
                        engine: engine, resolution: resolution, result: &result)
            result.timings.upright += clock.lap()
        }
        var renderings = options.renderings
        if result.textLayerPage != nil, renderings.remove(.pdf) != nil { renderings.insert(.pdfTextLayer) }
        // Tesseract reads the page without its table rules; the page as shown (in a PDF) keeps them.
        let erased = result.legibility.flatMap { legible -> PixelBuffer? in
            guard let g = legible.geometry, legible.linesRunAcross else { return nil }
            return ruleEraser.erased(page.image, characterHeight: g.characterHeight * legible.scale)?.image
        }
        let output: EngineOutput
        do throws(RecognitionError) {
            output = try engine.recognize(
                erased ?? page.image, shown: erased == nil ? nil : page.image, resolution: resolution, deadline: options.pageTimeout,
                pageNumber: result.page, renderings: renderings, cancel: cancel)
        } catch {
            throw error.about(prepared.name)
        }
        result.timings.recognize = clock.lap()
        result.text = output.text
        result.confidence = output.confidence
        result.layout = output.layout
        result.tsv = output.tsv
        result.hocr = output.hocr
        result.alto = output.alto
        result.pdf = output.pdf
        let toSource = page.keepsSourceGeometry ? nil : try? page.sourceToCurrent.inverted()
        result.words = output.words.map { word in
            var w = word
            w.sourceBox = toSource.map { word.box.mapped(through: $0) } ?? word.box
            return w
        }
    }
}

extension PageWorker {
    /// Reading must be this many points of mean confidence better half-turned before an unsure
    /// page is turned: upright text reads 20 or more points above its upside-down self.
    static let halfTurnMargin = 10.0
    /// ...and read at least this well: under it Tesseract reads neither way as text (a band of
    /// a table's grid), and the up-down evidence's own answer stands.
    static let legibleReading = 30.0

    /// Whether reading shows an unsure page upside down.
    static func readsBetterHalfTurned(asIs: Double, halfTurned: Double) -> Bool {
        halfTurned > asIs + halfTurnMargin && halfTurned >= legibleReading
    }

    /// Whether a band read this well as it stands could still read better half-turned: mean
    /// confidence stops at 100, so one within the margin of it has settled the way up alone.
    static func halfTurnCouldWin(asIs: Double) -> Bool {
        asIs + halfTurnMargin < 100
    }

    /// Settles whether a page whose lines run across stands upright or upside down, by which
    /// way Tesseract reads a band of its text (about eight lines, from the middle) better.
    func settleWayUp(_ page: inout ScanPage, bounds: TextGeometry.Bounds, characterHeight: Double,
                     engine: TesseractEngine, resolution: Int?, result: inout RecognizedPage) {
        let height = min(bounds.maxY - bounds.minY, 16 * characterHeight)
        let top = (bounds.minY + bounds.maxY - height) / 2
        let band = page.image.cropped(x: Int(bounds.minX), y: Int(top), width: Int(bounds.maxX - bounds.minX), height: Int(height))
        let asIs = engine.readingConfidence(of: band, resolution: resolution, deadline: options.pageTimeout, cancel: cancel)
        guard Self.halfTurnCouldWin(asIs: asIs) else {
            result.uprightCheck = (asIs, nil)
            return
        }
        let halfTurned = engine.readingConfidence(
            of: band.reoriented(exif: 3), resolution: resolution, deadline: options.pageTimeout, cancel: cancel)
        result.uprightCheck = (asIs, halfTurned)
        guard Self.readsBetterHalfTurned(asIs: asIs, halfTurned: halfTurned) else { return }
        page.turn(quarterTurns: 2)
        result.steps = page.steps
        // The page no longer keeps its source geometry: no text layer over the original.
        result.textLayerPage = nil
        if options.keepsPreparedImages { result.correctedImage = page.image }
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
    /// Failed: the result is final.
    case finished(RecognizedPage)
    case ready(PreparedPage)
}

/// Hooks for the tests, which no caller outside the module can set.
struct PipelineHooks: Sendable {
    /// Seconds to sleep before preparing the page at this run position.
    var simulatedDelay: (@Sendable (Int) -> Double)?
    /// A free worker prepares pages ahead whenever the window has room, whatever `WorkBalance`
    /// predicts, so that most pages are recognised by a worker that did not prepare them.
    var alwaysPrepareAhead = false
}
