import Foundation
import ScanCore

extension ImageSource {
    /// Whether `data` is a PDF: `%PDF-` within its first kilobyte, as readers accept it.
    static func isPDF(_ data: Data) -> Bool {
        data.prefix(1024).withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            let magic = Array("%PDF-".utf8)
            guard b.count >= magic.count else { return false }
            return (0...(b.count - magic.count)).contains { at in magic.indices.allSatisfy { b[at + $0] == magic[$0] } }
        }
    }

    /// Whether the last kilobyte holds `%%EOF` (writers may pad after it).
    static func pdfEndsWhole(_ data: Data) -> Bool {
        let tail = Array(data.suffix(1024)), marker = Array("%%EOF".utf8)
        guard tail.count >= marker.count else { return false }
        return (0...(tail.count - marker.count)).contains { at in marker.indices.allSatisfy { tail[at + $0] == marker[$0] } }
    }

    /// The text a PDF page already carries, and the size it would be rendered at; nil for a page
    /// without text, and for every page of an image file.
    public func existingText(ofPage index: Int) -> (text: String, rendering: PageRendering, width: Int, height: Int)? {
        guard let pdf, let text = pdf.text(of: index), let (w, h) = pdf.size(of: index) else { return nil }
        let dpi = renderResolution(pdf, index)
        let scale = Double(dpi) / 72
        return (text, PageRendering(widthPoints: w, heightPoints: h, dpi: dpi), Int((w * scale).rounded()), Int((h * scale).rounded()))
    }

    /// Whether page `index` can keep its own content in a searchable PDF, with the recognised
    /// text laid over it: a PDF page without text of its own (a scan; a layer over text
    /// would double it) that is not turned by /Rotate (its rendering would be).
    public func takesTextLayer(page index: Int) -> Bool {
        guard let pdf else { return false }
        return pdf.rotation(of: index) == 0 && pdf.text(of: index) == nil
    }

    /// The PDF's bytes, for copying a page unchanged; nil for an image file.
    public var pdfData: Data? { pdf?.data }

    /// `pdfResolution`, or less for a page that is one image: no finer than that image.
    private func renderResolution(_ pdf: PDFDocument, _ index: Int) -> Int {
        pdf.soleImageResolution(of: index).map { min(pdfResolution, max(36, Int($0.rounded()))) } ?? pdfResolution
    }

    /// Renders page `index` at `pdfResolution`, refusing a page over the pixel limit first. A
    /// page that is one image (a scan, a photo) is rendered no finer than that image: its
    /// pixels come back as they are instead of enlarged.
    func renderPDFPage(_ pdf: PDFDocument, index: Int, limits: DecodeLimits, luminanceOnly: Bool) throws(InputError) -> ScanPage {
        guard let (w, h) = pdf.size(of: index), w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw InputError(.corrupt, source: name, "has no readable page \(index + 1)", remedy: "re-export it")
        }
        let dpi = renderResolution(pdf, index)
        let scale = Double(dpi) / 72
        let (width, height) = (w * scale, h * scale)
        guard width < 1e9, height < 1e9 else {
            throw InputError(.tooLarge, source: name, "has a page of \(w)×\(h) points, far over any size", remedy: "re-export it")
        }
        let (pw, ph) = (max(1, Int(width.rounded())), max(1, Int(height.rounded())))
        try Self.checkSize(width: pw, height: ph, name: name, limits: limits)
        guard let image = pdf.render(index, dpi: dpi, width: pw, height: ph, grey: luminanceOnly) else {
            throw InputError(.corrupt, source: name, "page \(index + 1) could not be rendered", remedy: "re-export it")
        }
        return ScanPage(
            source: name, index: index, image: image, resolution: dpi,
            rendering: PageRendering(widthPoints: w, heightPoints: h, dpi: dpi))
    }
}
