#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TextRecognition

/// A file's identity on disk, to recognise a directory reached twice (a symlink loop) and the
/// output directory inside an input tree.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(_ s: stat) {
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
    }

    /// The identity of `path`, following symbolic links, or nil when it cannot be examined.
    public init?(path: String) {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        self.init(s)
    }
}

/// One input file of a run.
public struct BatchInput: Sendable, Equatable {
    /// The path to open and to name in messages: the directory given joined with `relativePath`,
    /// the file as given, or `-` for standard input.
    public let path: String
    /// The path below the directory given, with `/` separators; a file given directly is its
    /// own name. Outputs mirror it and `--shard` hashes it.
    public let relativePath: String
    /// `relativePath` without its extension, the output's name before the format's extension.
    /// It keeps the extension when siblings share a stem (`scan.png` and `scan.jpg`), so no
    /// output overwrites another.
    public let outputStem: String
    /// Modification time in nanoseconds since the epoch, when known (for `--skip-existing`).
    public let modified: Int64?

    public static let standardInput = BatchInput(path: "-", relativePath: "stdin", outputStem: "stdin", modified: nil)
    public var isStandardInput: Bool { path == "-" }

    /// What the recognizer reads for this input.
    public var recognitionInput: RecognitionInput { isStandardInput ? .standardInput : .file(path) }
}

/// Something in an input tree that is reported instead of processed.
public struct WalkProblem: Sendable, Equatable {
    public enum Kind: Sendable { case failed, skipped }
    public let path: String
    public let kind: Kind
    /// A short machine-readable name, as in the error log's `code`.
    public let code: String
    public let problem: String
    public let remedy: String

    /// `PATH: PROBLEM; REMEDY`.
    public var message: String { "\(path): \(problem); \(remedy)" }

    /// Prints the problem on stderr: a failure as an error, a skip as a note.
    public func report() {
        switch kind {
        case .failed: Diagnostics.error(message)
        case .skipped: Diagnostics.note(message)
        }
    }
}

/// Walks the inputs named on the command line lazily and in a stable order: the arguments as
/// given, each directory depth-first with its entries sorted by byte value (like `LC_ALL=C ls`).
/// Only one directory listing per level of depth is held, so memory does not grow with the
/// number of files in the tree.
///
/// In directories it takes regular files whose extension names an image type and that pass
/// `--include`/`--exclude`. It skips hidden entries (names starting with `.`) and the output
/// directory, reports unreadable directories as failures and symbolic-link loops as skipped.
/// Files named on the command line are always taken, whatever their name.
public struct InputWalker: IteratorProtocol {
    public struct Options: Sendable {
        public var recursive = false
        public var include: [String] = []
        public var exclude: [String] = []
        /// Never descended into (the output directories), unless one is itself an input root.
        public var excludedDirectories: Set<FileIdentity> = []

        public init(recursive: Bool = false, include: [String] = [], exclude: [String] = [],
                    excludedDirectories: Set<FileIdentity> = []) {
            self.recursive = recursive
            self.include = include
            self.exclude = exclude
            self.excludedDirectories = excludedDirectories
        }
    }

    public enum Item: Equatable {
        case input(BatchInput)
        case problem(WalkProblem)
    }

