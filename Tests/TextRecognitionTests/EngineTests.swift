import CTesseractHooks
import Foundation
import ImageInput
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
                                          renderings: [], cancel: nil)
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
                                              renderings: [.tsv, .hocr, .alto], cancel: nil)
            #expect(TextScore.cer(output.text, truths[i]) < 0.03)
            #expect(output.tsv?.contains("\t\(i + 1)\t") == true)
            #expect(output.hocr?.contains("ocr_page") == true)
            #expect(output.alto?.contains("<Page ") == true && output.alto?.contains("ID=\"page_\(i)\"") == true)
        }
    }

    @Test("an engine keeps automatic layout (3), as the tesseract CLI does, unless told otherwise")
    func defaultSegmentation() throws {
        // The C API's own default is 6 (one block of text), which reads columns as one.
        #expect(try TesseractEngine(EngineConfiguration()).pageSegmentationMode == 3)
        #expect(try TesseractEngine(EngineConfiguration(pageSegmentationMode: 6)).pageSegmentationMode == 6)
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
        #expect { try engine.recognize(page.image, resolution: 200, deadline: 0.001, pageNumber: 1, renderings: [], cancel: nil) } throws: {
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

/// The hooks that spare Tesseract work which changes nothing in its results.
struct TesseractHookTests {
    /// A 320×200 grey page of stripes and a gradient: zlib shrinks it to a few kB.
    static let page: PixelBuffer = {
        var pixels = [UInt8](repeating: 255, count: 320 * 200)
        for y in 0..<200 where y % 20 < 6 {
            for x in 0..<320 { pixels[y * 320 + x] = UInt8(x * 255 / 319) }
        }
        return (try? PixelBuffer(width: 320, height: 200, format: .gray, pixels: pixels)) ?? PixelBuffer(width: 1, height: 1, format: .gray, fill: 0)
    }()

    @Test("Leptonica's PNG writer reaches scantext's level hook, which writes stored PNGs only while switched on")
    func storedOnlyWhenSwitchedOn() throws {
        #expect(scantext_line_images_hooked() == 1, "png_set_compression_level is not exported from the test binary")
        let compressed = try #require(PNGEncoder.encode(Self.page))
        scantext_line_images_stored(1)
        let stored = PNGEncoder.encode(Self.page)
        scantext_line_images_stored(0)
        let again = try #require(PNGEncoder.encode(Self.page))
        let storedBytes = try #require(stored)
        #expect(compressed.count < 8_000)
        #expect(storedBytes.count > 320 * 200, "\(storedBytes.count) bytes: still compressed")
        #expect(again == compressed)
        // Lossless both ways: the same pixels come back.
        for data in [compressed, storedBytes] {
            let back = try ImageSource(name: "line.png", data: data).page(0).image
            #expect(back.pixels == Self.page.pixels)
        }
    }

    @Test("Tesseract's OpenMP entry points resolve to scantext's hooks")
    func openMPHooked() {
        #expect(scantext_openmp_hooked() == 1, "the GOMP_* hooks are not exported from the test binary")
        #expect(scantext_openmp_is_inline() == 0)
    }

    /// What the executable installs when the libraries match (see scantext's TesseractHooks).
    static let hooks = RecognitionThreadHooks(
        coversOpenMP: true,
        enter: {
            scantext_line_images_stored(1)
            scantext_openmp_inline(1)
        },
        leave: {
            scantext_openmp_inline(0)
            scantext_line_images_stored(0)
        })

    @Test("libtesseract imports exactly the OpenMP functions the inline regions stand in for")
    func openMPImports() throws {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = scantext_tesseract_openmp_imports(&buffer, buffer.count)
        #expect(length > 0, "libtesseract's dynamic symbols could not be read")
        let imports = Set(String(decoding: buffer.prefix(max(0, length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: "\n").map(String.init))
        let hooked: Set = ["GOMP_parallel", "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait"]
        // An inline region answers these two as a team of one does.
        #expect(imports == hooked.union(["omp_get_thread_num", "omp_get_num_threads"]),
                "libtesseract's OpenMP imports changed: \(imports.sorted()); review CTesseractHooks before switching it on")
        #expect(scantext_openmp_imports_supported() == 1)
        #expect(scantext_line_images_written_by_leptonica() == 1)
    }

    @Test("the import reader finds a library's imports and refuses what it cannot read")
    func importReader() {
        var buffer = [CChar](repeating: 0, count: 4096)
        let prefixes = ["png_"]
        let found = prefixes.withUnsafeCStrings { scantext_library_imports("pixWriteMemPng", $0, 1, &buffer, buffer.count) }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(found > 0 && text.contains("png_set_compression_level\n"))
        let unknown = prefixes.withUnsafeCStrings { scantext_library_imports("no_such_symbol_anywhere", $0, 1, &buffer, buffer.count) }
        #expect(unknown == -1)
        let tooSmall = prefixes.withUnsafeCStrings { scantext_library_imports("pixWriteMemPng", $0, 1, &buffer, 4) }
        #expect(tooSmall == -1)
    }

    @Test("with the hooks on, recognition gives exactly what it gives with them off", .enabled(if: Fixtures.hasEnglish, "English language data is not installed"))
    func sameResults() throws {
        let engine = try TesseractEngine(EngineConfiguration(), threadHooks: Self.hooks)
        let plainEngine = try TesseractEngine(EngineConfiguration(), threadHooks: nil)
        let page = try ImageSource.open(path: Fixtures.sample("noisy.jpg")).page(0)
        func read(_ engine: TesseractEngine) throws -> EngineOutput {
            try engine.recognize(page.image, resolution: page.resolution, deadline: nil, pageNumber: 1,
                                 renderings: [.tsv], cancel: nil)
        }
        let before = scantext_openmp_inline_regions()
        let hooked = try read(engine)
        let inlined = scantext_openmp_inline_regions() - before
        #expect(scantext_line_images_are_stored() == 0, "the line-image switch is left on after recognition")
        #expect(scantext_openmp_is_inline() == 0, "the OpenMP switch is left on after recognition")
        // Every LSTM time step opens a region: thousands on a page.
        #expect(inlined > 1_000, "only \(inlined) OpenMP regions ran inline")

        let plain = try read(plainEngine)
        #expect(scantext_openmp_inline_regions() - before == inlined, "regions ran inline with the switch off")
        #expect(hooked.text == plain.text)
        #expect(hooked.words == plain.words)
        #expect(hooked.confidence == plain.confidence)
        #expect(hooked.tsv == plain.tsv)
        #expect(!hooked.words.isEmpty)
    }
}

extension Array where Element == String {
    /// The strings as a C array of C strings, for the duration of `body`.
    func withUnsafeCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
