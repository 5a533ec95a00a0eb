import Foundation
import ScanOutput
import Synchronization
import SystemPackage
import TextRecognition

/// Where a run's pages go: stdout, or one file per input in an output tree. Calls come in page
/// order from the recognizer's delivery queue (`begin`, `write`…, `end` per input), and
/// `start`/`finish` from the session before and after the run.
public protocol PageSink: Sendable {
    func start()
    /// The first page of `input` is next. Throws when its output cannot be created.
    func begin(_ input: BatchInput) throws(BatchError)
    func write(_ page: RecognizedPage) throws(BatchError)
    /// The last page of the input was written. `complete` false drops the input's output.
    func end(_ input: BatchInput, complete: Bool) throws(BatchError)
    /// After the run: an input cut short by an interruption is dropped. Throws when the
    /// output cannot be completed (a PDF that cannot be put together).
    func finish() throws(BatchError)
    /// The reader of stdout went away; nothing more is wanted.
    var outputClosed: Bool { get }
}

/// Every page of every input on stdout, in one stream (text pages separated by form feeds).
/// A failed page is still written (an empty text page, or a JSON record with its error), so
/// page positions stay aligned.
public final class StandardOutputSink: PageSink {
    private let renderer: Mutex<PageRenderer>
    private let format: OutputFormat
    private let out = DescriptorWriter.standardOutput
    /// `--format pdf`: every page's PDF, in order, gathered on disk and put together at the end.
    private let book = Mutex<PDFBook.Builder?>(nil)

    public init(format: OutputFormat) {
        self.format = format
        renderer = Mutex(PageRenderer(format: format))
    }

    public func start() { out.write(renderer.withLock { $0.header() }) }
    public func begin(_ input: BatchInput) throws(BatchError) {}
    public func write(_ page: RecognizedPage) throws(BatchError) {
        // A page whose text came from the PDF carries its original page whatever the format;
        // only --format pdf gathers it.
        if format == .pdf, page.pdf != nil || page.originalPage != nil {
            try book.withLock { (book: inout PDFBook.Builder?) throws(BatchError) in
                do throws(PDFBook.Failure) {
                    if book == nil { book = try PDFBook.Builder() }
                    try book?.add(page)
                } catch {
                    throw BatchError("the searchable PDF cannot be gathered (\(error)); check free space in the temporary directory")
                }
            }
        }
        out.write(renderer.withLock { $0.page(page) })
    }
    public func end(_ input: BatchInput, complete: Bool) throws(BatchError) {}
    public func finish() throws(BatchError) {
        if format == .pdf {
            try book.withLock { (book: inout PDFBook.Builder?) throws(BatchError) in
                guard let builder = book else { return }
                defer { book = nil }
                let file: String
                do throws(PDFBook.Failure) {
                    file = try builder.finish()
                } catch {
                    throw BatchError("the searchable PDF could not be put together (\(error)); no PDF was written")
                }
                try streamFile(file) { bytes in out.write(bytes: &bytes) }
            }
            return
        }
        out.write(renderer.withLock { $0.footer() })
    }
    public var outputClosed: Bool { out.isBroken }
}

/// Nothing (`--format none`: only `--save-pages` output).
public struct DiscardingSink: PageSink {
    public init() {}
    public func start() {}
    public func begin(_ input: BatchInput) throws(BatchError) {}
    public func write(_ page: RecognizedPage) throws(BatchError) {}
    public func end(_ input: BatchInput, complete: Bool) throws(BatchError) {}
    public func finish() throws(BatchError) {}
    public var outputClosed: Bool { false }
}

/// `--output-dir`: one file per input, mirroring its relative path, holding all its pages. Each
/// is written to a temporary file beside its destination and renamed into place only when
/// every page succeeded, so no output is ever partial or empty.
public final class OutputTreeSink: PageSink {
    public let layout: OutputLayout
    public let format: OutputFormat

    private struct Open {
        var writer: AtomicFileWriter
        var renderer: PageRenderer
        /// `--format pdf`: the input's pages, put together when it ends.
        var book: PDFBook.Builder?
    }
    private let current = Mutex<Open?>(nil)
    private let lastDirectory = Mutex<String?>(nil)

    public init(layout: OutputLayout, format: OutputFormat) {
        self.layout = layout
        self.format = format
    }

    public func start() {}

    public func begin(_ input: BatchInput) throws(BatchError) {
        let destination = layout.destination(for: input)
        let directory = (destination as NSString).deletingLastPathComponent
        // Inputs come folder by folder, so one directory check per folder, not per input.
        if lastDirectory.withLock({ $0 }) != directory {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw BatchError("\(input.path): cannot create the output directory \(directory); check the permissions of --output-dir")
            }
            lastDirectory.withLock { $0 = directory }
        }
        let format = self.format
        try current.withLock { (open: inout Open?) throws(BatchError) in
            open?.writer.abandon()
            let writer = try AtomicFileWriter(destination: destination)
            let renderer = PageRenderer(format: format, source: input.path)
            try writer.write(renderer.header())
            open = Open(writer: writer, renderer: renderer)
        }
    }

    public func write(_ page: RecognizedPage) throws(BatchError) {
        try current.withLock { (open: inout Open?) throws(BatchError) in
            guard var o = open else { return }
            let text = o.renderer.page(page)
            if o.renderer.format == .pdf, page.pdf != nil || page.originalPage != nil {
                do throws(PDFBook.Failure) {
                    if o.book == nil { o.book = try PDFBook.Builder() }
                    try o.book?.add(page)
                } catch {
                    throw BatchError("\(page.source): its searchable PDF cannot be gathered (\(error)); check free space in the temporary directory")
                }
            }
            open = o
            try o.writer.write(text)
        }
    }

    public func end(_ input: BatchInput, complete: Bool) throws(BatchError) {
        try current.withLock { (open: inout Open?) throws(BatchError) in
            guard let o = open else { return }
            open = nil
            guard complete else {
                o.writer.abandon()
                return
            }
            if o.renderer.format == .pdf, let book = o.book {
                let file: String
                do throws(PDFBook.Failure) {
                    file = try book.finish()
                } catch {
                    o.writer.abandon()
                    throw BatchError("\(input.path): its searchable PDF could not be put together (\(error))")
                }
                var failure: BatchError?
                do throws(BatchError) {
                    try streamFile(file) { bytes in
                        if failure == nil {
                            do throws(BatchError) { try o.writer.write(bytes: &bytes) } catch { failure = error }
                        }
                    }
                } catch {
                    failure = error
                }
                if let failure {
                    o.writer.abandon()
                    throw failure
                }
            }
            try o.writer.write(o.renderer.footer())
            try o.writer.commit()
        }
    }

    public func finish() throws(BatchError) {
        current.withLock { o in
            o?.writer.abandon()
            o = nil
        }
    }

    public var outputClosed: Bool { false }
}

/// Hands a file's bytes to `write` a mebibyte at a time; throws when it cannot be read.
func streamFile(_ path: String, _ write: (inout [UInt8]) -> Void) throws(BatchError) {
    do {
        let fd = try FileDescriptor.open(FilePath(path), .readOnly)
        defer { try? fd.close() }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
            guard n > 0 else { return }
            var chunk = Array(buffer.prefix(n))
            write(&chunk)
        }
    } catch {
        throw BatchError("\(path): the assembled PDF could not be read back (\(error)); check the temporary directory")
    }
}
