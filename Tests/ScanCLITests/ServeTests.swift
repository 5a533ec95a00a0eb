import Foundation
import ScanTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `scantext serve`, tested as a client sees it: the real binary on a free loopback port, a
/// plain HTTP client, real files.
@Suite(.serialized, .enabled(if: CLI.hasEnglish, "English language data is not installed"))
struct ServeTests {
    static func data(_ sample: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: CLI.sample(sample))) }

    /// The message after `NAME: `, which differs between a file and an upload.
    static func problem(_ message: String) -> String {
        message.firstRange(of: ": ").map { String(message[$0.upperBound...]) } ?? message
    }

    @Test("every route answers; a recognised upload is the bytes the command line prints for the same file")
    func routes() async throws {
        let cli = try await CLI.run([CLI.sample("clean.png")])
        let cliJSONL = try await CLI.run(["--format", "jsonl", CLI.sample("multipage.tif")])
        let cliDetect = try await CLI.run(["detect", "--format", "jsonl", CLI.sample("noisy.jpg")])
        let clean = try Self.data("clean.png"), multipage = try Self.data("multipage.tif"), noisy = try Self.data("noisy.jpg")
        // A temporary directory of its own, to see that no response leaves a file behind.
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try await offload {
            let server = try ServerProcess(["--jobs", "2"], environment: ["TMPDIR": scratch.path + "/"])
            defer { server.stop() }
            #expect(try HTTP.request(server, "GET", "/healthz").text == "ok\n")
            #expect(try HTTP.request(server, "GET", "/readyz").status == 200)

            let text = try HTTP.request(server, "POST", "/v1/recognize", body: clean, headers: ["Content-Type": "image/png"])
            #expect(text.status == 200 && text.header("content-type") == "text/plain; charset=utf-8")
            #expect(text.text == cli.stdout)
            #expect(text.header("x-request-id")?.isEmpty == false)

            // JSONL: the command line's records, but for the source's name.
            let jsonl = try HTTP.request(server, "POST", "/v1/recognize?format=jsonl", body: multipage)
            #expect(jsonl.status == 200 && jsonl.header("content-type") == "application/x-ndjson")
            #expect(jsonl.text.split(separator: "\n").count == 3)
            #expect(Self.withoutSourceAndTimings(jsonl.text) == Self.withoutSourceAndTimings(cliJSONL.stdout))

            for (format, type, start) in [("hocr", "application/xhtml+xml", "<?xml"), ("tsv", "text/tab-separated-values; charset=utf-8", "level"),
                                          ("alto", "application/xml", "<?xml"), ("pdf", "application/pdf", "%PDF-")] {
                let r = try HTTP.request(server, "POST", "/v1/recognize?format=\(format)", body: clean)
                #expect(r.status == 200 && r.header("content-type") == type, "\(format): \(r.status) \(r.text.prefix(200))")
                #expect(r.text.hasPrefix(start), "\(format) starts \(r.text.prefix(20))")
            }

            let detect = try HTTP.request(server, "POST", "/v1/detect", body: noisy)
            #expect(detect.status == 200)
            #expect(Self.withoutSourceAndTimings(detect.text) == Self.withoutSourceAndTimings(cliDetect.stdout))

            let wrongMethod = try HTTP.request(server, "GET", "/v1/recognize")
            #expect(wrongMethod.status == 405 && wrongMethod.header("allow") == "POST")
            #expect(try HTTP.request(server, "GET", "/nowhere").status == 404)

            let metrics = try HTTP.request(server, "GET", "/metrics")
            #expect(metrics.status == 200 && metrics.header("content-type")?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains(#"scantext_pages_total{outcome="ok"} 8"#), "\(metrics.text)")
            #expect(metrics.text.contains(#"scantext_http_requests_total{route="/v1/recognize",status="200"} 6"#))
            #expect(metrics.text.contains("scantext_stage_seconds_bucket") && metrics.text.contains("scantext_queue_depth"))

            let openapi = try HTTP.request(server, "GET", "/openapi.yaml")
            #expect(openapi.status == 200 && openapi.text.hasPrefix("openapi: 3"))
            let document = try String(contentsOf: CLI.root.appendingPathComponent("Sources/ScanServer/openapi.yaml"), encoding: .utf8)
            #expect(openapi.text == document)
            for path in ["/v1/recognize", "/v1/detect", "/healthz", "/readyz", "/metrics", "/openapi.yaml"] {
                #expect(document.contains("  \(path):"), "\(path) is not in openapi.yaml")
            }
            // A request line and its status in the log, on stderr.
            #expect(server.stderrText.contains("path=/v1/recognize status=200"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "temporary files left behind")
        }
    }

    static func withoutSourceAndTimings(_ jsonl: String) -> [String] {
        jsonl.split(separator: "\n").map { line in
            line.replacingOccurrences(of: #""source":"[^"]*""#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #""timings":\{[^}]*\}"#, with: "", options: .regularExpression)
        }
    }

    @Test("bad requests: 415 and 422 with the command line's message, 413 over the upload limit, 400 for bad options, 401 without the token")
    func refusals() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notImage = dir.appendingPathComponent("notes.txt"), truncated = dir.appendingPathComponent("cut.png")
        try Data("just some text, not a picture\n".utf8).write(to: notImage)
        try Self.data("clean.png").prefix(300).write(to: truncated)
        let cliNotImage = try await CLI.run([notImage.path]), cliTruncated = try await CLI.run([truncated.path])
        let tokenFile = dir.appendingPathComponent("token")
        try Data("s3cret-token\n".utf8).write(to: tokenFile)
        let clean = try Self.data("clean.png")
        try await offload {
            let server = try ServerProcess(["--jobs", "1", "--max-upload-mb", "1", "--token-file", tokenFile.path])
            defer { server.stop() }
            let auth = ["Authorization": "Bearer s3cret-token"]
            func error(_ r: HTTP.Response) throws -> (code: String, message: String) {
                let object = try JSONSerialization.jsonObject(with: r.body) as? [String: [String: String]]
                return (object?["error"]?["code"] ?? "", object?["error"]?["message"] ?? "")
            }

            let unsupported = try HTTP.request(server, "POST", "/v1/recognize", body: try Data(contentsOf: notImage), headers: auth)
            #expect(unsupported.status == 415 && unsupported.header("content-type") == "application/json")
            #expect(try error(unsupported).code == "not-an-image")
            #expect(Self.problem(try error(unsupported).message) == Self.problem(cliNotImage.stderrLines.first?.replacingOccurrences(of: "scantext: ", with: "") ?? ""))

            let damaged = try HTTP.request(server, "POST", "/v1/recognize", body: try Data(contentsOf: truncated), headers: auth)
            #expect(damaged.status == 422, "\(damaged.text)")
            #expect(Self.problem(try error(damaged).message) == Self.problem(cliTruncated.stderrLines.first?.replacingOccurrences(of: "scantext: ", with: "") ?? ""))

            let empty = try HTTP.request(server, "POST", "/v1/recognize", body: Data(), headers: auth)
            let emptyCode = try error(empty).code
            #expect(empty.status == 400 && emptyCode == "empty")

            let large = try HTTP.request(server, "POST", "/v1/recognize", body: Data(count: 2 << 20), headers: auth)
            let largeMessage = try error(large).message
            #expect(large.status == 413 && largeMessage.contains("--max-upload-mb"))

            for query in ["psm=99", "format=docx", "crop=maybe", "quad=1,2;3", "dpi=1", "lang=xx_nonexistent", "rotate=45", "deskew=maybe"] {
                let r = try HTTP.request(server, "POST", "/v1/recognize?\(query)", body: clean, headers: auth)
                #expect(r.status == 400, "\(query): \(r.status) \(r.text)")
            }
            let noLanguage = try HTTP.request(server, "POST", "/v1/recognize?lang=xx_nonexistent", body: clean, headers: auth)
            #expect((try error(noLanguage).message).contains("tesseract-ocr-"), "\(noLanguage.text)")

            // The token: required everywhere but the health checks, compared exactly.
            #expect(try HTTP.request(server, "POST", "/v1/recognize", body: clean).status == 401)
            let wrong = try HTTP.request(server, "POST", "/v1/recognize", body: clean, headers: ["Authorization": "Bearer s3cret-tokeN"])
            #expect(wrong.status == 401 && wrong.header("www-authenticate") == "Bearer")
            #expect(try HTTP.request(server, "GET", "/metrics").status == 401)
            #expect(try HTTP.request(server, "GET", "/openapi.yaml", headers: ["Authorization": "Bearer s3cret-token-and-more"]).status == 401)
            #expect(try HTTP.request(server, "GET", "/healthz").status == 200)
            #expect(try HTTP.request(server, "GET", "/readyz").status == 200)
            #expect(try HTTP.request(server, "POST", "/v1/recognize", body: clean, headers: auth).status == 200)
        }
    }

    @Test("a multi-page JSONL answer streams each page as it is done; a full queue gets 503 with Retry-After")
    func streamingAndQueue() async throws {
        let multipage = try Self.data("multipage.tif"), clean = try Self.data("clean.png")
        try await offload {
            // One engine, no queue: a second request while one runs is refused.
            let server = try ServerProcess(["--jobs", "1", "--queue", "0"])
            defer { server.stop() }
            let connection = try HTTP.Connection(port: server.port)
            defer { connection.close() }
            try connection.send("POST", "/v1/recognize?format=jsonl", body: multipage, headers: [:])
            let head = try connection.readHead()
            #expect(head.status == 200 && head.headers["transfer-encoding"] == "chunked")

            let busy = try HTTP.request(server, "POST", "/v1/recognize", body: clean)
            #expect(busy.status == 503 && busy.header("retry-after") == "2", "\(busy.status) \(busy.text)")

            var arrivals: [(Date, String)] = []
            var pending = ""
            while let chunk = try connection.readChunk() {
                pending += String(decoding: chunk, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    arrivals.append((Date(), String(pending[..<newline])))
                    pending = String(pending[pending.index(after: newline)...])
                }
            }
            #expect(arrivals.count == 3)
            let pages = arrivals.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.1.utf8))) as? [String: Any] }.map { $0["page"] as? Int }
            #expect(pages == [1, 2, 3])
            // One engine reads the pages one after another: the first arrives a page's time or
            // more before the last, not with it.
            if let first = arrivals.first?.0, let last = arrivals.last?.0 {
                #expect(last.timeIntervalSince(first) > 0.1, "pages arrived together: \(last.timeIntervalSince(first)) s apart")
            }
            // Once it is done, the queue has room again.
            #expect(try HTTP.request(server, "POST", "/v1/recognize", body: clean).status == 200)
        }
    }

    @Test("a page over --page-timeout is that page's error in the answer, which is still complete and 200")
    func pageTimeout() async throws {
        let multipage = try Self.data("multipage.tif")
        try await offload {
            let server = try ServerProcess(["--jobs", "1", "--page-timeout", "0.0001"])
            defer { server.stop() }
            let r = try HTTP.request(server, "POST", "/v1/recognize?format=jsonl", body: multipage)
            #expect(r.status == 200)
            let records = r.text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            #expect(records.map { $0["page"] as? Int } == [1, 2, 3])
            #expect(records.allSatisfy { $0["error_code"] as? String == "timed-out" }, "\(r.text.prefix(400))")
            #expect(try HTTP.request(server, "GET", "/metrics").text.contains(#"scantext_pages_total{outcome="error"} 3"#))
        }
    }

    @Test("a client that hangs up: its pages are cancelled and the engines go back to the pool")
    func disconnect() async throws {
        let multipage = try Self.data("multipage.tif")
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try await offload {
            let server = try ServerProcess(["--jobs", "1"], environment: ["TMPDIR": scratch.path + "/"])
            defer { server.stop() }
            func waitUntilIdle() throws -> String {
                let deadline = Date(timeIntervalSinceNow: 30)
                var metrics = ""
                repeat {
                    usleep(100_000)
                    metrics = try HTTP.request(server, "GET", "/metrics").text
                } while !(metrics.contains("scantext_requests_in_flight 0.0") && metrics.contains("scantext_engines_in_use 0.0")) && Date() < deadline
                return metrics
            }
            let connection = try HTTP.Connection(port: server.port)
            try connection.send("POST", "/v1/recognize?format=jsonl", body: multipage, headers: [:])
            _ = try connection.readHead()
            connection.close()
            let metrics = try waitUntilIdle()
            #expect(metrics.contains("scantext_requests_in_flight 0.0") && metrics.contains("scantext_engines_in_use 0.0"), "\(metrics)")
            // Not every page was read: the run stopped with the client.
            #expect(!metrics.contains(#"scantext_pages_total{outcome="ok"} 3"#), "\(metrics)")

            // A PDF answer whose client leaves: nothing is left in the temporary directory.
            let pdf = try HTTP.Connection(port: server.port)
            try pdf.send("POST", "/v1/recognize?format=pdf", body: multipage, headers: [:])
            _ = try pdf.readHead()
            pdf.close()
            _ = try waitUntilIdle()
            usleep(500_000)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "temporary files left behind")
            // The engine serves the next request.
            #expect(try HTTP.request(server, "POST", "/v1/recognize?format=jsonl", body: multipage).text.split(separator: "\n").count == 3)
        }
    }

    @Test("SIGTERM with a request in flight: no new connections, the request finishes, exit 0")
    func gracefulShutdown() async throws {
        let multipage = try Self.data("multipage.tif")
        try await offload {
            let server = try ServerProcess(["--jobs", "1"])
            defer { server.stop() }
            let connection = try HTTP.Connection(port: server.port)
            defer { connection.close() }
            try connection.send("POST", "/v1/recognize?format=jsonl", body: multipage, headers: [:])
            let head = try connection.readHead()
            #expect(head.status == 200)
            kill(server.process.processIdentifier, SIGTERM)
            usleep(300_000)
            #expect(throws: (any Error).self) { try HTTP.Connection(port: server.port).close() }
            var body = Data()
            while let chunk = try connection.readChunk() { body += chunk }
            #expect(String(decoding: body, as: UTF8.self).split(separator: "\n").count == 3)
            #expect(server.terminate(SIGTERM, within: 30) == 0, "\(server.stderrText)")
        }
    }
}
