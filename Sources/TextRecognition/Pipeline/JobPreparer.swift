import Dispatch
import ImageInput
import PagePreparation
import ScanCore

/// Decodes a job's page and prepares it for recognition, recording its sizes, outline, steps
/// and stage times on its result. The recognizer's workers and the outline pipeline share it.
struct JobPreparer {
    let preparer: PagePreparer
    let limits: DecodeLimits
    /// Decode in colour where the file has it, and keep the prepared pixels on the result.
    let keepsImages: Bool
    /// Take a PDF page's own text instead of preparing it for recognition.
    let usesExistingText: Bool
    /// A searchable PDF is made: a PDF page that keeps its geometry keeps its own content too,
    /// under a text layer (`textLayerPage`).
    let laysTextOverPDFPages: Bool

    init(crop: CropMode, rotation: RotationMode = .none, deskew: DeskewMode = .none, upscale: Bool = false, limits: DecodeLimits,
         keepsImages: Bool, usesExistingText: Bool = false, laysTextOverPDFPages: Bool = false) {
        preparer = PagePreparer(crop: crop, rotation: rotation, deskew: deskew, upscale: upscale)
        self.limits = limits
        self.keepsImages = keepsImages
        self.usesExistingText = usesExistingText
        self.laysTextOverPDFPages = laysTextOverPDFPages
    }

    /// The result so far and, unless it failed or `flatten` is false (an outline is all that
    /// is wanted), the page ready for Tesseract.
    func run(_ job: PageJob, flatten: Bool) -> (result: RecognizedPage, page: ScanPage?) {
        var result = RecognizedPage(source: job.source, page: job.page, sequence: job.sequence, inputIndex: job.inputIndex)
        result.pagesInSource = job.pagesInSource
        if usesExistingText, case .decode(let image, let index) = job.work, let existing = image.existingText(ofPage: index) {
            // The page's own text, read instead of recognised: nothing rendered, no engine.
            result.text = existing.text
            result.confidence = 100
            result.rendering = existing.rendering
            result.width = existing.width
            result.height = existing.height
            result.pageWidth = existing.width
            result.pageHeight = existing.height
            result.originalPage = OriginalPDFPage(source: image, index: index)
            return (result, nil)
        }
        do throws(RecognitionError) {
            let page = try prepare(job, flatten: flatten, into: &result)
            return (result, page)
        } catch {
            return (result.failed(error, name: job.name), nil)
        }
    }

    private func prepare(_ job: PageJob, flatten: Bool, into result: inout RecognizedPage) throws(RecognitionError) -> ScanPage? {
        var clock = Stopwatch()
        var page: ScanPage
        switch job.work {
        case .failed(let error):
            throw error
        case .decoded(let decoded):
            page = decoded
        case .decode(let image, let index):
            do throws(InputError) {
                // Recognition reads grey; colour is kept only for pages saved as they are.
                page = try image.page(index, limits: limits, luminanceOnly: !keepsImages)
            } catch {
                throw RecognitionError(image.pageCount > 1 ? error.about(job.name) : error)
            }
        }
        result.timings.decode = clock.lap()
        result.width = page.image.width
        result.height = page.image.height
        result.rendering = page.rendering

        let outline = preparer.outline(of: page) { () -> PixelBuffer? in
            // Decoded grey for recognition; detection may ask for the colour the file has.
            guard case .decode(let image, let index) = job.work, !keepsImages, image.dropsColourWhenLuminanceOnly else { return nil }
            return try? image.page(index, limits: limits).image
        }
        result.detectionConfidence = outline.confidence
        result.timings.detect = clock.lap()
        guard flatten else {
            result.quad = outline.quad
            result.quadDetected = outline.quad != nil && outline.detected
            result.pageWidth = page.image.width
            result.pageHeight = page.image.height
            return nil
        }
        do throws(PreparationError) {
            try preparer.flatten(&page, along: outline)
        } catch {
            throw RecognitionError(error, source: job.name)
        }
        if outline.quad != nil {
            result.quad = page.quad
            result.quadDetected = outline.detected
        }
        result.timings.warp = clock.lap()
        do throws(PreparationError) {
            result.legibility = try preparer.makeLegible(&page)
        } catch {
            throw RecognitionError(error, source: job.name)
        }
        result.timings.upright = clock.lap()
        result.pageWidth = page.image.width
        result.pageHeight = page.image.height
        result.steps = page.steps
        if keepsImages { result.correctedImage = page.image }
        // An enlarged page keeps its frame: the text layer is laid over the page's own box.
        if laysTextOverPDFPages, page.keepsSourceFrame, case .decode(let image, let index) = job.work, image.takesTextLayer(page: index) {
            result.textLayerPage = OriginalPDFPage(source: image, index: index)
        }
        return page
    }
}

extension RecognizedPage {
    /// This result as a failure: no text, and the error naming the page.
    func failed(_ error: RecognitionError, name: String) -> RecognizedPage {
        var result = self
        result.error = error.source == nil ? error.about(name) : error
        result.text = ""
        result.words = []
        result.tsv = nil
        result.hocr = nil
        result.alto = nil
        result.pdf = nil
        result.textLayerPage = nil
        return result
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
