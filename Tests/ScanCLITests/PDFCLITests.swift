import CPoppler
import Foundation
import ImageInput
import ScanCore
import ScanTestSupport
import Testing
import TextRecognition

@Suite(.enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct PDFCLITests {
    @Test("a PDF of scanned pages reads with the same text as the same pages given as images")
    func sameAsImages() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scans = try ["clean.png", "lowres.png"].map { try ImageSource.open(path: CLI.sample($0)).page(0, luminanceOnly: true).image.grayscale() }
        let pdf = dir.appendingPathComponent("scans.pdf")
        try ImageFixtures.pdf(scans: scans.map { ($0.width, $0.height, $0.pixels) }).write(to: pdf)
        // One point per pixel rendered at 72 dpi gives each page's pixels back; both runs tell
        // Tesseract the same resolution.
        let fromPDF = try await CLI.run(["--dpi", "300", "--pdf-dpi", "72", "--format", "jsonl", pdf.path])
        let fromImages = try await CLI.run(["--dpi", "300", "--format", "jsonl", CLI.sample("clean.png"), CLI.sample("lowres.png")])
        #expect(fromPDF.status == 0 && fromImages.status == 0, "\(fromPDF.stderr)")
        func texts(_ run: CLIRun) throws -> [String] {
            try run.stdout.split(separator: "\n").map { try #require((try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["text"] as? String) }
        }
        let pdfTexts = try texts(fromPDF)
        #expect(pdfTexts.count == 2)
        #expect(pdfTexts == (try texts(fromImages)))
        #expect(fromPDF.stdout.contains(#""pdf_page":{"dpi":72,"height_pt":900,"width_pt":1200}"#))
    }

    @Test("bad PDFs among good inputs: one line each, the others read, exit 1; -r takes PDFs")
    func badPDFs() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = ImageFixtures.pdf(pages: ["Read before the cut"])
        let files: [(String, Data)] = [
            ("a-encrypted.pdf", ImageFixtures.pdf(pages: ["secret"], encrypted: true)),
            ("b-empty.pdf", ImageFixtures.pdf(pages: [])),
            ("c-text.pdf", Data("not a pdf at all\n".utf8)),
            ("d-good.pdf", ImageFixtures.pdf(pages: ["Hello from a PDF"])),
            ("e-damaged.pdf", Data("%PDF-1.4\n1 0 obj\n<< broken\n%%EOF\n".utf8)),
            ("f-truncated.pdf", whole.prefix(whole.count - 6)),
            ("g-huge.pdf", ImageFixtures.pdf(pages: ["big"], mediaBox: (14400, 14400))),
        ]
        for (name, data) in files { try data.write(to: dir.appendingPathComponent(name)) }
        let r = try await CLI.run(["-r", dir.path, "--format", "jsonl"])
        #expect(r.status == 1)
        let lines = r.stderrLines.filter { !$0.contains(" done, ") }
        #expect(lines.count == 6, "\(r.stderr)")
        #expect(lines[0].contains("a-encrypted.pdf: is an encrypted PDF and needs a password; decrypt it first"))
        #expect(lines[1].contains("b-empty.pdf: is a PDF with no pages"))
        #expect(lines[2].contains("c-text.pdf: is not an image or PDF scantext can read"))
        #expect(lines[3].contains("e-damaged.pdf: is a damaged PDF"))
        #expect(lines[4].contains("f-truncated.pdf: is truncated: the PDF ends before its %%EOF marker"))
        #expect(lines[5].contains("g-huge.pdf: is 60000×60000 pixels, over the limit of 250 megapixels"))
        #expect(r.stdout.contains("Hello from a PDF") && r.stdout.contains("before the cut"))
        // A PDF on standard input is read like a file.
        let piped = try await CLI.run(["-"], stdin: ImageFixtures.pdf(pages: ["Piped PDF page"]))
        #expect(piped.status == 0 && piped.stdout.contains("Piped PDF page"), "\(piped.stderr)")
    }
}

