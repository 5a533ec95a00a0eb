import Foundation
import ScanTestSupport
@testable import ScanBatch
import Synchronization
import Testing

/// A tree on disk for walker tests; removed by `remove()`.
struct Tree {
    let root: URL

    init(_ files: [String]) throws {
        root = try Fixtures.temporaryDirectory()
        for file in files { try add(file) }
    }

    func add(_ relative: String, contents: Data = Data("x".utf8)) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: url)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    func remove() { try? FileManager.default.removeItem(at: root) }
}

final class RecordingObserver: BatchPlanObserver {
    private let state = Mutex<([String], [WalkProblem])>(([], []))
    func skipped(_ input: BatchInput) { state.withLock { $0.0.append(input.relativePath) } }
    func problem(_ problem: WalkProblem) { state.withLock { $0.1.append(problem) } }
    var skips: [String] { state.withLock { $0.0 } }
    var problems: [WalkProblem] { state.withLock { $0.1 } }
}

func walk(_ roots: [String], _ options: InputWalker.Options) -> (inputs: [BatchInput], problems: [WalkProblem]) {
    var walker = InputWalker(roots: roots, options: options)
    var inputs: [BatchInput] = [], problems: [WalkProblem] = []
    while let item = walker.next() {
        switch item {
        case .input(let i): inputs.append(i)
        case .problem(let p): problems.append(p)
        }
    }
    return (inputs, problems)
}

@Suite struct InputWalkerTests {
    @Test("depth-first in byte order; images only; hidden entries left out")
    func orderAndFilters() throws {
        let tree = try Tree(["b/c.jpg", "a.png", "B.PNG", "b/.secret.png", ".cache/x.png", "notes.txt", "b/d/e.tiff", "b0.gif"])
        defer { tree.remove() }
        let (inputs, problems) = walk([tree.root.path], .init(recursive: true))
        #expect(problems.isEmpty)
        #expect(inputs.map(\.relativePath) == ["B.PNG", "a.png", "b/c.jpg", "b/d/e.tiff", "b0.gif"])
        #expect(inputs.map(\.outputStem) == ["B", "a", "b/c", "b/d/e", "b0"])
        #expect(inputs[2].path == tree.path("b/c.jpg"))
    }

    @Test("siblings that share a stem keep their extensions, so outputs never collide")
    func stemCollisions() throws {
        let tree = try Tree(["scan.png", "scan.jpg", "alone.tif", "x/scan.png"])
        defer { tree.remove() }
        let stems = walk([tree.root.path], .init(recursive: true)).inputs.map(\.outputStem)
        #expect(stems == ["alone", "scan.jpg", "scan.png", "x/scan"])
    }

    @Test("a directory without --recursive is an error; files named directly are always taken")
    func roots() throws {
        let tree = try Tree(["dir/a.png", "notes.txt"])
        defer { tree.remove() }
        let (inputs, problems) = walk([tree.path("dir"), tree.path("notes.txt"), "-"], .init())
        #expect(inputs.map(\.relativePath) == ["notes.txt", "stdin"])
        #expect(inputs.last?.isStandardInput == true)
        #expect(problems.count == 1)
        #expect(problems.first?.message == "\(tree.path("dir")): is a directory; add --recursive (-r) to read the images in it")
    }

    @Test("the output directory inside the tree is not read, unless it is the tree itself")
    func outputDirectory() throws {
        let tree = try Tree(["a.png", "out/old.png", "out/deep/x.png"])
        defer { tree.remove() }
        let out = try #require(FileIdentity(path: tree.path("out")))
        #expect(walk([tree.root.path], .init(recursive: true, excludedDirectories: [out])).inputs.map(\.relativePath) == ["a.png"])
        let root = try #require(FileIdentity(path: tree.root.path))
        #expect(walk([tree.root.path], .init(recursive: true, excludedDirectories: [root])).inputs.count == 3)
    }

