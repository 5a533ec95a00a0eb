import Foundation
import ImageInput
import ScanCore
import ScanTestSupport
import Testing
import TextRecognition

/// Every regular file below `root`, relative path → contents; hidden files included.
func listTree(_ root: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let e = FileManager.default.enumerator(atPath: root.path) else { return files }
    while let relative = e.nextObject() as? String {
        let path = root.appendingPathComponent(relative).path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[relative] = FileManager.default.contents(atPath: path) ?? Data()
        }
    }
    return files
}

func text(_ data: Data?) -> String { String(decoding: data ?? Data(), as: UTF8.self) }

/// Copies sample pages into `root` under the given relative names.
func makeTree(_ root: URL, _ files: [(String, String)]) throws {
    for (relative, sample) in files {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sample(sample), toPath: url.path)
    }
}

/// An image of `n`×`n` copies of the sample at `path`: a page with a lot of text to read.
func tiled(_ path: String, _ n: Int) throws -> PixelBuffer {
    let tile = try ImageSource.open(path: path).page(0).image.grayscale()
    var big = PixelBuffer(width: tile.width * n, height: tile.height * n, format: .gray, fill: 255)
    for y in 0..<big.height {
        for x in 0..<big.width { big.pixels[y * big.width + x] = tile.pixels[(y % tile.height) * tile.width + x % tile.width] }
    }
    return big
}

/// A tree of `count` pages of every sample kind in three folders (a multi-page TIFF among them).
func mixedTree(_ root: URL, count: Int) throws {
    let samples = ["clean.png", "lowres.png", "noisy.jpg", "multipage.tif"]
    try makeTree(root, (0..<count).map { i in
        let sample = samples[i % samples.count]
        return ("d\(i % 3)/f\(i).\((sample as NSString).pathExtension)", sample)
    })
}

/// Once a file matching `wanted` appears below `directory` (or after a minute), sends `signals`
/// to `pid`, 50 ms apart, from a background thread.
func signalOnFirstFile(in directory: URL, pid: Int32, signals: [Int32], poll microseconds: UInt32,
                       _ wanted: @escaping @Sendable (String) -> Bool) {
    Thread {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline && !listTree(directory).keys.contains(where: wanted) { usleep(microseconds) }
        for (i, sig) in signals.enumerated() {
            if i > 0 { usleep(50_000) }
            kill(pid, sig)
        }
    }.start()
}