    /// Extensions taken from directories, lower-cased: every type Leptonica decodes here.
    public static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "jpe", "jfif", "tif", "tiff", "webp", "bmp", "dib",
        "pnm", "pbm", "pgm", "ppm", "pam", "gif", "pdf",
    ]

    private struct Frame {
        let path: String
        let relative: String
        let identity: FileIdentity
        let entries: [String]
        /// Entry names whose outputs must keep their extension (siblings share the stem).
        let keepExtension: Set<String>
        var next = 0
    }

    private let options: Options
    private var roots: IndexingIterator<[String]>
    private var stack: [Frame] = []

    public init(roots: [String], options: Options) {
        self.roots = roots.makeIterator()
        self.options = options
    }

    public mutating func next() -> Item? {
        while true {
            if !stack.isEmpty {
                if let item = nextInTree() { return item }
                continue
            }
            guard let root = roots.next() else { return nil }
            if let item = start(root) { return item }
        }
    }

    // MARK: Roots

    private mutating func start(_ argument: String) -> Item? {
        if argument == "-" { return .input(.standardInput) }
        var s = stat()
        guard stat(argument, &s) == 0 else {
            // Let the recogniser open it and report it in its usual words.
            return .input(Self.file(path: argument, relative: Self.name(of: argument), keepExtension: false, modified: nil))
        }
        guard Self.isDirectory(s) else {
            return .input(Self.file(path: argument, relative: Self.name(of: argument), keepExtension: false, modified: Self.modified(s)))
        }
        guard options.recursive else {
            return .problem(WalkProblem(path: argument, kind: .failed, code: "is-directory",
                                        problem: "is a directory", remedy: "add --recursive (-r) to read the images in it"))
        }
        var path = argument
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return open(directory: path, relative: "", identity: FileIdentity(s))
    }

    /// Lists a directory and pushes it, or reports why it cannot be read.
    private mutating func open(directory path: String, relative: String, identity: FileIdentity) -> Item? {
        guard let dir = opendir(path) else {
            let reason = String(cString: strerror(errno))
            return .problem(WalkProblem(path: path, kind: .failed, code: "unreadable-directory",
                                        problem: "cannot read the directory (\(reason))",
                                        remedy: "check its permissions; its images were not processed"))
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(".") { continue }  // ".", "..", and hidden entries
            names.append(name)
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var stems: [String: Int] = [:]
        for name in names where Self.hasImageExtension(name) { stems[Self.stem(of: name), default: 0] += 1 }
        let keep = Set(names.filter { Self.hasImageExtension($0) && stems[Self.stem(of: $0), default: 0] > 1 })
        stack.append(Frame(path: path, relative: relative, identity: identity, entries: names, keepExtension: keep))
        return nil
    }

    // MARK: Trees

    private mutating func nextInTree() -> Item? {
        let top = stack.count - 1
        guard stack[top].next < stack[top].entries.count else {
            stack.removeLast()
            return nil
        }
        let frame = stack[top]
        let name = frame.entries[frame.next]
        stack[top].next += 1
        let path = frame.path == "/" ? "/" + name : frame.path + "/" + name
        let relative = frame.relative.isEmpty ? name : frame.relative + "/" + name
        let looksLikeImage = Self.hasImageExtension(name)

        var s = stat()
        guard stat(path, &s) == 0 else {
            let error = errno
            if error == ELOOP {
                return .problem(WalkProblem(path: path, kind: .skipped, code: "symlink-loop",
                                            problem: "symbolic link loop, skipped", remedy: "fix or remove the link"))
            }
            guard looksLikeImage, selected(name: name, relative: relative) else { return nil }
            var l = stat()
            if error == ENOENT && lstat(path, &l) == 0 {
                return .problem(WalkProblem(path: path, kind: .failed, code: "broken-link",
                                            problem: "broken symbolic link", remedy: "fix or remove the link"))
            }
            return .problem(WalkProblem(path: path, kind: .failed, code: "unreadable",
                                        problem: "cannot be examined (\(String(cString: strerror(error))))",
                                        remedy: "check the permissions of its directory"))
        }
        if Self.isDirectory(s) {
            guard options.recursive, !excluded(name: name, relative: relative) else { return nil }
            let identity = FileIdentity(s)
            if options.excludedDirectories.contains(identity) { return nil }
            if stack.contains(where: { $0.identity == identity }) {
                return .problem(WalkProblem(path: path, kind: .skipped, code: "symlink-loop",
                                            problem: "symbolic link loop (leads back to a directory above it), skipped",
                                            remedy: "remove the link, or leave it out with --exclude"))
            }
            return open(directory: path, relative: relative, identity: identity)
        }
        guard looksLikeImage, selected(name: name, relative: relative) else { return nil }
        guard (s.st_mode & S_IFMT) == S_IFREG else {
            return .problem(WalkProblem(path: path, kind: .skipped, code: "not-a-file",
                                        problem: "not a regular file, skipped", remedy: "only regular files are read from directories"))
        }
        return .input(Self.file(path: path, relative: relative, keepExtension: frame.keepExtension.contains(name),
                                modified: Self.modified(s)))
    }

    // MARK: Filters

    /// Whether a file found in a directory passes `--include` and `--exclude`.
    public func selected(name: String, relative: String) -> Bool {
        if excluded(name: name, relative: relative) { return false }
        return options.include.isEmpty || options.include.contains { Self.glob($0, name: name, relative: relative) }
    }

    private func excluded(name: String, relative: String) -> Bool {
        options.exclude.contains { Self.glob($0, name: name, relative: relative) }
    }

    /// A pattern with a `/` matches the path below the input directory (where `*` also crosses
    /// `/`); one without matches the file or directory name alone.
    public static func glob(_ pattern: String, name: String, relative: String) -> Bool {
        let subject = pattern.contains("/") ? relative : name
        return fnmatch(pattern, subject, 0) == 0
    }

    public static func hasImageExtension(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    // MARK: Helpers

    public static func file(path: String, relative: String, keepExtension: Bool, modified: Int64?) -> BatchInput {
        let stem: String
        if keepExtension {
            stem = relative
        } else {
            let directory = (relative as NSString).deletingLastPathComponent
            let base = Self.stem(of: (relative as NSString).lastPathComponent)
            stem = directory.isEmpty ? base : directory + "/" + base
        }
        return BatchInput(path: path, relativePath: relative, outputStem: stem, modified: modified)
    }

    /// `scan.tar.png` → `scan.tar`; `README` → `README`; `.png` is hidden and never reaches here.
    public static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    public static func name(of path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return name.isEmpty ? path : name
    }

    public static func isDirectory(_ s: stat) -> Bool { (s.st_mode & S_IFMT) == S_IFDIR }

    public static func modified(_ s: stat) -> Int64 {
        Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
    }
}
