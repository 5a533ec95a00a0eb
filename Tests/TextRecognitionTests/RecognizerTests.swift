import Foundation
import ImageInput
import ScanTestSupport
import ScanCore
import Synchronization
import Testing
@testable import TextRecognition

@Suite(.enabled(if: Fixtures.hasEnglish, "English language data is not installed"))
struct RecognizerTests {
    /// Twelve pages: the multi-page TIFF four times.
    static var inputs: [RecognitionInput] { Array(repeating: RecognitionInput.file(Fixtures.sample("multipage.tif")), count: 4) }

    @Test("pages come back in order under random per-page delays")
    func order() async throws {
        let recognizer = try TextRecognizer(
            options: RecognitionOptions(jobs: 3, crop: .none),
            hooks: PipelineHooks(simulatedDelay: { sequence in Double((sequence * 7919) % 5) * 0.03 }))
        let pages = await recognizer.recognize(Self.inputs)
        #expect(pages.map(\.sequence) == Array(0..<12))
        #expect(pages.map(\.page) == Array(repeating: [1, 2, 3], count: 4).flatMap { $0 })
        #expect(pages.allSatisfy { $0.error == nil && !$0.text.isEmpty })
        let truths = try Fixtures.groundTruth("multipage.txt").components(separatedBy: "\u{0C}")
        for page in pages { #expect(TextScore.cer(page.text, truths[page.page - 1]) < 0.03) }
    }

    /// A PNG whole in structure (IHDR, IEND) with no image data: it opens, and fails to decode.
    static let pngWithoutPixels = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        + ImageFixtures.pngChunk("IHDR", [0, 0, 0, 8, 0, 0, 0, 8, 8, 0, 0, 0, 0]) + ImageFixtures.pngChunk("IEND", [])

    @Test("a failing input becomes an error result; the others are unaffected")
    func failure() async throws {
        let recognizer = try TextRecognizer(options: RecognitionOptions(jobs: 2, crop: .none))
        let pages = await recognizer.recognize([
            .file(Fixtures.sample("clean.png")), .file("/nonexistent.png"), .source(try ImageSource(name: "bad.png", data: Self.pngWithoutPixels)),
            .file(Fixtures.sample("lowres.png")),
        ].compactMap { $0 })
        #expect(pages.count == 4)
        #expect(pages[0].error == nil && pages[3].error == nil)
        #expect(pages[1].error?.code == .notFound)
        #expect(pages[2].error?.code == .corrupt)
        #expect(pages[1].text.isEmpty)
        #expect(TextScore.cer(pages[0].text, try Fixtures.groundTruth("clean.txt")) < 0.02)
    }

    @Test("the first page is delivered before the last one is recognised")
    func streaming() throws {
        // The last page is slow.
        let recognizer = try TextRecognizer(
            options: RecognitionOptions(jobs: 2, crop: .none), hooks: PipelineHooks(simulatedDelay: { $0 == 5 ? 1.5 : 0 }))
        let events = Mutex<[(Int, UInt64)]>([])
        let done = DispatchSemaphore(value: 0)
        recognizer.start(Array(repeating: RecognitionInput.file(Fixtures.sample("lowres.png")), count: 6), onPage: { page in
            events.withLock { $0.append((page.sequence, DispatchTime.now().uptimeNanoseconds)) }
        }) { _ in done.signal() }
        done.wait()
        let e = events.withLock { $0 }
        #expect(e.map(\.0) == Array(0..<6))
        // Page 1 arrived well before the slow last page was done.
        #expect(Double(e[5].1 - e[0].1) / 1e9 > 1.0)
    }

    @Test("completion follows every page")
    func completionFollowsEveryPage() throws {
        // Uneven pages, so that one worker stops well before the other.
        let recognizer = try TextRecognizer(
            options: RecognitionOptions(jobs: 2, crop: .none), hooks: PipelineHooks(simulatedDelay: { $0 == 3 ? 0.3 : 0 }))
        let delivered = Mutex(0)
        let atCompletion = Mutex<(delivered: Int, pages: Int)?>(nil)
        let done = DispatchSemaphore(value: 0)
        recognizer.start(Array(repeating: RecognitionInput.file(Fixtures.sample("lowres.png")), count: 4), onPage: { _ in
            delivered.withLock { $0 += 1 }
        }) { summary in
            atCompletion.withLock { $0 = (delivered.withLock { $0 }, summary.pages) }
            done.signal()
        }
        done.wait()
        let seen = try #require(atCompletion.withLock { $0 })
        #expect(seen.delivered == 4 && seen.pages == 4)
    }

    @Test("completion-handler, async and stream APIs agree")
    func apisAgree() async throws {
        let recognizer = try TextRecognizer(options: RecognitionOptions(jobs: 2, crop: .none))
        let source = try ImageSource.open(path: Fixtures.sample("multipage.tif"))
        let document = ScanDocument(source: "multipage.tif", pages: try (0..<3).map { try source.page($0) })
        let viaAsync = await recognizer.recognize(document)
        let viaHandler: [RecognizedPage] = await withCheckedContinuation { c in
            recognizer.recognizeText(in: document) { c.resume(returning: $0) }
        }
        var viaStream: [RecognizedPage] = []
        for await page in recognizer.pages([.document(document)]) { viaStream.append(page) }
        #expect(viaAsync.map(\.text) == viaHandler.map(\.text))
        #expect(viaAsync.map(\.text) == viaStream.map(\.text))
        #expect(viaAsync.map(\.page) == [1, 2, 3])
        #expect(viaAsync.allSatisfy { !$0.text.isEmpty })
    }

    @Test("word boxes map back to the source through the homography")
    func wordBoxesMapBack() async throws {
        let quad = Quad(topLeft: Point(100, 50), topRight: Point(1100, 50), bottomRight: Point(1100, 850), bottomLeft: Point(100, 850))
        var options = RecognitionOptions(jobs: 1, crop: .quad(quad))
        options.upscale = false
        let recognizer = try TextRecognizer(options: options)
        let pages = await recognizer.recognize([.file(Fixtures.sample("clean.png"))])
        let page = try #require(pages.first)
        #expect(page.quad == quad)
        #expect(page.pageWidth == 1000 && page.pageHeight == 800)
        let word = try #require(page.words.first)
        let sourceBox = try #require(word.sourceBox)
        #expect(abs(sourceBox.x - (word.box.x + 100)) <= 1)
        #expect(abs(sourceBox.y - (word.box.y + 50)) <= 1)
    }
}

@Suite struct DetectionInputTests {
    /// Mid-grey desk with a magenta card whose luma (BT.601) equals the desk's: an edge only in
    /// colour.
    static func isoluminantCard() throws -> PixelBuffer {
        let w = 640, h = 480
        var px = [UInt8](repeating: 128, count: w * h * 3)
        for y in 80..<400 {
            for x in 120..<520 {
                let i = (y * w + x) * 3
                px[i] = 255; px[i + 1] = 64; px[i + 2] = 128
            }
        }
        return try PixelBuffer(width: w, height: h, format: .rgb, pixels: px)
    }