@Suite(.enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct SearchablePDFTests {
    /// Each page's text layer, as a viewer's text selection or pdftotext reads it.
    static func textLayer(_ pdf: Data) -> [String] {
        pdf.withUnsafeBytes { raw -> [String] in
            let bytes = g_bytes_new(raw.baseAddress, gsize(raw.count))
            defer { g_bytes_unref(bytes) }
            guard let document = poppler_document_new_from_bytes(bytes, nil, nil) else { return [] }
            defer { g_object_unref(UnsafeMutableRawPointer(document)) }
            return (0..<poppler_document_get_n_pages(document)).map { i in
                guard let page = poppler_document_get_page(document, i) else { return "" }
                defer { g_object_unref(UnsafeMutableRawPointer(page)) }
                guard let text = poppler_page_get_text(page) else { return "" }
                defer { g_free(text) }
                return String(cString: text)
            }
        }
    }

    @Test("--format pdf: one searchable page per input page, of the page's size, its words in the text layer")
    func pages() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = [CLI.sample("clean.png"), CLI.sample("multipage.tif")]
        let text = try await CLI.run(inputs)
        let pdf = try await CLI.run(["--format", "pdf", "-o", dir.path] + inputs)
        #expect(text.status == 0 && pdf.status == 0, "\(pdf.stderr)")
        let clean = try Data(contentsOf: dir.appendingPathComponent("clean.pdf"))
        let multipage = try Data(contentsOf: dir.appendingPathComponent("multipage.pdf"))
        let layers = Self.textLayer(clean) + Self.textLayer(multipage)
        #expect(layers.count == 4)
        // The words scantext recognised are the words the text layer gives back.
        for (recognised, layer) in zip(text.stdout.components(separatedBy: "\u{0C}"), layers) {
            let words = recognised.split(whereSeparator: \.isWhitespace).map(String.init)
            var found = Dictionary(layer.split(whereSeparator: \.isWhitespace).map { (String($0), 1) }, uniquingKeysWith: +)
            let recalled = words.filter { word in
                guard let n = found[word], n > 0 else { return false }
                found[word] = n - 1
                return true
            }.count
            #expect(Double(recalled) / Double(max(1, words.count)) >= 0.98, "\(recalled) of \(words.count) words")
        }
        // Pages keep their size: the sample page records 200 dpi, so its 1200x900 pixels are a
        // page of 432 x 324 points, which renders at 200 dpi as the same pixels.
        let source = try ImageSource(name: "clean.pdf", data: clean, pdfResolution: 200)
        let page = try source.page(0)
        #expect(abs(page.image.width - 1200) <= 2 && abs(page.image.height - 900) <= 2, "\(page.image.width)x\(page.image.height)")
    }

    @Test("a scanned PDF in, searchable PDF out: each page keeps its own pixels and size, the recognised words laid over it")
    func scannedPDF() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scans = try ["clean.png", "lowres.png"].map { try ImageSource.open(path: CLI.sample($0)).page(0, luminanceOnly: true).image.grayscale() }
        let input = dir.appendingPathComponent("scans.pdf")
        try ImageFixtures.pdf(scans: scans.map { ($0.width, $0.height, $0.pixels) }, dpi: 150).write(to: input)
        let text = try await CLI.run(["--dpi", "150", input.path])
        let pdf = try await CLI.run(["--dpi", "150", "--format", "pdf", "-o", dir.appendingPathComponent("out").path, input.path])
        #expect(text.status == 0 && pdf.status == 0, "\(pdf.stderr)")
        let output = try Data(contentsOf: dir.appendingPathComponent("out/scans.pdf"))
        let before = try ImageSource(name: "scans.pdf", data: Data(contentsOf: input)), after = try ImageSource(name: "out.pdf", data: output)
        #expect(after.pageCount == 2)
        for i in 0..<2 {
            // Lossless: rendered at the scan's resolution, the page gives the scan's pixels back
            // (Tesseract's own page image would be a JPEG), at the page's size in points.
            let page = try after.page(i, luminanceOnly: true)
            #expect(page.rendering == (try before.page(i, luminanceOnly: true)).rendering)
            #expect(page.image.width == scans[i].width && page.image.pixels == scans[i].pixels)
        }
        let layers = Self.textLayer(output)
        for (recognised, layer) in zip(text.stdout.components(separatedBy: "\u{0C}"), layers) {
            let words = recognised.split(whereSeparator: \.isWhitespace).map(String.init)
            let found = Set(layer.split(whereSeparator: \.isWhitespace).map(String.init))
            #expect(words.count > 5 && words.filter(found.contains).count == words.count, "\(words) against \(layer)")
        }
    }

    @Test("a page with a rule through its text: the PDF shows the rule Tesseract read without")
    func ruleStaysInPDF() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var page = try ImageSource.open(path: CLI.sample("clean.png")).page(0, luminanceOnly: true).image
        // A 4-pixel rule down the middle of the text, clear of the image's edges: print on both
        // sides, so the copy Tesseract reads has it erased.
        let x0 = page.width / 2 & ~1
        for y in 100..<(page.height - 100) { for x in x0..<(x0 + 4) { page.pixels[y * page.width + x] = 0 } }
        let path = dir.appendingPathComponent("ruled.png")
        try #require(PNGEncoder.encode(page)).write(to: path)
        let r = try await CLI.run(["--dpi", "300", "--no-upscale", "--format", "pdf", path.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.textLayer(r.stdoutData).first?.contains("Annual") == true)
        let rendered = try ImageSource(name: "out.pdf", data: r.stdoutData, pdfResolution: 300).page(0, luminanceOnly: true).image
        try #require(rendered.width == page.width && rendered.height == page.height, "\(rendered.width)x\(rendered.height)")
        let column = (200..<(page.height - 200)).map { Int(rendered.pixels[$0 * rendered.width + x0 + 1]) }
        #expect(column.reduce(0, +) / column.count < 60, "the rule is gone from the PDF's image")
    }

    @Test("photos in, one PDF out on stdout: its pages are the flattened pages")
    func photos() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = try ImageSource.open(path: CLI.sample("clean.png")).page(0).image
        let corners = Quad(topLeft: Point(260, 140), topRight: Point(1500, 190), bottomRight: Point(1460, 1130), bottomLeft: Point(220, 1080))
        let photo = try SyntheticPhoto.make(page: page, corners: corners, width: 1800, height: 1300, background: .dark)
        let path = dir.appendingPathComponent("photo.png")
        try #require(PNGEncoder.encode(photo)).write(to: path)
        let flat = dir.appendingPathComponent("flat")
        let saved = try await CLI.run(["--save-pages", flat.path, "--format", "none", path.path])
        #expect(saved.status == 0)
        let flattened = try ImageSource.open(path: flat.appendingPathComponent("photo.png").path).page(0).image
        let r = try await CLI.run(["--format", "pdf", path.path, CLI.sample("lowres.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutData.starts(with: Data("%PDF-".utf8)))
        #expect(Self.textLayer(r.stdoutData).count == 2)
        #expect(Self.textLayer(r.stdoutData).first?.contains("Annual") == true)
        // The first page is the flattened page: its size in pixels, as Tesseract was told no
        // resolution for a rectified photo and wrote it at 70 dpi.
        let rendered = try ImageSource(name: "out.pdf", data: r.stdoutData, pdfResolution: 70).page(0).image
        #expect(abs(rendered.width - flattened.width) <= 2 && abs(rendered.height - flattened.height) <= 2,
                "\(rendered.width)x\(rendered.height) against \(flattened.width)x\(flattened.height)")
    }
}

