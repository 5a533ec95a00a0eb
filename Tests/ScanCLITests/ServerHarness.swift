import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `scantext serve` process on a free loopback port, stopped when the test is done.
final class ServerProcess: @unchecked Sendable {
    // Safe: `process` and `address` are set in init and only read afterwards; `log` is
    // guarded by `lock`.
    let process = Process()
    private(set) var address = ""
    private let lock = NSLock()
    private var log = ""

    /// Starts the binary with `arguments` after `serve --port 0` and waits (up to 60 s) until it
    /// listens and, unless `waitForReady` is false, its engines are up.
    init(_ arguments: [String] = [], environment: [String: String] = [:], waitForReady: Bool = true) throws {
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["serve", "--port", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let listening = DispatchSemaphore(value: 0)
        let handle = stderr.fileHandleForReading
        Thread { [self] in
            var signalled = false
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                let text = lock.withLock { log += String(decoding: data, as: UTF8.self); return log }
                if !signalled, let range = text.range(of: #"address=http://[0-9.:]+"#, options: .regularExpression) {
                    address = String(text[range].dropFirst("address=http://".count))
                    signalled = true
                    listening.signal()
                }
            }
            if !signalled { listening.signal() }
        }.start()
        guard listening.wait(timeout: .now() + 60) == .success, !address.isEmpty else {
            stop()
            throw HarnessError("the server did not start listening: \(stderrText)")
        }
        if waitForReady {
            let deadline = Date(timeIntervalSinceNow: 60)
            while (try? HTTP.request(self, "GET", "/readyz").status) != 200 {
                guard Date() < deadline else { throw HarnessError("the server never became ready: \(stderrText)") }
                usleep(50_000)
            }
        }
    }

    var port: Int { Int(address.split(separator: ":").last ?? "") ?? 0 }
    var stderrText: String { lock.withLock { log } }

    /// Sends `signal` and waits for the exit status (nil if it did not exit within `seconds`).
    func terminate(_ signal: Int32 = SIGTERM, within seconds: Double = 30) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A plain HTTP/1.1 client over a loopback socket, enough to see exactly what the server sends,
/// when it sends it, and to hang up in the middle.
enum HTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// One request on a new connection, read to its end.
    static func request(_ server: ServerProcess, _ method: String, _ path: String, body: Data? = nil,
                        headers: [String: String] = [:]) throws -> Response {
        let connection = try Connection(port: server.port)
        defer { connection.close() }
        try connection.send(method, path, body: body, headers: headers)
        return try connection.readResponse()
    }

    /// A connection whose response can be read a piece at a time.
    final class Connection {
        let socket: Int32
        private var buffer = Data()

        init(port: Int) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw HarnessError("socket: \(errno)") }
            var timeout = timeval(tv_sec: 120, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                Glibc.close(socket)
                throw HarnessError("connect to port \(port): errno \(errno)")
            }
        }

        func close() { Glibc.close(socket) }

        func send(_ method: String, _ path: String, body: Data?, headers: [String: String]) throws {
            var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if let body { head += "Content-Length: \(body.count)\r\n" }
            var bytes = Data((head + "\r\n").utf8)
            if let body { bytes += body }
            try bytes.withUnsafeBytes { raw in
                var sent = 0
                while sent < raw.count {
                    let n = Glibc.send(socket, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                    // The server may answer (413) and close before the whole body is sent.
                    if n <= 0 { if errno == EPIPE || errno == ECONNRESET { return }; throw HarnessError("send: errno \(errno)") }
                    sent += n
                }
            }
        }

        /// More bytes into the buffer; false at the end of the stream.
        private func fill() throws -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(socket, &chunk, chunk.count, 0)
            if n < 0 {
                if errno == ECONNRESET { return false }
                throw HarnessError("recv: errno \(errno)")
            }
            buffer += chunk.prefix(n)
            return n > 0
        }

        private func line() throws -> String? {
            while true {
                if let end = buffer.firstRange(of: Data("\r\n".utf8)) {
                    let text = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex..<end.upperBound)
                    return text
                }
                guard try fill() else { return nil }
            }
        }

        private func bytes(_ count: Int) throws -> Data {
            while buffer.count < count { guard try fill() else { throw HarnessError("the response ended early") } }
            let out = buffer.prefix(count)
            buffer.removeFirst(count)
            return Data(out)
        }

        /// The status line and headers.
        func readHead() throws -> (status: Int, headers: [String: String]) {
            guard let statusLine = try line() else { throw HarnessError("no response") }
            let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
            var headers: [String: String] = [:]
            while let header = try line(), !header.isEmpty {
                if let colon = header.firstIndex(of: ":") {
                    headers[header[..<colon].lowercased()] = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return (status, headers)
        }

        /// The next piece of a chunked body, nil after the last.
        func readChunk() throws -> Data? {
            guard let sizeLine = try line(), let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
                throw HarnessError("a chunk size was expected")
            }
            if size == 0 {
                _ = try line()
                return nil
            }
            let data = try bytes(size)
            _ = try line()
            return data
        }

        func readResponse() throws -> Response {
            let head = try readHead()
            var body = Data()
            if head.headers["transfer-encoding"]?.lowercased() == "chunked" {
                while let chunk = try readChunk() { body += chunk }
            } else if let length = head.headers["content-length"].flatMap({ Int($0) }) {
                body = try bytes(length)
            } else {
                while try fill() {}
                body = buffer
            }
            return Response(status: head.status, headers: head.headers, body: body)
        }
    }
}

/// Runs blocking work on a thread of its own, off Swift's cooperative pool, which the other
/// tests' awaits need.
func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }.start()
    }
}
