import Foundation
import ScanTestSupport
import ScanCore
import Testing
@testable import TextRecognition

@Suite(.enabled(if: Fixtures.hasEnglish, "English language data is not installed"))
struct EngineTests {
    @Test("samples are read within their CER bounds", arguments: [
        ("clean.png", "clean.txt", 0.02),
        ("lowres.png", "lowres.txt", 0.08),
        ("noisy.jpg", "noisy.txt", 0.05),
    ])
    func cerBounds(_ image: String, _ truth: String, _ bound: Double) throws {
        let engine = try TesseractEngine(EngineConfiguration())
        let page = try ImageSource.open(path: Fixtures.sample(image)).page(0)
        let output = try engine.recognize(page.image, resolution: page.resolution, deadline: nil, pageNumber: 1,
                                          wantTSV: false, wantHOCR: false, cancel: nil)
        let cer = TextScore.cer(output.text, try Fixtures.groundTruth(truth))
        #expect(cer <= bound, "CER \(cer) on \(image)")
        #expect(output.confidence > 50)
        #expect(output.words.count > 20)
        #expect(output.words.allSatisfy { $0.box.width > 0 && $0.box.height > 0 })
    }

    @Test("one engine is reused across pages and renders TSV and hOCR")
    func reuse() throws {
        let engine = try TesseractEngine(EngineConfiguration())
        let source = try ImageSource.open(path: Fixtures.sample("multipage.tif"))
        let truths = try Fixtures.groundTruth("multipage.txt").components(separatedBy: "\u{0C}")
        for i in 0..<3 {
            let page = try source.page(i)
            let output = try engine.recognize(page.image, resolution: page.resolution, deadline: nil, pageNumber: i + 1,
                                              wantTSV: true, wantHOCR: true, cancel: nil)
            #expect(TextScore.cer(output.text, truths[i]) < 0.03)
            #expect(output.tsv?.contains("\t\(i + 1)\t") == true)
            #expect(output.hocr?.contains("ocr_page") == true)
        }
    }

    @Test("missing language data names the Debian package")
    func missingLanguage() {
        #expect { try TesseractEngine(EngineConfiguration(languages: "zzz")) } throws: {
            let e = $0 as? RecognitionError
            return e?.code == .missingLanguage && e?.message.contains("tesseract-ocr-zzz") == true
        }
        #expect(EngineConfiguration.debianPackage(for: "chi_sim") == "tesseract-ocr-chi-sim")
        #expect { try EngineConfiguration(tessdataDirectory: "/nonexistent").validate() } throws: {
            ($0 as? RecognitionError)?.message.contains("--tessdata") == true
        }
    }

    @Test("a page over its deadline becomes a timeout error")
    func deadline() throws {
        let engine = try TesseractEngine(EngineConfiguration())
        let page = try ImageSource.open(path: Fixtures.sample("clean.png")).page(0)
        #expect { try engine.recognize(page.image, resolution: 200, deadline: 0.001, pageNumber: 1, wantTSV: false, wantHOCR: false, cancel: nil) } throws: {
            ($0 as? RecognitionError)?.code == .timedOut
        }
    }
}

@Suite(.enabled(if: Fixtures.hasCorpus, "../shared/corpus is not present"))
struct FlatScanCorpusTests {
    @Test("no flat scan in the corpus (receipts, pages) is cropped", arguments: ["receipts", "pages"])
    func flatScansPassThrough(_ set: String) throws {
        let folder = Fixtures.corpus + "/\(set)/images"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.count >= 10)
        let detector = PageDetector()
        for name in files {
            let page = try ImageSource.open(path: folder + "/" + name).page(0, luminanceOnly: true)
            #expect(detector.detect(in: page.image) == nil, "\(set)/\(name) was given a page outline")
        }
    }
}
