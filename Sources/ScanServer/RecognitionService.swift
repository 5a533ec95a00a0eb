import Foundation
import Hummingbird
import ImageInput
import Logging
import PagePreparation
import ScanOutput
import Synchronization
import TextRecognition

/// The recognizer every request shares: one pool of engines started at launch, and a bound on
/// the requests held at once. A request's upload goes through the same stages and renderers
/// as the command line's input, and its answer is the bytes the command line would print.
final class RecognitionService: Sendable {
    let configuration: ServerConfiguration
    let engines: EnginePool
    let metrics: ServerMetrics
    let admission: Admission
    let logger: Logger
    private let warmed = Atomic<Bool>(false)

    init(configuration: ServerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        engines = EnginePool(capacity: configuration.jobs)
        let metrics = ServerMetrics()
        self.metrics = metrics
        let jobs = configuration.jobs
        admission = Admission(limit: configuration.admitted) { admitted in
            metrics.requestsInFlight.set(Double(admitted))
            metrics.requestsWaiting.set(Double(max(0, admitted - jobs)))
        }
    }

    /// Starts every engine with the default languages; `/readyz` answers 200 from then on.
    func warm() throws(RecognitionError) {
        try engines.warm(configuration.recognition.engine, count: configuration.jobs)
        warmed.store(true, ordering: .releasing)
    }

    var isReady: Bool { warmed.load(ordering: .acquiring) }

    /// A place for one request, or 503 with `Retry-After` when the queue is full.
    func admit() throws(APIError) -> Admission.Ticket {
        guard let ticket = admission.enter() else {
            var busy = APIError(.serviceUnavailable, code: "busy",
                                "the server is busy: \(admission.limit) requests are in progress or queued; retry after a few seconds")
            busy.headers[.retryAfter] = "2"
            throw busy
        }
        return ticket
    }

    /// Opens an upload as the command line opens a file, named `upload` in messages.
    func source(_ body: ByteBuffer, options: RecognitionOptions) throws(APIError) -> ImageSource {
        do throws(InputError) {
            return try ImageSource(name: "upload", data: Data(buffer: body), limits: options.limits, pdfResolution: options.pdfResolution)
        } catch {
            throw APIError(error)
        }
    }

    /// Recognises every page of `source`. The body streams each page's output as soon as it
    /// and every page before it are done (a PDF, which must be whole, at the end); a client
    /// that goes away abandons the pages not yet done and frees their engines.
    func recognize(_ source: ImageSource, options request: RequestOptions, ticket: Admission.Ticket) throws(APIError) -> Response {
        var options = request.recognition
        options.jobs = max(1, min(configuration.jobs, source.pageCount))
        let recognizer: TextRecognizer
        do throws(RecognitionError) {
            recognizer = try TextRecognizer(options: options, engines: engines)
        } catch {
            throw APIError(error)
        }
        let format = request.format
        let (stream, continuation) = AsyncThrowingStream<ResponseChunk, any Error>.makeStream()
        let output = ResponseOutput(format: format)
        let header = output.header()
        if !header.isEmpty { continuation.yield(.bytes(ByteBuffer(string: header))) }
        let metrics = self.metrics, logger = self.logger
        let task = recognizer.start([RecognitionInput.source(source)], onPage: { page in
            metrics.page(page)
            if let error = page.error { logger.notice("page failed", metadata: ["error": .string(error.message)]) }
            do {
                if let chunk = try output.page(page) { continuation.yield(.bytes(chunk)) }
            } catch {
                continuation.finish(throwing: error)
            }
        }) { _ in
            // The work is done: the request's place is free before its last bytes go out.
            do {
                let last = try output.finish()
                ticket.release()
                if let last { continuation.yield(last) }
                continuation.finish()
            } catch {
                ticket.release()
                logger.error("response failed", metadata: ["error": "\(error)"])
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.abandon() }
        }
        let body = ResponseBody { writer in
            do {
                for try await chunk in stream {
                    switch chunk {
                    case .bytes(let bytes): try await writer.write(bytes)
                    case .file(let file): try await Self.send(file: file, to: &writer)
                    }
                }
            } catch {
                task.abandon()
                throw error
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: format.contentType], body: body)
    }

    /// Sends a file a mebibyte at a time.
    private static func send(file: ResponseFile, to writer: inout any ResponseBodyWriter) async throws {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { throw PDFBook.Failure(description: "the PDF could not be read back") }
        defer { try? handle.close() }
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            try await writer.write(ByteBuffer(bytes: data))
        }
    }

    /// The outline of every page of `source`, as `scantext detect --format jsonl` prints it.
    func detect(_ source: ImageSource, crop: CropMode, ticket: Admission.Ticket) async -> Response {
        var options = PageOutliner.Options(crop: crop, limits: configuration.recognition.limits, flattens: false)
        options.jobs = max(1, min(configuration.jobs, source.pageCount))
        options.pdfResolution = configuration.recognition.pdfResolution
        let lines = await withCheckedContinuation { (done: CheckedContinuation<[String], Never>) in
            let collected = Mutex<[String]>([])
            PageOutliner(options: options).start([RecognitionInput.source(source)], onPage: { page in
                let line = PageRecord(page, view: .outline).json
                collected.withLock { $0.append(line) }
            }) { _ in done.resume(returning: collected.withLock { $0 }) }
        }
        ticket.release()
        return Response(status: .ok, headers: [.contentType: OutputFormat.jsonl.contentType],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: lines.map { $0 + "\n" }.joined())))
    }
}