@Suite(.enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct ExistingPDFTextTests {
    @Test("--pdf-text use takes a born-digital page's own text, recognises only pages without text, and copies text pages into --format pdf unchanged")
    func useExistingText() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let born = dir.appendingPathComponent("born.pdf")
        try ImageFixtures.pdf(pages: ["Exact digital text one", "Exact digital text two"]).write(to: born)
        let scan = try ImageSource.open(path: CLI.sample("lowres.png")).page(0, luminanceOnly: true).image
        let scanned = dir.appendingPathComponent("scanned.pdf")
        try ImageFixtures.pdf(scans: [(scan.width, scan.height, scan.pixels)]).write(to: scanned)

        // Its own temporary directory, to see that nothing is left there.
        let scratch = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let tmp = ["TMPDIR": scratch.path + "/"]
        let r = try await CLI.run(["--pdf-text", "use", "--format", "jsonl", born.path, scanned.path], environment: tmp)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try r.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.count == 3)
        #expect((records[0]["text"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) == "Exact digital text one")
        #expect(records[0]["text_source"] as? String == "pdf" && records[1]["text_source"] as? String == "pdf")
        #expect(records[2]["text_source"] == nil && ((records[2]["words"] as? [Any])?.count ?? 0) > 5)
        // By default every page is recognised from its rendering.
        let ocr = try await CLI.run(["--format", "jsonl", born.path])
        #expect(!ocr.stdout.contains("text_source"))

        let out = dir.appendingPathComponent("out")
        let pdf = try await CLI.run(["--pdf-text", "use", "--format", "pdf", "-o", out.path, born.path], environment: tmp)
        #expect(pdf.status == 0, "\(pdf.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "temporary files left behind")
        let layers = SearchablePDFTests.textLayer(try Data(contentsOf: out.appendingPathComponent("born.pdf")))
        #expect(layers.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } == ["Exact digital text one", "Exact digital text two"])
    }
}
