import Foundation
import ImageInput
import ScanCore
import Testing

/// `--rotate` and `--deskew` through the real binary: a page scanned sideways is read as the
/// upright page, and its JSONL maps every word back to the sideways file's pixels.
@Suite(.enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct OrientationCLITests {
    struct Record: Decodable {
        struct Word: Decodable {
            let text: String
            let box: [Int]
            let source_box: [Int]?
        }
        let rotation: Int
        let skew: Double
        let scale: Double
        let width: Int
        let height: Int
        let text: String
        let words: [Word]
    }

    static func records(_ stdout: String) throws -> [Record] {
        try stdout.split(separator: "\n").map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
    }

    /// The clean sample turned a quarter counter-clockwise, written as a PNG.
    static func sideways(in directory: URL) throws -> (path: String, upright: PixelBuffer) {
        var page = try ImageSource.open(path: CLI.sample("clean.png")).page(0, luminanceOnly: true)
        let upright = page.image
        page.turn(quarterTurns: 3)
        let path = directory.appendingPathComponent("sideways.png").path
        try #require(PNGEncoder.encode(page.image)).write(to: URL(fileURLWithPath: path))
        return (path, upright)
    }

    @Test("a sideways page reads as the upright one; rotation, skew and scale are in the JSONL and every source box maps back")
    func sidewaysPage() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, upright) = try Self.sideways(in: dir)
        // Without scaling, the pixels Tesseract reads are the upright page's, exactly.
        let turned = try Self.records(try await CLI.run(["--format", "jsonl", "--no-upscale", path]).stdout)
        let straight = try Self.records(try await CLI.run(["--format", "jsonl", "--no-upscale", CLI.sample("clean.png")]).stdout)
        let page = try #require(turned.first), reference = try #require(straight.first)
        #expect(page.rotation == 90 && page.skew == 0 && page.scale == 1)
        #expect(page.width == upright.height)
        #expect(reference.rotation == 0 && reference.skew == 0)
        #expect(page.width == upright.height && page.height == upright.width, "width and height are the file's")
        // Turned back pixel for pixel, so Tesseract sees the very same page.
        #expect(page.text == reference.text)
        #expect(page.words.count == reference.words.count && !page.words.isEmpty)
        // Upright (x, y) lies at (y, W - x) in a file turned a quarter counter-clockwise, W the
        // upright width: a box [x, y, w, h] becomes [y, W - x - w, h, w].
        let uprightWidth = upright.width
        for (word, same) in zip(page.words, reference.words) {
            #expect(word.box == same.box)
            let b = word.box
            #expect(word.source_box == [b[1], uprightWidth - b[0] - b[2], b[3], b[2]], "\(word.text)")
        }
        // By default its 15-pixel characters are also scaled up: boxes are in the scaled
        // page's pixels, source boxes still in the file's.
        let scaled = try #require(try Self.records(try await CLI.run(["--format", "jsonl", path]).stdout).first)
        #expect(scaled.rotation == 90 && scaled.scale > 1.2)
        #expect(!scaled.words.isEmpty)
        for word in scaled.words {
            let b = word.box.map { Double($0) / scaled.scale }
            let want = [b[1], Double(uprightWidth) - b[0] - b[2], b[3], b[2]]
            let got = try #require(word.source_box).map(Double.init)
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1.5 }, "\(word.text): \(got) against \(want)")
        }
    }

    @Test("--rotate none reads the sideways page as it lies; --rotate 270 turns an upright page")
    func overrides() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try Self.sideways(in: dir)
        let kept = try #require(try Self.records(try await CLI.run(["--format", "jsonl", "--rotate", "none", path]).stdout).first)
        #expect(kept.rotation == 0)
        let forced = try #require(try Self.records(
            try await CLI.run(["--format", "jsonl", "--rotate", "270", "--deskew", "none", CLI.sample("clean.png")]).stdout).first)
        #expect(forced.rotation == 270)
        let bad = try await CLI.run(["--rotate", "45", CLI.sample("clean.png")])
        #expect(bad.status == 64 && bad.stderr.contains("--rotate"))
    }
}
