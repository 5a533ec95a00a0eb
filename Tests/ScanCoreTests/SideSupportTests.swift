import Foundation
import Testing
@testable import ScanCore

/// How the outline search backs one side (`GradientField.sideSupport`).
@Suite struct SideSupportTests {
    /// A 400×300 grey photo: a desk at the paper's level (`paper`) with a page from x = 100 to
    /// 220 and y = 40 to 260, rows of print in its middle, and `right(x, y)` past its right side
    /// from x = 220 to 300 (nil: the desk).
    static func views(paper: UInt8 = 232, right: (Int, Int) -> UInt8?) throws -> (field: GradientField, textless: GradientField) {
        let w = 400, h = 300
        var pixels = [UInt8](repeating: paper, count: w * h)
        for y in 70..<230 where (y / 6) % 2 == 0 {
            for x in 120..<200 { pixels[y * w + x] = 40 }
        }
        for y in 40..<260 {
            for x in 220..<300 { if let value = right(x, y) { pixels[y * w + x] = value } }
        }
        return GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels), closingRadius: 8)
    }

    /// The page's right side, top to bottom: inside lies to its left.
    static let rightSide = (Point(220, 40), Point(220, 260))

    @Test("a page side seen only by the thin shadow it casts on a desk as bright as the paper is backed")
    func shadowOnlySide() throws {
        // The shadow: 200 at the page's edge, back to the desk's 232 within 16 px, a ramp too
        // gentle to make an edge of its own.
        let (field, textless) = try Self.views { x, _ in x < 236 ? UInt8(200 + 2 * (x - 220)) : nil }
        let (a, b) = Self.rightSide
        // The closing fills the shadow as it fills print: the step is gone without print...
        #expect(textless.stepContrast(a, b, paper: false).mean < 1)
        #expect(!GradientField.stepSurvivesWiping(step: field.stepContrast(a, b, paper: false).mean, wiped: textless.stepContrast(a, b, paper: false).mean))
        // ...but no print lies past the side, and the desk beyond is the paper's level.
        #expect(field.sideSupport(a, b, textless: textless) > 0.8)
    }

    @Test("a note brighter than the paper beside a stretch of a side is left out of its paper step; bright patches here and there are not")
    func noteBesideSide() throws {
        let (a, b) = Self.rightSide
        // Paper in the room's light (200), a dark desk past the side, and a white note, short
        // of a light's level, beside a fifth of it.
        let note = try Self.views(paper: 200) { _, y in (120..<160).contains(y) ? 225 : 120 }.field.stepContrast(a, b)
        #expect(note.paper >= GradientField.minimumPaperStep && note.unexcused < GradientField.minimumPaperStep, "\(note)")
        // As much white in two patches: a side running through a picture, not past one thing.
        let patches = try Self.views(paper: 200) { _, y in (80..<100).contains(y) || (180..<200).contains(y) ? 225 : 120 }.field.stepContrast(a, b)
        #expect(patches.paper < GradientField.minimumPaperStep, "\(patches)")
    }

    /// A white page (200) on a light desk (185), a shadow taking half the light over the top
    /// third of the frame: past the shadow's edge, paper and desk step by 7 levels, not 15.
    @Test("the page's sides run on past a shadow's edge across it, dimmed; past its own top, not")
    func sidesRunOnIntoShade() throws {
        var pixels = [UInt8](repeating: 185, count: 400 * 300)
        for y in 0..<300 {
            for x in 0..<400 {
                let paper = (100..<300).contains(x) && (40..<260).contains(y)
                pixels[y * 400 + x] = UInt8(Double(paper ? 200 : 185) * (y < 120 ? 0.5 : 1))
            }
        }
        let (field, _) = GradientField.views(of: try PixelBuffer(width: 400, height: 300, format: .gray, pixels: pixels), closingRadius: 8)
        let lit = Quad(topLeft: Point(100, 120), topRight: Point(300, 120), bottomRight: Point(300, 260), bottomLeft: Point(100, 260))
        #expect(field.sidesRunOn(past: 0, of: lit, inShade: true))
        #expect(!field.sidesRunOn(past: 0, of: lit))
        let whole = Quad(topLeft: Point(100, 40), topRight: Point(300, 40), bottomRight: Point(300, 260), bottomLeft: Point(100, 260))
        #expect(!field.sidesRunOn(past: 0, of: whole, inShade: true))
        #expect(!field.sidesRunOn(past: 2, of: lit, inShade: true))
    }

    /// A page (210) on a desk (110), a photo (50) printed over its bottom third and bled off its
    /// bottom side, and a dark box (20) lying on the desk past its bottom-left corner, left of
    /// the line of its left side.
    @Test("past a photo bled off the page, a dark thing beyond a corner is no sheet running on; paper past a corner is")
    func sidesRunOnWithPaper() throws {
        var pixels = [UInt8](repeating: 110, count: 400 * 300)
        for y in 0..<300 {
            for x in 0..<400 {
                if (100..<300).contains(x) && (40..<260).contains(y) {
                    pixels[y * 400 + x] = y >= 180 ? 50 : 210
                } else if (60..<100).contains(x) && y >= 262 {
                    pixels[y * 400 + x] = 20
                }
            }
        }
        let (field, _) = GradientField.views(of: try PixelBuffer(width: 400, height: 300, format: .gray, pixels: pixels), closingRadius: 8)
        let page = Quad(topLeft: Point(100, 40), topRight: Point(300, 40), bottomRight: Point(300, 260), bottomLeft: Point(100, 260))
        // The bottom side is darker inside than out; the box steps down from the desk past its
        // left end as paper would.
        #expect(field.stepContrast(Point(300, 260), Point(100, 260), paper: false).mean <= -GradientField.minimumStep)
        #expect(field.sidesRunOn(past: 2, of: page))
        #expect(!field.sidesRunOn(past: 2, of: page, step: .paper))
        // The paper above the photo, cut off at y = 150: the sheet goes on past its bottom side.
        let part = Quad(topLeft: Point(100, 40), topRight: Point(300, 40), bottomRight: Point(300, 150), bottomLeft: Point(100, 150))
        #expect(field.sidesRunOn(past: 2, of: part, step: .paper))
    }

    /// A wall (200) with a page held up before it (150, from x = 150 to 300, y = 40 to 260) and
    /// a dark board (40) hung below the line of its bottom side, left of its bottom-left corner;
    /// and, apart, a white page as bright as a light (245) with a photo (50) printed over it from
    /// x = 100, cut by the same outline at x = 150.
    @Test("a side against a light runs on past a corner only as a side against a light: darker inside than out")
    func sidesRunOnAgainstLight() throws {
        func field(_ value: (Int, Int) -> UInt8) throws -> GradientField {
            var pixels = [UInt8](repeating: 0, count: 400 * 300)
            for y in 0..<300 { for x in 0..<400 { pixels[y * 400 + x] = value(x, y) } }
            return GradientField.views(of: try PixelBuffer(width: 400, height: 300, format: .gray, pixels: pixels), closingRadius: 8).field
        }
        let outline = Quad(topLeft: Point(150, 40), topRight: Point(300, 40), bottomRight: Point(300, 260), bottomLeft: Point(150, 260))
        let held = try field { x, y in
            if (150..<300).contains(x) && (40..<260).contains(y) { return 150 }
            return (40..<150).contains(x) && y >= 262 ? 40 : 200
        }
        // Past the bottom-left corner, the board below the line steps down from the wall above
        // it: a step, but the other way from the page's own against the wall.
        let anyStep = held.sidesRunOn(past: 3, of: outline), lightStep = held.sidesRunOn(past: 3, of: outline, step: .light)
        #expect(anyStep)
        #expect(!lightStep)
        // The photo printed on white paper goes on past the cut at x = 150, darker than the
        // paper above and below it, as inside the outline.
        let printed = try field { x, y in (100..<300).contains(x) && (40..<260).contains(y) ? 50 : 245 }
        let photoGoesOn = printed.sidesRunOn(past: 3, of: outline, step: .light)
        #expect(photoGoesOn)
    }

    /// A desk (110) with a page (220) from x = 100 to 300 and y = 40 to 260, a figure (50) over
    /// its lower part inside a margin; and, apart, a receipt (220) from x = 200 to 260 and y = 60
    /// to 240 on the same desk, taken in by an outline reaching over the desk to x = 40.
    @Test("the print above a figure is a part of the sheet round it; a receipt beside a strip of desk is not")
    func partOfSheet() throws {
        func field(_ value: (Int, Int) -> UInt8) throws -> GradientField {
            var pixels = [UInt8](repeating: 0, count: 400 * 300)
            for y in 0..<300 { for x in 0..<400 { pixels[y * 400 + x] = value(x, y) } }
            return GradientField(try PixelBuffer(width: 400, height: 300, format: .gray, pixels: pixels))
        }
        let page = try field { x, y in
            guard (100..<300).contains(x) && (40..<260).contains(y) else { return 110 }
            return (110..<290).contains(x) && (120..<250).contains(y) ? 50 : 220
        }
        let sheet = Quad(topLeft: Point(100, 40), topRight: Point(300, 40), bottomRight: Point(300, 260), bottomLeft: Point(100, 260))
        let printed = Quad(topLeft: Point(100, 40), topRight: Point(300, 40), bottomRight: Point(300, 115), bottomLeft: Point(100, 115))
        #expect(page.isPartOfSheet(printed, within: sheet))
        let desk = try field { x, y in (200..<260).contains(x) && (60..<240).contains(y) ? 220 : 110 }
        let receipt = Quad(topLeft: Point(200, 60), topRight: Point(260, 60), bottomRight: Point(260, 240), bottomLeft: Point(200, 240))
        let doubtful = Quad(topLeft: Point(40, 50), topRight: Point(260, 50), bottomRight: Point(260, 250), bottomLeft: Point(40, 250))
        #expect(!desk.isPartOfSheet(receipt, within: doubtful))
    }

    @Test("the edge of a block of print past a side of plain paper is not backed")
    func printBlockEdge() throws {
        // Paper goes on past the side, with rows of print from 3 px past it.
        let (field, textless) = try Self.views { x, y in x >= 223 && (y / 6) % 2 == 0 ? 40 : nil }
        let (a, b) = Self.rightSide
        #expect(field.stepContrast(a, b, paper: false).mean > 10)
        #expect(field.sideSupport(a, b, textless: textless) == 0)
    }

    @Test("a side against a desk darker than the paper is backed as ever; a dip of a few levels past it is not")
    func ordinarySides() throws {
        // Past the side, the desk 30 levels darker than the paper: the step survives the wiping.
        let (field, textless) = try Self.views { _, _ in 202 }
        let (a, b) = Self.rightSide
        #expect(field.sideSupport(a, b, textless: textless) > 0.8)
        // A dip of 4 levels past the side: too faint to read.
        let (faint, faintTextless) = try Self.views { x, _ in x < 236 ? 228 : nil }
        #expect(faint.sideSupport(a, b, textless: faintTextless) == 0)
    }

    /// The page of `views` on a desk darker than it (150) past its right side, with `cover(x, y)`
    /// drawn over everything (nil: nothing there).
    static func heldView(cover: (Int, Int) -> UInt8?) throws -> GradientField {
        let w = 400, h = 300
        var pixels = [UInt8](repeating: 150, count: w * h)
        for y in 40..<260 { for x in 100..<220 { pixels[y * w + x] = 232 } }
        for y in 0..<h { for x in 0..<w { if let value = cover(x, y) { pixels[y * w + x] = value } } }
        return GradientField.views(of: try PixelBuffer(width: w, height: h, format: .gray, pixels: pixels), closingRadius: 8).field
    }

    @Test("a hand over the middle of a side is what lies over it, and nothing else is")
    func occludedStretch() throws {
        let (a, b) = Self.rightSide
        // A hand (110) over 60 px of the side's middle, reaching past it both ways.
        let held = try Self.heldView { x, y in x >= 200 && x < 260 && y >= 120 && y < 180 ? 110 : nil }
        #expect((50...62).contains(held.occludedSteps(a, b, paper: 232)), "\(held.occludedSteps(a, b, paper: 232))")
        // Over the side's end, the side does not step past it: it may run on over the desk.
        let atEnd = try Self.heldView { x, y in x >= 200 && x < 260 && y >= 200 ? 110 : nil }
        #expect(atEnd.occludedSteps(a, b, paper: 232) == 0)
        // A stretch of desk as light as the paper past the side leaves paper on both sides.
        let pale = try Self.heldView { x, y in x >= 220 && x < 260 && y >= 120 && y < 180 ? 232 : nil }
        #expect(pale.occludedSteps(a, b, paper: 232) == 0)
        // A side along the desk, past the page, has no step at all.
        #expect(held.occludedSteps(Point(300, 40), Point(300, 260), paper: 232) == 0)
    }
}
