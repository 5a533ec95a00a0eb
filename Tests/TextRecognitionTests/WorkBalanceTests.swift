import Foundation
import ImageInput
import ScanCore
import ScanTestSupport
import Testing
@testable import TextRecognition

@Suite struct WorkBalanceTests {
    let balance = WorkBalance(prepare: 0.04, recognize: 0.5)

    @Test("the predicted schedule gives each page to the worker free first")
    func finish() {
        let b = WorkBalance(prepare: 0.1, recognize: 1)
        // Worker 0 takes pages 1 and 3 (0 → 1.1 → 2.2), worker 1 page 2 (0.3 → 1.4).
        #expect(abs(b.finish(workers: [0, 0.3], ready: 0, unprepared: 3) - 2.2) < 1e-9)
        // A prepared page skips the preparation: worker 0 recognises it (0 → 1), worker 1
        // prepares and recognises the other (0.3 → 1.4).
        #expect(abs(b.finish(workers: [0, 0.3], ready: 1, unprepared: 1) - 1.4) < 1e-9)
        #expect(b.finish(workers: [0.7], ready: 0, unprepared: 0) == 0.7)
    }

    @Test("a worker well ahead prepares the last page for the one behind")
    func aheadPrepares() {
        // The other worker is free 0.3 s from now. Recognising now ends at 0.3 + 0.54 = 0.84;
        // preparing first leaves it only a recognition (0.8) and ends this worker at 0.54.
        #expect(balance.preparesFirst(now: 0, others: [0.3], ready: 1, unprepared: 1))
    }

    @Test("workers in step, a lone worker, or nothing left to prepare: recognise now")
    func recognisesNow() {
        // The other is free now too: both orders end at 0.54.
        #expect(!balance.preparesFirst(now: 0, others: [0], ready: 1, unprepared: 1))
        #expect(!balance.preparesFirst(now: 0, others: [], ready: 1, unprepared: 5))
        #expect(!balance.preparesFirst(now: 0, others: [0.3], ready: 1, unprepared: 0))
        #expect(!balance.preparesFirst(now: 0, others: [0.3], ready: 0, unprepared: 2))
        // Far from the end, shifting one preparation changes nothing the margin counts.
        #expect(!balance.preparesFirst(now: 0, others: [0.01], ready: 1, unprepared: 6))
    }

    @Test("running means")
    func runningMean() {
        var m = RunningMean()
        #expect(m.mean == nil)
        m.add(1)
        m.add(2)
        #expect(m.mean == 1.5 && m.count == 2)
    }
}

@Suite(.enabled(if: Fixtures.hasEnglish, "English language data is not installed"))
struct PreparedPageTests {
    @Test("a page prepared by one worker and recognised by another reads as if one did both")
    func handOver() throws {
        let quad = Quad(topLeft: Point(100, 50), topRight: Point(1100, 50), bottomRight: Point(1100, 850), bottomLeft: Point(100, 850))
        let options = RecognitionOptions(jobs: 2, crop: .quad(quad))
        let image = try ImageSource.open(path: Fixtures.sample("clean.png"))
        let job = PageJob(sequence: 0, inputIndex: 0, source: "clean.png", page: 1, work: .decode(image, index: 0), pagesInSource: 1)
        let preparer = PageWorker(options: options, cancel: CancellationFlag())
        let recogniser = PageWorker(options: options, cancel: CancellationFlag())
        guard case .ready(let prepared) = preparer.prepare(job), case .ready(let again) = recogniser.prepare(job) else {
            Issue.record("the page did not come back prepared")
            return
        }
        let alone = recogniser.recognize(again)
        let handedOver = recogniser.recognize(prepared)
        #expect(alone.error == nil && handedOver.error == nil)
        #expect(!alone.text.isEmpty)
        #expect(handedOver.text == alone.text)
        #expect(handedOver.words == alone.words)
        // The crop's 1000 pixels, its 15-pixel characters scaled up to 20.
        #expect(handedOver.quad == quad && handedOver.pageWidth == 1333)
        #expect(handedOver.timings.decode > 0 && handedOver.timings.recognize > 0)
    }

    @Test("a failed page comes back finished from preparation, named")
    func failedPreparation() throws {
        let options = RecognitionOptions(jobs: 1, crop: .none)
        let error = RecognitionError(.notFound, source: nil, "no such file", remedy: "check the path")
        let job = PageJob(sequence: 0, inputIndex: 0, source: "gone.png", page: 1, work: .failed(error), pagesInSource: 1)
        guard case .finished(let result) = PageWorker(options: options, cancel: CancellationFlag()).prepare(job) else {
            Issue.record("a failed page was handed on for recognition")
            return
        }
        #expect(result.error?.code == .notFound && result.error?.source == "gone.png")
    }

    @Test("pages prepared ahead by any worker come back in order, all read")
    func preparedAhead() async throws {
        let recognizer = try TextRecognizer(
            options: RecognitionOptions(jobs: 2, crop: .none),
            hooks: PipelineHooks(simulatedDelay: { sequence in Double((sequence * 7919) % 3) * 0.02 }, alwaysPrepareAhead: true))
        let pages = await recognizer.recognize(RecognizerTests.inputs)
        #expect(pages.map(\.sequence) == Array(0..<12))
        #expect(pages.allSatisfy { $0.error == nil })
        let truths = try Fixtures.groundTruth("multipage.txt").components(separatedBy: "\u{0C}")
        for page in pages { #expect(TextScore.cer(page.text, truths[page.page - 1]) < 0.03) }
    }
}
