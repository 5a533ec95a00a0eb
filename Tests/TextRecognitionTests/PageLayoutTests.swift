import Foundation
import ImageInput
import ScanCore
import ScanTestSupport
import Testing
@testable import TextRecognition

@Suite struct PageLayoutTests {
    /// Lines 40 px tall on a 60 px pitch, in a column from `x` to `x + width`.
    func column(x: Int, width: Int, rows: Range<Int>) -> [LayoutLine] {
        rows.map { LayoutLine(minX: x, minY: $0 * 60, maxX: x + width, maxY: $0 * 60 + 40) }
    }

    @Test("two columns side by side are columns")
    func twoColumns() {
        #expect(PageLayout.hasColumns(column(x: 100, width: 800, rows: 0..<20) + column(x: 1000, width: 800, rows: 0..<20)))
        // A sidebar beside three rows of the text is enough.
        #expect(PageLayout.hasColumns(column(x: 100, width: 800, rows: 0..<20) + column(x: 1000, width: 300, rows: 5..<8)))
    }

    @Test("one column, and one with a date beside its first two lines, are not columns")
    func oneColumn() {
        #expect(!PageLayout.hasColumns(column(x: 100, width: 800, rows: 0..<30)))
        #expect(!PageLayout.hasColumns(column(x: 100, width: 500, rows: 0..<30) + column(x: 700, width: 200, rows: 0..<2)))
        #expect(!PageLayout.hasColumns([]))
    }

    @Test("lines that share under half a line's height stand on different rows")
    func offset() {
        let left = column(x: 100, width: 800, rows: 0..<10)
        let right = left.map { LayoutLine(minX: $0.minX + 900, minY: $0.minY + 30, maxX: $0.maxX + 900, maxY: $0.maxY + 30) }
        #expect(!PageLayout.hasColumns(left + right))
    }
}

@Suite struct TextAreaTests {
    @Test("the area is the lines' box, a median line height round it, scaled and kept on the page")
    func area() throws {
        let lines = [
            LayoutLine(minX: 100, minY: 100, maxX: 500, maxY: 120),
            LayoutLine(minX: 90, minY: 130, maxX: 520, maxY: 150),
            LayoutLine(minX: 100, minY: 160, maxX: 480, maxY: 200),
        ]
        let area = try #require(TextArea(around: lines, reduction: 2, width: 1200, height: 410))
        #expect(area == TextArea(minX: 140, minY: 160, maxX: 1080, maxY: 410))
        #expect(area.isSmaller(thanWidth: 1200, height: 410))
        #expect(TextArea(around: [], reduction: 1, width: 100, height: 100) == nil)
        let whole = try #require(TextArea(around: [LayoutLine(minX: 5, minY: 5, maxX: 95, maxY: 95)], reduction: 1, width: 100, height: 100))
        #expect(!whole.isSmaller(thanWidth: 100, height: 100))
    }

    @Test("outside the area the page is painted in the area's paper, not the ground's; inside, nothing changes",
          arguments: [(ground: UInt8(230), paper: UInt8(230)), (ground: 255, paper: 205)])
    func isolated(ground: UInt8, paper: UInt8) throws {
        // Paper inside the area, the ground (most of the image) round it with a dark strip down
        // the left edge, and a line of ink inside.
        let area = TextArea(minX: 20, minY: 30, maxX: 70, maxY: 50)
        func inside(_ i: Int) -> Bool { i % 100 >= 20 && i % 100 < 70 && i / 100 >= 30 && i / 100 < 50 }
        var pixels = [UInt8](repeating: ground, count: 100 * 80)
        for i in pixels.indices where inside(i) { pixels[i] = paper }
        for y in 0..<80 { for x in 0..<6 { pixels[y * 100 + x] = 20 } }
        for x in 30..<60 { pixels[40 * 100 + x] = 0 }
        let page = try PixelBuffer(width: 100, height: 80, format: .gray, pixels: pixels)
        let out = area.isolated(in: page)
        #expect(out.pixels.indices.allSatisfy { inside($0) ? out.pixels[$0] == page.pixels[$0] : out.pixels[$0] == paper })
        #expect(out.pixels[40 * 100 + 45] == 0)
    }
}

@Suite(.enabled(if: Fixtures.hasEnglish, "English language data is not installed"))
struct PageLayoutEngineTests {
    /// The sample page's four paragraphs (two lines each) down the left, and again in reverse
    /// order down the right: too few lines for columns of a real page, but Tesseract finds them.
    static let paragraphRows = [170, 277, 384, 491]

