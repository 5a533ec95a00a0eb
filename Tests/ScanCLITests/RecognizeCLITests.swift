import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Subprocess
import Synchronization
import SystemPackage
import ScanTestSupport
import Testing

@Suite(.enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct RecognizeCLITests {
    @Test("a clean page: text on stdout, nothing on stderr, exit 0")
    func clean() async throws {
        let r = try await CLI.run([CLI.sample("clean.png")])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let truth = try String(contentsOfFile: CLI.sample("clean.txt"), encoding: .utf8)
        #expect(TextScore.cer(r.stdout, truth) < 0.02)
    }

    @Test("a multi-page TIFF: every page, form feeds between them")
    func multipage() async throws {
        let r = try await CLI.run([CLI.sample("multipage.tif")])
        #expect(r.status == 0)
        let pages = r.stdout.components(separatedBy: "\u{0C}")
        #expect(pages.count == 3)
        let truths = try String(contentsOfFile: CLI.sample("multipage.txt"), encoding: .utf8).components(separatedBy: "\u{0C}")
        for (page, truth) in zip(pages, truths) { #expect(TextScore.cer(page, truth) < 0.03) }
    }

    @Test("standard input")
    func stdin() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: CLI.sample("lowres.png")))
        let r = try await CLI.run(["-"], stdin: data)
        #expect(r.status == 0)
        #expect(TextScore.cer(r.stdout, try String(contentsOfFile: CLI.sample("lowres.txt"), encoding: .utf8)) < 0.08)
        let empty = try await CLI.run(["-"], stdin: Data())
        #expect(empty.status == 1)
        #expect(empty.stderrLines == ["scantext: <stdin>: is empty (0 bytes); re-copy or re-scan the file"])
    }

    @Test("bad inputs among good ones: one line each, the good text still printed, exit 1")
    func badInputs() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ name: String, _ data: Data) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
        let clean = try Data(contentsOf: URL(fileURLWithPath: CLI.sample("clean.png")))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: CLI.sample("noisy.jpg")))
        var corruptJPEG = jpeg
        for i in stride(from: 700, to: corruptJPEG.count - 2, by: 3) { corruptJPEG[i] = 0xFF }
        let bad: [(String, String)] = [
            (dir.appendingPathComponent("missing.png").path, "no such file"),
            (try file("empty.png", Data()), "is empty (0 bytes)"),
            (try file("notes.png", Data("just some notes, not a picture\n".utf8)), "is not an image"),
            (try file("cut.png", clean.prefix(clean.count / 2)), "truncated"),
            (try file("cut.jpg", jpeg.prefix(jpeg.count / 2)), "truncated"),
            (try file("corrupt.jpg", corruptJPEG), "corrupt"),
            (try file("bomb.png", BadFiles.pngHeader(width: 100_000, height: 100_000)), "over the limit"),
            (dir.path, "is a directory"),
        ]
        let good = CLI.sample("clean.png")
        let r = try await CLI.run([good] + bad.map(\.0) + [CLI.sample("lowres.png")])
        #expect(r.status == 1)
        let lines = r.stderrLines
        #expect(lines.count == bad.count, "\(lines)")
        for (path, problem) in bad {
            let line = lines.first { $0.hasPrefix("scantext: \(path): ") }
            #expect(line?.contains(problem) == true, "\(path): \(line ?? "no line")")
            #expect(line?.contains("; ") == true, "no remedy in \(line ?? "")")
        }
        // Failed files are empty pages, so positions stay aligned; a directory is not a page.
        let pages = r.stdout.components(separatedBy: "\u{0C}")
        #expect(pages.count == bad.count - 1 + 2)
        #expect(TextScore.cer(pages[0], try String(contentsOfFile: CLI.sample("clean.txt"), encoding: .utf8)) < 0.02)
        #expect(TextScore.cer(pages.last ?? "", try String(contentsOfFile: CLI.sample("lowres.txt"), encoding: .utf8)) < 0.08)
        // Inputs are never touched and nothing else is written.
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(listing == ["bomb.png", "corrupt.jpg", "cut.jpg", "cut.png", "empty.png", "notes.png"])
    }

    @Test("an unreadable file is reported and skipped")
    func unreadable() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("secret.png").path
        try FileManager.default.copyItem(atPath: CLI.sample("lowres.png"), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        // root reads everything, so drop to nobody when running as root.
        let prefix = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        if !prefix.isEmpty && !FileManager.default.isExecutableFile(atPath: prefix[0]) { return }
        let r = try await CLI.run([path, CLI.sample("lowres.png")], prefix: prefix)
        #expect(r.status == 1)
        #expect(r.stderrLines == ["scantext: \(path): permission denied; check the file's permissions"])
        #expect(!r.stdout.isEmpty)
    }

    @Test("a usage error exits 64 with the parser's message and nothing on stdout (the cases: ParsingTests)")
    func usage() async throws {
        let r = try await CLI.run(["--psm", "99", "x.png"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("Error: --psm must be 0 to 13, got 99"))
    }

    @Test("an unknown option is named even when no input is given; no input alone says so", arguments: [[], ["detect"]])
    func unknownOptionBeforeMissingInput(_ command: [String]) async throws {
        let bogus = try await CLI.run(command + ["--bogus"])
        #expect(bogus.status == 64)
        #expect(bogus.stderr.contains("Unknown option '--bogus'"))
        #expect(!bogus.stderr.contains("no input given"))
        let none = try await CLI.run(command)
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("Error: no input given"))
        #expect(none.stderr.contains("Usage: scantext \(command.first ?? "recognize") "))
        #expect(none.stdout.isEmpty)
    }

    @Test("missing language data names the package and exits 2")
    func missingLanguage() async throws {
        let r = try await CLI.run(["--lang", "eng+zzz", CLI.sample("clean.png")])
        #expect(r.status == 2)
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.contains("apt-get install tesseract-ocr-zzz"))
        #expect(r.stdout.isEmpty)
    }

    @Test("JSON Lines: one object per page with every field")
    func jsonLines() async throws {
        let r = try await CLI.run(["--format", "jsonl", CLI.sample("multipage.tif"), "/nonexistent.png"])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        for (i, o) in objects.prefix(3).enumerated() {
            #expect(o["source"] as? String == CLI.sample("multipage.tif"))
            #expect(o["page"] as? Int == i + 1)
            #expect(o["width"] as? Int == 1000)
            #expect(o["height"] as? Int == 560)
            #expect(o["quad"] is NSNull)
            #expect(o["error"] is NSNull)
            #expect((o["text"] as? String)?.isEmpty == false)
            #expect(((o["confidence"] as? Double) ?? 0) > 50)
            let words = try #require(o["words"] as? [[String: Any]])
            #expect(words.count > 10)
            let box = try #require(words.first?["box"] as? [Int])
            #expect(box.count == 4 && box[2] > 0 && box[3] > 0)
            #expect(words.first?["text"] is String)
            #expect(words.first?["confidence"] is Double)
            let timings = try #require(o["timings"] as? [String: Double])
            #expect(Set(timings.keys) == ["decode", "detect", "warp", "upright", "engine", "recognize"])
            // Its characters are 13 pixels tall: scaled up to 20.
            #expect(o["rotation"] as? Int == 0 && o["skew"] as? Double == 0)
            #expect(abs((o["scale"] as? Double ?? 0) - 20.0 / 13) < 0.01)
            // One column of text, read as one block.
            #expect(o["layout"] as? String == "block")
            #expect(timings.values.allSatisfy { $0 >= 0 } && (timings["recognize"] ?? 0) > 0)
        }
        // Each worker starts its engine on its first page and reuses it after.
        let starts = objects.prefix(3).compactMap { ($0["timings"] as? [String: Double])?["engine"] }.filter { $0 > 0 }
        #expect((1...ProcessInfo.processInfo.activeProcessorCount).contains(starts.count))
        let failed = objects[3]
        #expect(failed["source"] as? String == "/nonexistent.png")
        #expect((failed["error"] as? String)?.contains("no such file") == true)
        #expect(failed["text"] as? String == "")
    }

    @Test("TSV and hOCR come from Tesseract's renderers")
    func renderers() async throws {
        let tsv = try await CLI.run(["--format", "tsv", CLI.sample("multipage.tif")])
        #expect(tsv.status == 0)
        #expect(tsv.stdout.hasPrefix("level\tpage_num\t"))
        #expect(tsv.stdout.contains("\n1\t3\t"))
        let hocr = try await CLI.run(["--format", "hocr", CLI.sample("clean.png")])
        #expect(hocr.stdout.contains("class='ocr_page'"))
        #expect(hocr.stdout.hasSuffix("</html>\n"))
        // ALTO: the tesseract CLI's document, one Page per page, well-formed XML.
        let alto = try await CLI.run(["--format", "alto", CLI.sample("multipage.tif")])
        #expect(alto.status == 0)
        #expect(alto.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<alto xmlns=\"http://www.loc.gov/standards/alto/ns-v3#\""))
        #expect(alto.stdout.components(separatedBy: "<Page ").count == 4)
        #expect(alto.stdout.hasSuffix("\t</Layout>\n</alto>\n"))
        let document = try XMLDocument(data: Data(alto.stdout.utf8))
        #expect(try document.nodes(forXPath: "//*[local-name()='String']").count > 20)
    }

    @Test("Tesseract's OpenMP runs one thread per worker, whatever the environment says")
    func openMPCapped() async throws {
        // Worker threads are named scantext-ocr; OpenMP threads started by a worker inherit the
        // name, so more of them than --jobs means OpenMP fanned out (it starts 4 per engine).
        let peak = ThreadPeak()
        let s = CLI.sample("clean.png")
        let r = try await CLI.run(["--jobs", "2", s, s, s, s], environment: ["OMP_NUM_THREADS": "4", "OMP_THREAD_LIMIT": "8"]) { pid in
            Thread {
                while kill(pid, 0) == 0 {
                    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
                    let named = tasks.filter {
                        (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8))?.hasPrefix("scantext-ocr") == true
                    }.count
                    peak.record(named)
                    usleep(2000)
                }
            }.start()
        }
        #expect(r.status == 0)
        #expect(peak.value >= 1, "the sampler saw no worker thread")
        #expect(peak.value <= 2, "\(peak.value) threads named scantext-ocr for 2 workers")
    }

    @Test("--save-pages writes the corrected pages, --format none skips OCR")
    func savePages() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try await CLI.run(["--save-pages", dir.path, "--format", "none", "--crop", "100,50;1100,50;1100,850;100,850",
                             CLI.sample("clean.png"), CLI.sample("multipage.tif")])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files == ["clean.png", "multipage-p1.png", "multipage-p2.png", "multipage-p3.png"])
    }

    @Test("a reader that closes stdout early ends the run quietly with exit 141, as SIGPIPE would")
    func closedPipe() async throws {
        let s = CLI.sample("lowres.png")
        let pipe = try FileDescriptor.pipe()
        // Take the first bytes of the first page, then go away, as `head -c 10` does; on a thread
        // of its own, so that it goes away while later pages are still being read.
        let taken = Mutex(0)
        let reader = Thread {
            var first = [UInt8](repeating: 0, count: 10)
            let n = (try? first.withUnsafeMutableBytes { try pipe.readEnd.read(into: $0) }) ?? 0
            try? pipe.readEnd.close()
            taken.withLock { $0 = n }
        }
        reader.start()
        let result = try await Subprocess.run(
            .path(FilePath(CLI.binary)), arguments: Arguments(["--jobs", "1"] + Array(repeating: s, count: 12)),
            input: .none, output: .fileDescriptor(pipe.writeEnd, closeAfterSpawningProcess: true), error: .data(limit: 1 << 20))
        #expect(taken.withLock { $0 } == 10)
        #expect(result.terminationStatus == .exited(141))
        #expect(result.standardError.isEmpty, "\(String(decoding: result.standardError, as: UTF8.self))")
    }
}

final class ThreadPeak: @unchecked Sendable {
    // Safety: every access goes through `lock`.
    private let lock = NSLock()
    private var peak = 0
    func record(_ n: Int) { lock.withLock { peak = max(peak, n) } }
    var value: Int { lock.withLock { peak } }
}