@Suite(.enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct BatchCLITests {
    @Test("a tree: mirrored outputs, bad files reported and logged, exit 1, nothing partial; a rerun with --skip-existing recognises 0 pages")
    func tree() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in")
        try makeTree(input, [
            ("top.png", "clean.png"),
            ("a/one page.png", "lowres.png"),
            ("a/b/Ärger über Öl.png", "clean.png"),
            ("ü/mehrseitig.tif", "multipage.tif"),
            ("ü/scan.jpg", "noisy.jpg"),
            (".hidden/h.png", "clean.png"),
            ("out/stale.png", "clean.png"),  // inside the output directory: never read
        ])
        try FileManager.default.createDirectory(at: input.appendingPathComponent("bad"), withIntermediateDirectories: true)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: CLI.sample("noisy.jpg")))
        try jpeg.prefix(jpeg.count / 3).write(to: input.appendingPathComponent("bad/corrupt.jpg"), options: [])
        try Data().write(to: input.appendingPathComponent("bad/zero.png"))
        try Data("not a picture\n".utf8).write(to: input.appendingPathComponent("bad/text.png"))
        try Data("notes\n".utf8).write(to: input.appendingPathComponent("notes.txt"))

        // Unreadable entries need a user the permissions apply to: as root, run as nobody.
        let setpriv = "/usr/bin/setpriv"
        let asRoot = getuid() == 0
        let canLock = !asRoot || FileManager.default.isExecutableFile(atPath: setpriv)
        let prefix = asRoot && canLock ? [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        if canLock {
            try FileManager.default.copyItem(atPath: CLI.sample("lowres.png"), toPath: input.appendingPathComponent("bad/locked.png").path)
            try makeTree(input, [("locked-dir/x.png", "lowres.png")])
            chmod(input.appendingPathComponent("bad/locked.png").path, 0o000)
            chmod(input.appendingPathComponent("locked-dir").path, 0o000)
        }
        defer { chmod(input.appendingPathComponent("locked-dir").path, 0o755) }
        let out = input.appendingPathComponent("out")
        let logs = dir.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        for p in [dir, out, logs] { chmod(p.path, 0o777) }
        let errors = logs.appendingPathComponent("errors.jsonl")
        let inputsBefore = listTree(input).filter { !$0.key.hasPrefix("out/") }

        let r = try await CLI.run(["-r", input.path, "-o", out.path, "--errors", errors.path], prefix: prefix)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let outputs = listTree(out)
        #expect(Set(outputs.keys) == ["stale.png", "top.txt", "a/one page.txt", "a/b/Ärger über Öl.txt", "ü/mehrseitig.txt", "ü/scan.txt"])
        let clean = try String(contentsOfFile: CLI.sample("clean.txt"), encoding: .utf8)
        #expect(TextScore.cer(text(outputs["top.txt"]), clean) < 0.02)
        #expect(TextScore.cer(text(outputs["a/b/Ärger über Öl.txt"]), clean) < 0.02)
        let pages = text(outputs["ü/mehrseitig.txt"]).components(separatedBy: "\u{0C}")
        let truths = try String(contentsOfFile: CLI.sample("multipage.txt"), encoding: .utf8).components(separatedBy: "\u{0C}")
        #expect(pages.count == 3)
        for (page, truth) in zip(pages, truths) { #expect(TextScore.cer(page, truth) < 0.03) }
        #expect(TextScore.cer(text(outputs["ü/scan.txt"]), try String(contentsOfFile: CLI.sample("noisy.txt"), encoding: .utf8)) < 0.05)

        // One stderr line and one JSON line per failure; the summary last.
        struct Entry: Decodable { let source: String; let page: Int?; let code: String; let error: String }
        let entries = try String(contentsOf: errors, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(Entry.self, from: Data($0.utf8))
        }
        var expected = ["bad/corrupt.jpg": "corrupt", "bad/text.png": "not-an-image", "bad/zero.png": "empty"]
        if canLock {
            expected["bad/locked.png"] = "unreadable"
            expected["locked-dir"] = "unreadable-directory"
        }
        #expect(Dictionary(uniqueKeysWithValues: entries.map { (String($0.source.dropFirst(input.path.count + 1)), $0.code) }) == expected)
        for entry in entries {
            #expect(entry.error.hasPrefix(entry.source + ": ") && entry.error.contains("; "))
            #expect(r.stderrLines.contains("scantext: " + entry.error))
        }
        let summary = try #require(r.stderrLines.last)
        #expect(summary.hasPrefix("scantext: 5 done, 0 skipped, \(expected.count) failed; 7 pages in "), "\(summary)")
        #expect(r.stderrLines.count == expected.count + 1)
        // Inputs untouched; no temporary file anywhere.
        #expect(listTree(input).filter { !$0.key.hasPrefix("out/") } == inputsBefore)
        #expect(!listTree(dir).keys.contains { $0.contains(".scantext-tmp-") })

        // Resume: nothing to redo but the failures, which fail again.
        let again = try await CLI.run(["-r", input.path, "-o", out.path, "--skip-existing"], prefix: prefix)
        #expect(again.status == 1)
        let againSummary = try #require(again.stderrLines.last)
        #expect(againSummary.hasPrefix("scantext: 0 done, 5 skipped, \(expected.count) failed; 0 pages in "), "\(againSummary)")
        #expect(listTree(out) == outputs)
    }

    @Test("Ctrl-C mid-run: exit 130, only complete outputs; a resumed run completes it, equal to a clean run")
    func interruptAndResume() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in")
        try mixedTree(input, count: 32)
        let cleanOut = dir.appendingPathComponent("clean")
        let clean = try await CLI.run(["-r", input.path, "-o", cleanOut.path, "--jobs", "2"])
        #expect(clean.status == 0)
        let reference = listTree(cleanOut)
        #expect(reference.count == 32)

        let out = dir.appendingPathComponent("out")
        // As soon as the first output lands, press Ctrl-C.
        let interrupted = try await CLI.run(["-r", input.path, "-o", out.path, "--jobs", "2"], onStart: { pid in
            signalOnFirstFile(in: out, pid: pid, signals: [SIGINT], poll: 10_000) { $0.hasSuffix(".txt") }
        })
        #expect(interrupted.status == 130, "\(interrupted.stderr)")
        #expect(interrupted.stderr.contains("scantext: interrupted: "))
        let partial = listTree(out)
        #expect(!partial.isEmpty && partial.count < reference.count, "\(partial.count) of \(reference.count) written")
        for (name, data) in partial { #expect(reference[name] == data, "\(name) differs from the clean run") }

        let resumed = try await CLI.run(["-r", input.path, "-o", out.path, "--jobs", "2", "--skip-existing"])
        #expect(resumed.status == 0)
        #expect(resumed.stderrLines.last?.hasPrefix("scantext: \(reference.count - partial.count) done, \(partial.count) skipped, 0 failed") == true,
                "\(resumed.stderr)")
        #expect(listTree(out) == reference)
    }

    @Test("a second Ctrl-C stops at once, still without partial or temporary files")
    func secondInterrupt() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in")
        // One small page first, so an output lands soon; then pages with 9 times its text, each
        // taking Tesseract well over the 50 ms between the two signals. With small pages only, the
        // pages in flight at the first signal could finish before the second arrived, and the
        // run would end gracefully instead.
        try makeTree(input, [("a/first.png", "clean.png")])
        let page = try #require(PNGEncoder.encode(try tiled(CLI.sample("clean.png"), 3)))
        try FileManager.default.createDirectory(at: input.appendingPathComponent("b"), withIntermediateDirectories: true)
        for i in 0..<8 { try page.write(to: input.appendingPathComponent("b/page\(i).png")) }
        let out = dir.appendingPathComponent("out")
        let r = try await CLI.run(["-r", input.path, "-o", out.path, "--jobs", "2"], onStart: { pid in
            signalOnFirstFile(in: out, pid: pid, signals: [SIGINT, SIGTERM], poll: 5_000) { _ in true }
        })
        #expect(r.status == 130)
        #expect(r.stderr.contains("interrupted again; stopped at once"))
        // Stopped at once: long before its nine pages were done. (Not a wall-clock bound: the
        // test's own wait for the process can queue behind other tests on a loaded machine.)
        let written = listTree(out)
        #expect(written.count < 9, "\(written.count) outputs written: the run went on")
        #expect(!written.keys.contains { $0.contains(".scantext-tmp-") })
        for (name, data) in written { #expect(!data.isEmpty, "\(name) is empty") }
    }

    @Test("shards 1/3, 2/3 and 3/3 are disjoint and together equal the unsharded run")
    func shards() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in")
        try makeTree(input, (0..<12).map { ("s\($0 % 2)/p\($0).png", $0 % 3 == 0 ? "clean.png" : "lowres.png") })
        let full = try await CLI.run(["-r", input.path, "-o", dir.appendingPathComponent("all").path, "--format", "jsonl"])
        #expect(full.status == 0)
        let whole = listTree(dir.appendingPathComponent("all"))
        #expect(whole.count == 12)
        var union: [String: Data] = [:]
        for k in 1...3 {
            let out = dir.appendingPathComponent("shard\(k)")
            let r = try await CLI.run(["-r", input.path, "-o", out.path, "--format", "jsonl", "--shard", "\(k)/3"])
            #expect(r.status == 0)
            let part = listTree(out)
            #expect(!part.isEmpty)
            #expect(Set(part.keys).isDisjoint(with: union.keys))
            union.merge(part) { a, _ in a }
        }
        // The JSON records carry the timings, which differ run to run; compare everything else.
        func withoutTimings(_ files: [String: Data]) -> [String: String] {
            files.mapValues { text($0).replacingOccurrences(of: #""timings":\{[^}]*\}"#, with: "", options: .regularExpression) }
        }
        #expect(withoutTimings(union) == withoutTimings(whole))
    }

    @Test("--progress without a terminal prints plain lines; --quiet prints only errors")
    func progressAndQuiet() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in")
        try makeTree(input, [("a.png", "clean.png")])
        try Data().write(to: input.appendingPathComponent("zero.png"))
        let quiet = try await CLI.run(["-r", input.path, "-o", dir.appendingPathComponent("q").path, "-q"])
        #expect(quiet.status == 1)
        #expect(quiet.stderrLines == ["scantext: \(input.path)/zero.png: is empty (0 bytes); re-copy or re-scan the file"])
        let plain = try await CLI.run(["-r", input.path, "--progress", "--format", "jsonl"])
        #expect(plain.status == 1)
        #expect(plain.stdout.split(separator: "\n").count == 2)
        #expect(plain.stderrLines.last?.hasPrefix("scantext: 1 done, 0 skipped, 1 failed; 1 page in ") == true, "\(plain.stderr)")
    }
}

