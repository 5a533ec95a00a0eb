import ArgumentParser
import Foundation
import Logging
import ScanBatch
import ScanServer
import TextRecognition

/// `scantext serve`: the recognizer over HTTP, its engines started once.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve recognition over HTTP: POST an image or PDF, get its text back.",
        discussion: """
            Starts --jobs Tesseract engines once and shares them among all requests. Each \
            request's body is one image or PDF; the answer is what 'scantext' would print for \
            that file. JSONL is streamed page by page, in order, as pages are done. Logs go to \
            stderr, one line per request. SIGTERM or SIGINT stops taking connections, finishes \
            the requests in flight (up to --grace seconds) and exits 0.

            ROUTES:
              POST /v1/recognize   the text; query: format (text, jsonl, hocr, tsv,
                                   alto, pdf), lang, psm, crop (auto, none),
                                   quad (x,y;x,y;x,y;x,y), rotate (auto, none,
                                   0, 90, 180, 270), deskew (auto, none), dpi
              POST /v1/detect      page outlines, as 'scantext detect --format jsonl'
              GET  /healthz        alive
              GET  /readyz         the engines are started
              GET  /metrics        Prometheus text format
              GET  /openapi.yaml   the API

            EXAMPLES:
              scantext serve       http://127.0.0.1:8080, one engine per core
              scantext serve --host 0.0.0.0 --token-file /run/secrets/token
              curl --data-binary @photo.jpg localhost:8080/v1/recognize
              curl --data-binary @scan.pdf \\
                   'localhost:8080/v1/recognize?format=pdf' -o searchable.pdf
              curl -N --data-binary @book.pdf \\
                   'localhost:8080/v1/recognize?format=jsonl'

            A bad upload gets 415 (not an image or PDF) or 422 (damaged, empty, encrypted, \
            over a limit), a body over --max-upload-mb gets 413, a full queue gets 503 with \
            Retry-After, each with {"error": {"code", "message"}} and the message the command \
            line would print.
            """
    )

    @Option(help: "Address to listen on; 127.0.0.1 (this machine only) by default, 0.0.0.0 for every interface.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (reported on stderr).")
    var port = 8080

    @OptionGroup(title: "Recognition defaults (a request's query may set lang, psm and dpi)")
    var engine: EngineOptions

    @OptionGroup(title: "Workers")
    var workers: WorkerOptions

    @Option(help: ArgumentHelp("Requests to hold beyond --jobs, waiting for an engine; more get 503.", valueName: "n"))
    var queue = 32

    @Option(help: ArgumentHelp("Refuse request bodies over this many megabytes (413).", valueName: "mb"))
    var maxUploadMb = 100

    @Option(help: ArgumentHelp("Require 'Authorization: Bearer TOKEN' on every route but /healthz and /readyz, TOKEN being this file's contents.", valueName: "file"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("Seconds a shutdown waits for requests in flight.", valueName: "seconds"))
    var grace = 30.0

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        if !(0...100_000).contains(queue) { throw ValidationError("--queue must be 0 to 100000, got \(queue)") }
        if !(1...100_000).contains(maxUploadMb) { throw ValidationError("--max-upload-mb must be 1 to 100000, got \(maxUploadMb)") }
        if !(grace >= 0) { throw ValidationError("--grace must be zero or more seconds") }
        if let tokenFile { _ = try Self.token(from: tokenFile) }
    }

    func run() async throws {
        var settings = ServerConfiguration()
        settings.host = host
        settings.port = port
        settings.queue = queue
        settings.maxUploadBytes = maxUploadMb << 20
        settings.gracePeriod = .milliseconds(Int(grace * 1000))
        settings.recognition = engine.recognitionOptions(crop: .auto, workers: workers)
        settings.jobs = settings.recognition.jobs
        if let tokenFile { settings.token = try Self.token(from: tokenFile) }
        do throws(RecognitionError) {
            try settings.recognition.engine.validate()
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(ExitStatus.setupFailed)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "scantext")
        let jobs = settings.jobs
        do {
            try await Server.run(settings, logger: logger) { address in
                logger.info("listening", metadata: ["address": .string("http://\(address)"), "jobs": .stringConvertible(jobs)])
            }
        } catch {
            Diagnostics.error("cannot serve on \(host):\(port): \(error); pick another --port or stop what uses it")
            throw ExitCode(ExitStatus.setupFailed)
        }
    }

    /// The token in `path`, without surrounding whitespace.
    static func token(from path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--token-file \(path) cannot be read; check the path and its permissions")
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
            throw ValidationError("--token-file \(path) must hold one token without spaces")
        }
        return token
    }
}
