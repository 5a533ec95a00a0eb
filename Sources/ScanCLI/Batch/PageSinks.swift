import Foundation
import Synchronization
import TextRecognition

/// Where a run's pages go: stdout, or one file per input in an output tree. Calls come in page
/// order from the recognizer's delivery queue (`begin`, `write`…, `end` per input), and
/// `start`/`finish` from the session before and after the run.
protocol PageSink: Sendable {
    func start()
    /// The first page of `input` is next. Throws when its output cannot be created.
    func begin(_ input: BatchInput) throws(CLIError)
    func write(_ page: RecognizedPage) throws(CLIError)
    /// The last page of the input was written. `complete` false drops the input's output.
    func end(_ input: BatchInput, complete: Bool) throws(CLIError)
    /// After the run: an input cut short by an interruption is dropped.
    func finish()
    /// The reader of stdout went away; nothing more is wanted.
    var outputClosed: Bool { get }
}

/// Every page of every input on stdout, in one stream (text pages separated by form feeds).
/// A failed page is still written (an empty text page, or a JSON record with its error), so
/// page positions stay aligned.
final class StandardOutputSink: PageSink {
    private let renderer: Mutex<PageRenderer>
    private let out = DescriptorWriter.standardOutput

    init(format: OutputFormat) { renderer = Mutex(PageRenderer(format: format)) }

    func start() { out.write(renderer.withLock { $0.header() }) }
    func begin(_ input: BatchInput) throws(CLIError) {}
    func write(_ page: RecognizedPage) throws(CLIError) {
        out.write(renderer.withLock { $0.page(page) })
    }
    func end(_ input: BatchInput, complete: Bool) throws(CLIError) {}
    func finish() { out.write(renderer.withLock { $0.footer() }) }
    var outputClosed: Bool { out.isBroken }
}

/// Nothing (`--format none`: only `--save-pages` output).
struct DiscardingSink: PageSink {
    func start() {}
    func begin(_ input: BatchInput) throws(CLIError) {}
    func write(_ page: RecognizedPage) throws(CLIError) {}
    func end(_ input: BatchInput, complete: Bool) throws(CLIError) {}
    func finish() {}
    var outputClosed: Bool { false }
}

/// `--output-dir`: one file per input, mirroring its relative path, holding all its pages. Each
/// is written to a temporary file beside its destination and renamed into place only when
/// every page succeeded, so no output is ever partial or empty.
final class OutputTreeSink: PageSink {
    let layout: OutputLayout
    let format: OutputFormat

    private struct Open {
        var writer: AtomicFileWriter
        var renderer: PageRenderer
    }
    private let current = Mutex<Open?>(nil)
    private let lastDirectory = Mutex<String?>(nil)

    init(layout: OutputLayout, format: OutputFormat) {
        self.layout = layout
        self.format = format
    }

    func start() {}

    func begin(_ input: BatchInput) throws(CLIError) {
        let destination = layout.destination(for: input)
        let directory = (destination as NSString).deletingLastPathComponent
        // Inputs come folder by folder, so one directory check per folder, not per input.
        if lastDirectory.withLock({ $0 }) != directory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CLIError("\(input.path): cannot create the output directory \(directory); check the permissions of --output-dir")
            }
            lastDirectory.withLock { $0 = directory }
        }
        let format = self.format
        try current.withLock { (open: inout Open?) throws(CLIError) in
            open?.writer.abandon()
            let writer = try AtomicFileWriter(destination: destination)
            let renderer = PageRenderer(format: format)
            try writer.write(renderer.header())
            open = Open(writer: writer, renderer: renderer)
        }
    }

    func write(_ page: RecognizedPage) throws(CLIError) {
        try current.withLock { (open: inout Open?) throws(CLIError) in
            guard var o = open else { return }
            let text = o.renderer.page(page)
            open = o
            try o.writer.write(text)
        }
    }

    func end(_ input: BatchInput, complete: Bool) throws(CLIError) {
        try current.withLock { (open: inout Open?) throws(CLIError) in
            guard let o = open else { return }
            open = nil
            guard complete else {
                o.writer.abandon()
                return
            }
            try o.writer.write(o.renderer.footer())
            try o.writer.commit()
        }
    }

    func finish() {
        current.withLock { o in
            o?.writer.abandon()
            o = nil
        }
    }

    var outputClosed: Bool { false }
}