@Suite(.enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct DamagedInputCLITests {
    @Test("a cut multi-page TIFF: its readable pages print, one line names the damage, exit 1")
    func stdout() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tiff = try Data(contentsOf: URL(fileURLWithPath: CLI.sample("multipage.tif")))
        let cut = dir.appendingPathComponent("cut.tif")
        try tiff.prefix(tiff.count * 2 / 3).write(to: cut)
        let r = try await CLI.run(["--format", "jsonl", cut.path, CLI.sample("lowres.png")])
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1)
        #expect(r.stderrLines.first?.hasPrefix("scantext: \(cut.path): is truncated") == true, "\(r.stderr)")
        let records = try r.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        // Two pages read, the damage as the file's last record, then the next input.
        #expect(records.map { $0["page"] as? Int } == [1, 2, 3, 1])
        #expect(records.map { $0["error"] is NSNull } == [true, true, false, true])
        #expect((records[0]["text"] as? String)?.isEmpty == false)
    }

    @Test("in a batch run a damaged input is named in --errors and gets no output; the others do")
    func batch() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in")
        try makeTree(input, [("good.png", "lowres.png")])
        let tiff = try Data(contentsOf: URL(fileURLWithPath: CLI.sample("multipage.tif")))
        try tiff.prefix(tiff.count * 2 / 3).write(to: input.appendingPathComponent("cut.tif"))
        try (ImageFixtures.gif(frames: 3)).write(to: input.appendingPathComponent("anim.gif"))
        let out = dir.appendingPathComponent("out"), errors = dir.appendingPathComponent("errors.jsonl")
        let r = try await CLI.run(["-r", input.path, "-o", out.path, "--errors", errors.path])
        #expect(r.status == 1)
        #expect(Set(listTree(out).keys) == ["good.txt"])
        let entries = try String(contentsOf: errors, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(Set(entries.compactMap { $0["source"] as? String }) == [input.path + "/anim.gif", input.path + "/cut.tif"])
        #expect(Set(entries.compactMap { $0["page"] as? Int }) == [2, 3])
        #expect(!listTree(dir).keys.contains { $0.contains(".scantext-tmp-") })
    }
}
