import Foundation
@testable import ImageInput
import ScanCore
import ScanTestSupport
import Testing

@Suite struct PDFTests {
    @Test("a PDF is a multi-page source: each page rendered on demand at the resolution asked for")
    func pages() throws {
        let source = try ImageSource(name: "doc.pdf", data: ImageFixtures.pdf(pages: ["First page", "Second page"]))
        #expect(source.format == .pdf && source.pageCount == 2 && source.damage == nil)
        let page = try source.page(1, luminanceOnly: true)
        #expect(page.image.width == 2550 && page.image.height == 3300 && page.image.format == .gray)
        #expect(page.resolution == 300)
        #expect(page.rendering == PageRendering(widthPoints: 612, heightPoints: 792, dpi: 300))
        // Ink where the text is, white paper elsewhere.
        #expect(page.image.pixels.min() ?? 255 < 100 && page.image.pixels[0] == 255)
        let low = try ImageSource(name: "doc.pdf", data: ImageFixtures.pdf(pages: ["x"]), pdfResolution: 72).page(0)
        #expect(low.image.width == 612 && low.image.height == 792 && low.image.format == .rgb)
    }

    @Test("a page that is one scanned image is rendered at that image's resolution, read from its dictionary")
    func scanResolution() throws {
        let pixels = (0..<(300 * 200)).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let data = ImageFixtures.pdf(scans: [(300, 200, pixels)], dpi: 150)
        let page = try ImageSource(name: "scan.pdf", data: data).page(0, luminanceOnly: true)
        // 300 dpi asked for, but the scan has 150: its own pixels come back, not an enlargement.
        #expect(page.resolution == 150 && page.image.width == 300 && page.image.height == 200)
        #expect(page.image.pixels == pixels)
        let fine = try ImageSource(name: "scan.pdf", data: data, pdfResolution: 100).page(0)
        #expect(fine.resolution == 100 && fine.image.width == 200)

        try data.withUnsafeBytes { raw in
            let qpdf = try QPDF(borrowing: raw, name: "scan.pdf")
            let size = qpdf.soleImagePixels(ofPage: 0)
            #expect(size?.width == 300 && size?.height == 200)
            #expect(qpdf.soleImagePixels(ofPage: 1) == nil)
        }
        let text = ImageFixtures.pdf(pages: ["Only text"])
        try text.withUnsafeBytes { raw in
            let qpdf = try QPDF(borrowing: raw, name: "text.pdf")
            #expect(qpdf.soleImagePixels(ofPage: 0) == nil)
        }
    }

    @Test("bad PDFs are refused with one line that says what is wrong", arguments: [
        ("encrypted", ImageFixtures.pdf(pages: ["secret"], encrypted: true), InputError.Code.encrypted, "encrypted PDF and needs a password"),
        ("damaged", Data("%PDF-1.4\n1 0 obj\n<< garbage\n%%EOF\n".utf8), .corrupt, "damaged PDF"),
        ("no pages", ImageFixtures.pdf(pages: []), .corrupt, "no pages"),
    ])
    func badPDFs(_ label: String, _ data: Data, _ code: InputError.Code, _ fragment: String) {
        #expect { try ImageSource(name: "\(label).pdf", data: data) } throws: { error in
            let e = error as? InputError
            return e?.code == code && e?.problem.contains(fragment) == true && e?.message.hasPrefix("\(label).pdf: ") == true
        }
    }

    @Test("a PDF cut short: its pages are read when Poppler can, and it is reported as truncated either way")
    func truncated() throws {
        let data = ImageFixtures.pdf(pages: ["One", "Two", "Three"])
        let source = try ImageSource(name: "cut.pdf", data: data.prefix(data.count - 6))  // "%%EOF\n"
        #expect(source.damage?.problem == "is truncated: the PDF ends before its %%EOF marker")
        #expect(source.pageCount == 3)
        // Cut anywhere before its pages (Poppler may still open what is left, with no page in it),
        // it is truncated, not a PDF with no pages.
        #expect { try ImageSource(name: "cut.pdf", data: data.prefix(data.count / 2)) } throws: {
            ($0 as? InputError)?.problem.hasPrefix("is truncated") == true
        }
        // A linearized PDF cut after its first part: Poppler opens it by the first part's
        // cross-reference table and finds no page. It is truncated, not a PDF without pages.
        let head = "%PDF-1.4\n", linearized = "1 0 obj\n<< /Linearized 1 /N 1 >>\nendobj\n"
        let catalog = "2 0 obj\n<< /Type /Catalog /Pages 3 0 R >>\nendobj\n"
        let first = head + linearized + catalog
        let xref = "xref\n0 3\n0000000000 65535 f \n" + String(format: "%010d 00000 n \n%010d 00000 n \n", head.utf8.count, (head + linearized).utf8.count)
        let cut = first + xref + "trailer\n<< /Root 2 0 R /Size 3 >>\nstartxref\n\(first.utf8.count)\n%%EOF\n"
            + "5 0 obj\n<< /Length 5000 >>\nstream\n" + String(repeating: "x", count: 1500)
        #expect { try ImageSource(name: "cut.pdf", data: Data(cut.utf8)) } throws: {
            ($0 as? InputError)?.problem == "is truncated: the PDF ends before its %%EOF marker and no page could be read"
        }
    }

    @Test("a page too large to render is refused by its size, before any pixel is made")
    func hugePage() throws {
        let source = try ImageSource(name: "poster.pdf", data: ImageFixtures.pdf(pages: ["big"], mediaBox: (14400, 14400)))
        #expect { try source.page(0) } throws: { ($0 as? InputError)?.code == .tooLarge }
    }

    @Test("a file named .pdf that is not one is not taken for one")
    func notAPDF() {
        #expect { try ImageSource(name: "x.pdf", data: Data("just text, no PDF here\n".utf8)) } throws: {
            ($0 as? InputError)?.code == .notAnImage
        }
    }
}