    func twoColumnPage() throws -> PixelBuffer {
        let page = try ImageSource.open(path: Fixtures.sample("clean.png")).page(0).image
        let columnWidth = 1020, gutter = 100, paragraphHeight = 90
        let width = 2 * columnWidth + gutter, height = 600
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (i, top) in Self.paragraphRows.enumerated() {
            let paragraph = page.cropped(x: 80, y: top, width: columnWidth, height: paragraphHeight)
            let leftY = 50 + 110 * i, rightY = 50 + 110 * (Self.paragraphRows.count - 1 - i)
            for y in 0..<paragraphHeight {
                for x in 0..<columnWidth {
                    pixels[(leftY + y) * width + x] = paragraph.pixels[y * columnWidth + x]
                    pixels[(rightY + y) * width + x + columnWidth + gutter] = paragraph.pixels[y * columnWidth + x]
                }
            }
        }
        return try PixelBuffer(width: width, height: height, format: .gray, pixels: pixels)
    }

    @Test("a page in two columns is read column by column")
    func columnsInOrder() throws {
        let engine = try TesseractEngine(EngineConfiguration())
        let output = try engine.recognize(try twoColumnPage(), resolution: 200, deadline: nil, pageNumber: 1, renderings: [], cancel: nil)
        #expect(output.layout == .automatic)
        // The left column, then the right; read across as one block, the lines interleave.
        let lines = try Fixtures.groundTruth("clean.txt").components(separatedBy: "\n").dropFirst().prefix(8)
        let paragraphs = stride(from: 0, to: 8, by: 2).map { lines.dropFirst($0).prefix(2).joined(separator: "\n") }
        let truth = (paragraphs + paragraphs.reversed()).joined(separator: "\n\n")
        let cer = TextScore.cer(output.text, truth)
        #expect(cer < 0.05, "CER \(cer): \(output.text)")
    }

    @Test("a single column is read as one block, and the engine goes back to automatic layout")
    func singleColumn() throws {
        let engine = try TesseractEngine(EngineConfiguration())
        let page = try ImageSource.open(path: Fixtures.sample("clean.png")).page(0)
        let output = try engine.recognize(page.image, resolution: page.resolution, deadline: nil, pageNumber: 1, renderings: [], cancel: nil)
        #expect(output.layout == .singleBlock)
        #expect(engine.pageSegmentationMode == 3)
        let columns = try engine.recognize(try twoColumnPage(), resolution: 200, deadline: nil, pageNumber: 2, renderings: [], cancel: nil)
        #expect(columns.layout == .automatic)
    }

    @Test("a broken sliver of desk down a page's sides, as a flattened photo keeps, is not read as text")
    func edgesSetAside() throws {
        let page = try ImageSource.open(path: Fixtures.sample("clean.png")).page(0).image
        var pixels = page.pixels
        // Dashes 3 px wide, 30 long, 10 apart, 2 px in from each side: read as one block
        // without the layout's area, each row gains a '|' at both ends.
        for y in 0..<page.height where y % 40 < 30 {
            for x in [2, 3, 4, page.width - 5, page.width - 4, page.width - 3] { pixels[y * page.width + x] = 90 }
        }
        let edged = try PixelBuffer(width: page.width, height: page.height, format: .gray, pixels: pixels)
        let engine = try TesseractEngine(EngineConfiguration())
        let output = try engine.recognize(edged, resolution: 200, deadline: nil, pageNumber: 1, renderings: [], cancel: nil)
        #expect(output.layout == .singleBlock)
        let cer = TextScore.cer(output.text, try Fixtures.groundTruth("clean.txt"))
        #expect(cer < 0.02, "CER \(cer): \(output.text)")
        #expect(!output.text.contains("|"))
        // Words keep the page's own coordinates.
        #expect(output.words.first { $0.text == "Annual" }.map { abs($0.box.x - 96) <= 4 } == true)
    }

    @Test("--psm is used as given")
    func requested() throws {
        let engine = try TesseractEngine(EngineConfiguration(pageSegmentationMode: 4))
        let output = try engine.recognize(try twoColumnPage(), resolution: 200, deadline: nil, pageNumber: 1, renderings: [], cancel: nil)
        #expect(output.layout == .requested(4))
        #expect(engine.pageSegmentationMode == 4)
    }
}
