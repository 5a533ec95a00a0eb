import Foundation
import ImageInput
import ScanCore
import ScanTestSupport
import Testing
import TextRecognition

@Suite struct DetectCLITests {
    static let corners = Quad(topLeft: Point(170, 95), topRight: Point(610, 130), bottomRight: Point(650, 700), bottomLeft: Point(120, 660))

    /// An 800×800 synthetic photo of a text-like page at `corners`, as PNG bytes.
    static func photoPNG() throws -> Data {
        let page = SyntheticPhoto.textLikePage(width: 425, height: 550)
        let photo = try SyntheticPhoto.make(page: page, corners: corners, width: 800, height: 800, background: .dark)
        return try #require(PNGEncoder.encode(photo))
    }

    @Test("detect --format jsonl: exactly the documented fields, checked one by one")
    func jsonLines() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("photo one.png").path
        try Self.photoPNG().write(to: URL(fileURLWithPath: path))

        let r = try await CLI.run(["detect", "--format", "jsonl", path, CLI.sample("clean.png"), dir.appendingPathComponent("gone.png").path])
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.contains("gone.png: no such file"))
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)

        let first = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(first.keys) == ["source", "page", "width", "height", "quad", "confidence"])
        #expect(first["source"] as? String == path)
        #expect(first["page"] as? Int == 1)
        #expect(first["width"] as? Int == 800)
        #expect(first["height"] as? Int == 800)
        let quad = try #require(first["quad"] as? [[Double]])
        #expect(quad.count == 4)
        for (found, truth) in zip(quad, Self.corners.corners) {
            #expect(found.count == 2)
            #expect(Point(found[0], found[1]).distance(to: truth) < 8, "\(found) vs \(truth)")
        }
        let confidence = try #require(first["confidence"] as? Double)
        #expect(confidence > 0.5 && confidence <= 1)

        // A flat scan: no quad.
        let second = try #require(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["quad"] is NSNull)
        #expect(second["width"] as? Int == 1200)
        #expect(Set(second.keys) == ["source", "page", "width", "height", "quad", "confidence"])
    }

    @Test("detect -r walks a tree in the main command's order; --shard splits it, every photo once")
    func recursiveAndSharded() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try Self.photoPNG()
        let names = ["a/b/one.png", "a/two.png", "three.png", "z/four.png"]
        for name in names + [".hidden.png"] {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try png.write(to: url)
        }
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("a/notes.txt"))

        func sources(_ arguments: [String]) async throws -> [String] {
            let r = try await CLI.run(["detect", "--format", "jsonl"] + arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            return try r.stdout.split(separator: "\n").map { line in
                let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["quad"] is [[Double]], "\(line)")
                return try #require(object["source"] as? String)
            }
        }
        // Depth first, entries sorted by byte value; hidden files and other types left out.
        let all = try await sources(["-r", dir.path])
        #expect(all == names.map { dir.appendingPathComponent($0).path })
        let first = try await sources(["-r", "--shard", "1/2", dir.path]), second = try await sources(["-r", "--shard", "2/2", dir.path])
        #expect(Set(first).isDisjoint(with: second))
        #expect((first + second).sorted() == all.sorted())
        #expect(try await sources(["-r", "--exclude", "a", dir.path]) == [names[2], names[3]].map { dir.appendingPathComponent($0).path })

        let plain = try await CLI.run(["detect", dir.path])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("is a directory; add --recursive"))
        #expect(try await CLI.run(["detect", "--include", "*.png", dir.path]).status == 64)
    }

    @Test("--crop auto reads a synthetic photo of a real page")
    func cropAutoOCR() async throws {
        guard CLI.hasEnglish else { return }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = try ImageSource.open(path: CLI.sample("clean.png")).page(0).image
        let corners = Quad(topLeft: Point(260, 140), topRight: Point(1420, 230), bottomRight: Point(1500, 1150), bottomLeft: Point(170, 1060))
        let photo = try SyntheticPhoto.make(page: page, corners: corners, width: 1600, height: 1300, background: .dark, noise: 4)
        let path = dir.appendingPathComponent("photo.png").path
        try #require(PNGEncoder.encode(photo)).write(to: URL(fileURLWithPath: path))
        let truth = try String(contentsOfFile: CLI.sample("clean.txt"), encoding: .utf8)
        let auto = try await CLI.run([path])
        #expect(auto.status == 0)
        let autoCER = TextScore.cer(auto.stdout, truth)
        #expect(autoCER < 0.05, "CER with --crop auto: \(autoCER)")
        let json = try await CLI.run(["--format", "jsonl", path])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["quad_detected"] as? Bool == true)
        let quad = try #require(object["quad"] as? [[Double]])
        #expect(Point(quad[0][0], quad[0][1]).distance(to: corners.topLeft) < 12)
    }

    @Test("a page that steps from its desk only in colour is found in a JPEG, which is decoded grey first")
    func colourOnly() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = SyntheticPhoto.textLikePage(width: 425, height: 550)
        let photo = try SyntheticPhoto.make(page: page, corners: Self.corners, width: 900, height: 760, background: .cream)
        let path = dir.appendingPathComponent("cream desk.jpg").path
        try #require(JPEGEncoder.encode(photo, quality: 95)).write(to: URL(fileURLWithPath: path))

        let r = try await CLI.run(["detect", "--format", "jsonl", path])
        #expect(r.status == 0)
        let record = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let quad = try #require(record["quad"] as? [[Double]], "no quad: \(r.stdout)")
        for (found, truth) in zip(quad, Self.corners.corners) {
            #expect(Point(found[0], found[1]).distance(to: truth) < 10, "\(found) vs \(truth)")
        }
    }
}