    @Test("page detection reads brightness, then whiteness; a colour file gets one outline however it is decoded")
    func detectionReadsBrightnessThenWhiteness() async throws {
        // The card steps from the desk only in colour, and is darker than it in its least
        // channel: no paper. (Colour gradients would find it; the grey page does not.)
        let card = try Self.isoluminantCard()
        #expect(PageDetector().detect(in: card.grayscale()) == nil)
        #expect(PageDetector().detect(in: card) == nil)
        // A white page on a cream desk as bright as its paper is found by its whiteness: in a
        // colour PNG, decoded in colour for pages kept or not, and in a colour JPEG, decoded
        // grey with its colour asked for. Its grey copy shows no page.
        let corners = Quad(topLeft: Point(170, 95), topRight: Point(610, 130), bottomRight: Point(650, 700), bottomLeft: Point(120, 660))
        let cream = try SyntheticPhoto.make(
            page: SyntheticPhoto.textLikePage(width: 425, height: 550), corners: corners, width: 800, height: 800, background: .cream)
        var quads: [Quad?] = []
        for (name, data, keep) in [("card.png", try #require(PNGEncoder.encode(card)), false),
                                   ("cream.png", try #require(PNGEncoder.encode(cream)), false),
                                   ("cream.png", try #require(PNGEncoder.encode(cream)), true),
                                   ("cream.jpg", try #require(JPEGEncoder.encode(cream, quality: 95)), false),
                                   ("cream grey.png", try #require(PNGEncoder.encode(cream.grayscale())), false)] {
            let outliner = PageOutliner(options: PageOutliner.Options(jobs: 1, crop: .auto, flattens: keep))
            let pages = await outliner.outline([.source(try ImageSource(name: name, data: data))])
            let page = try #require(pages.first)
            #expect(page.error == nil)
            quads.append(page.quad)
        }
        #expect(quads[0] == nil && quads[4] == nil)
        let found = try #require(quads[1])
        #expect(quads[2] == found)
        #expect(SyntheticPhoto.cornerError(found, corners) < 8)
        let fromJPEG = try #require(quads[3])
        #expect(SyntheticPhoto.cornerError(fromJPEG, corners) < 10)
    }
}

extension PageOutliner {
    /// Every page's result, in order.
    func outline(_ inputs: [RecognitionInput]) async -> [RecognizedPage] {
        let collected = Mutex<[RecognizedPage]>([])
        return await withCheckedContinuation { continuation in
            start(inputs, onPage: { page in collected.withLock { $0.append(page) } }) { _ in
                continuation.resume(returning: collected.withLock { $0 })
            }
        }
    }
}

@Suite struct OutlinePipelineTests {
    @Test("outlines come back in input order, pages of multi-page files in page order, failures in place")
    func order() async throws {
        let inputs: [RecognitionInput] = [
            .file(Fixtures.sample("multipage.tif")), .file("/nonexistent.png"), .file(Fixtures.sample("noisy.jpg")),
            .file(Fixtures.sample("multipage.tif")),
        ]
        let pages = await PageOutliner(options: PageOutliner.Options(jobs: 3)).outline(inputs)
        #expect(pages.map(\.sequence) == Array(0..<8))
        #expect(pages.map(\.page) == [1, 2, 3, 1, 1, 1, 2, 3])
        #expect(pages.map(\.inputIndex) == [0, 0, 0, 1, 2, 3, 3, 3])
        #expect(pages[3].error?.code == .notFound)
        #expect(pages.filter { $0.error == nil }.allSatisfy { $0.text.isEmpty && $0.width > 0 && $0.correctedImage == nil })
    }

    @Test("flattening keeps the warped page; outlining alone keeps nothing")
    func flattens() async throws {
        let quad = Quad(topLeft: Point(100, 50), topRight: Point(1100, 50), bottomRight: Point(1100, 850), bottomLeft: Point(100, 850))
        let input = [RecognitionInput.file(Fixtures.sample("clean.png"))]
        let flat = try #require(await PageOutliner(options: .init(jobs: 1, crop: .quad(quad), flattens: true)).outline(input).first)
        #expect(flat.correctedImage?.width == 1000 && flat.correctedImage?.height == 800)
        #expect(flat.steps.contains { if case .perspective = $0 { true } else { false } })
        let outline = try #require(await PageOutliner(options: .init(jobs: 1, crop: .quad(quad))).outline(input).first)
        #expect(outline.correctedImage == nil && outline.quad == quad && outline.pageWidth == 1200)
    }
}

@Suite struct WayUpTests {
    @Test("an unsure page is turned half-way only when it reads clearly better, and legibly, that way",
          arguments: [(asIs: 30.0, halfTurned: 64.0, turns: true), (asIs: 45, halfTurned: 50, turns: false),
                      (asIs: 0, halfTurned: 11, turns: false), (asIs: 70, halfTurned: 30, turns: false)])
    func halfTurn(asIs: Double, halfTurned: Double, turns: Bool) {
        #expect(PageWorker.readsBetterHalfTurned(asIs: asIs, halfTurned: halfTurned) == turns)
    }

    @Test("a band that reads within the margin of full confidence as it stands is not read half-turned")
    func settledAsItStands() {
        #expect(PageWorker.halfTurnCouldWin(asIs: 85))
        #expect(!PageWorker.halfTurnCouldWin(asIs: 95))
        // Nothing half-turned can beat such a reading: the skip never changes the answer.
        for asIs in stride(from: 90.0, through: 100, by: 0.5) {
            #expect(!PageWorker.readsBetterHalfTurned(asIs: asIs, halfTurned: 100))
        }
    }
}