    @Test("--include and --exclude: name patterns, path patterns, pruned directories")
    func globs() throws {
        let tree = try Tree(["a.png", "a.jpg", "drafts/b.png", "keep/c.png", "keep/drafts/d.png"])
        defer { tree.remove() }
        let root = tree.root.path
        #expect(walk([root], .init(recursive: true, include: ["*.png"])).inputs.map(\.relativePath)
                == ["a.png", "drafts/b.png", "keep/c.png", "keep/drafts/d.png"])
        #expect(walk([root], .init(recursive: true, exclude: ["drafts"])).inputs.map(\.relativePath) == ["a.jpg", "a.png", "keep/c.png"])
        #expect(walk([root], .init(recursive: true, exclude: ["keep/*"])).inputs.map(\.relativePath) == ["a.jpg", "a.png", "drafts/b.png"])
        #expect(walk([root], .init(recursive: true, include: ["keep/*.png"], exclude: ["d.*"])).inputs.map(\.relativePath) == ["keep/c.png"])
    }

    @Test("symlink loops are skipped with a note; broken links and unreadable directories fail")
    func links() throws {
        let tree = try Tree(["a/x.png"])
        defer { tree.remove() }
        try FileManager.default.createSymbolicLink(atPath: tree.path("a/up"), withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: tree.path("a/self"), withDestinationPath: "self")
        try FileManager.default.createSymbolicLink(atPath: tree.path("a/gone.png"), withDestinationPath: "nowhere.png")
        let (inputs, problems) = walk([tree.root.path], .init(recursive: true))
        #expect(inputs.map(\.relativePath) == ["a/x.png"])
        #expect(problems.map(\.code) == ["broken-link", "symlink-loop", "symlink-loop"])
        #expect(problems.map(\.kind) == [.failed, .skipped, .skipped])
        #expect(problems[0].message.hasPrefix(tree.path("a/gone.png") + ": broken symbolic link; "))
    }
}

@Suite struct ShardTests {
    @Test("FNV-1a 64 matches its published test vectors")
    func vectors() {
        #expect(Shard.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("K/N parsing", arguments: [("1/1", true), ("2/3", true), ("3/3", true), ("0/3", false), ("4/3", false), ("1/0", false), ("a/b", false), ("1", false), ("1/2/3", false)])
    func parsing(_ text: String, _ valid: Bool) {
        #expect((Shard(argument: text) != nil) == valid)
    }

    @Test("every path is in exactly one shard, and shards are balanced")
    func partition() {
        let paths = (0..<3000).map { "dir\($0 % 7)/scan \($0).jpg" }
        var sizes = [0, 0, 0, 0, 0]
        for p in paths {
            let owners = (1...5).filter { Shard(index: $0, count: 5).contains(BatchInput(path: p, relativePath: p, outputStem: p, modified: nil)) }
            #expect(owners.count == 1)
            if let k = owners.first { sizes[k - 1] += 1 }
        }
        #expect(sizes.allSatisfy { (500...700).contains($0) })
    }
}

@Suite struct BatchPlanTests {
    @Test("--skip-existing compares modification times")
    func skipExisting() throws {
        let tree = try Tree(["in/old.png", "in/new.png", "in/none.png", "out/old.txt", "out/new.txt"])
        defer { tree.remove() }
        let past = Date(timeIntervalSinceNow: -3600)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: tree.path("out/new.txt"))
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: tree.path("in/old.png"))
        let observer = RecordingObserver()
        var plan = BatchPlan(walker: InputWalker(roots: [tree.path("in")], options: .init(recursive: true)),
                             layout: OutputLayout(directory: tree.path("out"), fileExtension: "txt"),
                             shard: nil, skipExisting: true, trackCollisions: false, observer: observer)
        var taken: [String] = []
        while let input = plan.next() { taken.append(input.relativePath) }
        #expect(taken == ["new.png", "none.png"])
        #expect(observer.skips == ["old.png"])
    }

    @Test("two roots that would write the same output: the second is refused, not overwritten")
    func collisions() throws {
        let tree = try Tree(["one/a.png", "two/a.png", "two/b.png"])
        defer { tree.remove() }
        let observer = RecordingObserver()
        var plan = BatchPlan(walker: InputWalker(roots: [tree.path("one"), tree.path("two")], options: .init(recursive: true)),
                             layout: OutputLayout(directory: tree.path("out"), fileExtension: "txt"),
                             shard: nil, skipExisting: false, trackCollisions: true, observer: observer)
        var taken: [String] = []
        while let input = plan.next() { taken.append(input.path) }
        #expect(taken == [tree.path("one/a.png"), tree.path("two/b.png")])
        #expect(observer.problems.map(\.code) == ["output-collision"])
    }
}

@Suite struct ProgressTests {
    @Test("progress and summary lines")
    func lines() {
        var c = RunCounts()
        c.done = 10; c.skipped = 2; c.failedInputs = 1; c.pages = 30; c.total = 40; c.current = "in/a.png"
        #expect(ProgressReporter.describe(c, elapsed: 12, separator: ", ")
                == "13/40 files, 1 failed, 30 pages, 2.5 pages/s, ETA 0:29, in/a.png")
        #expect(ProgressReporter.duration(7325) == "2:02:05")
        let o = RunSession.Outcome(counts: c, interrupted: true, outputClosed: false, elapsed: 12)
        #expect(RunSession.summary(o) == "interrupted: 10 done, 2 skipped, 1 failed; 30 pages in 12.0 s (2.50 pages/s)")
    }
}
