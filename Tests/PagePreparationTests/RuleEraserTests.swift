import PagePreparation
import ScanCore
import Testing

/// Erasing table rules from the copy Tesseract reads: a ruled table of word-like blocks.
@Suite struct RuleEraserTests {
    static let width = 900, height = 700

    /// Rows of dark word blocks 14 px tall (characters of about that height) in four columns on
    /// paper of 235, with 2-px vertical rules between the columns and round them from top to
    /// bottom of the table, and, when `bar`, a solid 30-px dark bar down the right margin.
    static func table(ink: UInt8 = 30, paper: UInt8 = 235, bar: Bool = false) -> (image: PixelBuffer, rules: [Int]) {
        var image = PixelBuffer(width: width, height: height, format: .gray, fill: paper)
        let rules = [25, 230, 430, 630, 810]
        for row in 0..<20 {
            let y0 = 60 + row * 28
            for column in 0..<4 {
                let x0 = 40 + column * 200
                for y in y0..<(y0 + 14) { for x in x0..<(x0 + 150) where (x - x0) % 40 < 32 { image.pixels[y * width + x] = ink } }
            }
        }
        for x in rules { for y in 50..<630 { image.pixels[y * width + x] = ink; image.pixels[y * width + x + 1] = ink } }
        if bar { for y in 40..<660 { for x in 850..<880 { image.pixels[y * width + x] = ink } } }
        return (image, rules)
    }

    @Test("the rules of a table are painted in the paper; its words stay as they were")
    func erasesRules() throws {
        let (image, rules) = Self.table(bar: true)
        let erased = try #require(RuleEraser().erased(image, characterHeight: 14))
        // Every rule pixel, and nothing darker than paper is left in its columns.
        #expect(erased.painted == rules.count * 2 * 580)
        for x in rules { for y in 50..<630 { #expect(erased.image.pixels[y * Self.width + x] >= 230) } }
        // Away from the rules every pixel is unchanged: the words and the solid bar.
        var changedElsewhere = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width where !rules.contains(where: { x >= $0 - 1 && x <= $0 + 2 }) {
                if erased.image.pixels[y * Self.width + x] != image.pixels[y * Self.width + x] { changedElsewhere += 1 }
            }
        }
        #expect(changedElsewhere == 0)
    }

    @Test("a page without rules, or of light ink on a dark ground, is left alone")
    func leavesOthersAlone() {
        var plain = Self.table().image
        for x in [25, 26, 230, 231, 430, 431, 630, 631, 810, 811] { for y in 50..<630 { plain.pixels[y * Self.width + x] = 235 } }
        #expect(RuleEraser().erased(plain, characterHeight: 14) == nil)
        let slide = Self.table(ink: 235, paper: 30).image
        #expect(RuleEraser().erased(slide, characterHeight: 14) == nil)
    }

    @Test("the sides of a box round one field (a receipt's invoice number) stay")
    func keepsFieldBoxes() {
        var image = Self.table().image
        for x in [25, 26, 230, 231, 430, 431, 630, 631, 810, 811] { for y in 50..<630 { image.pixels[y * Self.width + x] = 235 } }
        // Five character heights tall, round one word.
        for y in 630..<700 { for x in [300, 301, 500, 501] { image.pixels[y * Self.width + x] = 30 } }
        for y in 660..<674 { for x in 340..<460 { image.pixels[y * Self.width + x] = 30 } }
        #expect(RuleEraser().erased(image, characterHeight: 14) == nil)
    }

    @Test("the edge of a sheet scanned on a white ground, print on one side only, stays")
    func keepsSheetEdgesInside() {
        var image = PixelBuffer(width: Self.width, height: Self.height, format: .gray, fill: 250)
        for y in 20..<680 { for x in 100..<800 { image.pixels[y * Self.width + x] = 235 } }
        for y in 20..<680 { image.pixels[y * Self.width + 100] = 90; image.pixels[y * Self.width + 101] = 90 }
        for row in 0..<20 { for y in (60 + row * 28)..<(74 + row * 28) { for x in 130..<500 where x % 40 < 32 { image.pixels[y * Self.width + x] = 30 } } }
        #expect(RuleEraser().erased(image, characterHeight: 14) == nil)
    }

    @Test("a rule at the image's edge is the scanned sheet's edge, and stays")
    func keepsSheetEdges() {
        var image = PixelBuffer(width: Self.width, height: Self.height, format: .gray, fill: 235)
        for y in 0..<Self.height { image.pixels[y * Self.width] = 20; image.pixels[y * Self.width + 1] = 20 }
        for y in 100..<114 { for x in 100..<300 { image.pixels[y * Self.width + x] = 30 } }
        #expect(RuleEraser().erased(image, characterHeight: 14) == nil)
    }
}