@Suite(.enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct ExifCLITests {
    /// clean.png stored a quarter turn counter-clockwise, as a phone stores a portrait shot.
    static func sideways() throws -> PixelBuffer {
        let page = try ImageSource.open(path: CLI.sample("clean.png")).page(0).image
        var pixels = [UInt8](repeating: 0, count: page.pixels.count)
        // Stored (x, y) is shown at (h − 1 − y, x) after a clockwise quarter turn.
        for y in 0..<page.width { for x in 0..<page.height { pixels[y * page.height + x] = page.pixels[x * page.width + (page.width - 1 - y)] } }
        return try PixelBuffer(width: page.height, height: page.width, format: .gray, pixels: pixels)
    }

    @Test("a JPEG stored sideways with EXIF orientation 6 is read upright; its corners are in upright pixels")
    func orientation() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpeg = try #require(JPEGEncoder.encode(try Self.sideways(), quality: 92))
        let untagged = dir.appendingPathComponent("untagged.jpg"), tagged = dir.appendingPathComponent("tagged.jpg")
        try jpeg.write(to: untagged)
        try ExifFixture.tagged(jpeg, orientation: 6).write(to: tagged)
        let truth = try String(contentsOfFile: CLI.sample("clean.txt"), encoding: .utf8)

        let upright = try await CLI.run([tagged.path])
        #expect(upright.status == 0)
        #expect(TextScore.cer(upright.stdout, truth) < 0.03)
        // Without the tag, and with the text's own orientation not looked at, the same pixels
        // read as nothing useful: the tag is what made it work.
        let raw = try await CLI.run(["--rotate", "none", untagged.path])
        #expect(TextScore.cer(raw.stdout, truth) > 0.5)
        // Untagged, the page is still stood up by its text.
        let found = try await CLI.run(["--format", "jsonl", untagged.path])
        let foundRecord = try #require(JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
        #expect(foundRecord["rotation"] as? Int == 90)
        #expect(TextScore.cer(foundRecord["text"] as? String ?? "", truth) < 0.03)

        let detect = try await CLI.run(["detect", "--format", "jsonl", tagged.path])
        let record = try #require(JSONSerialization.jsonObject(with: Data(detect.stdout.utf8)) as? [String: Any])
        #expect(record["width"] as? Int == 1200 && record["height"] as? Int == 900)
    }
}
