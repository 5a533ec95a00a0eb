#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// `--errors FILE`: one JSON object per failure, written as it happens, one `write(2)` per line
/// so the file only ever holds whole lines, even after a kill. The file is truncated at start:
/// it describes this run (a resumed run retries every input that failed before).
///
///     {"code":"corrupt","error":"in/a.jpg: ...; ...","page":1,"source":"in/a.jpg"}
final class ErrorLog: Sendable {
    let path: String
    private let descriptor: Mutex<Int32>

    init(path: String) throws(CLIError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CLIError("\(path): cannot open the --errors file (\(String(cString: strerror(errno)))); check the path and permissions")
        }
        self.path = path
        descriptor = Mutex(fd)
    }

    deinit {
        _ = descriptor.withLock { close($0) }
    }

    struct Entry: Encodable {
        let source: String
        let page: Int?
        let code: String
        let error: String

        enum CodingKeys: CodingKey { case source, page, code, error }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(source, forKey: .source)
            if let page { try c.encode(page, forKey: .page) } else { try c.encodeNil(forKey: .page) }
            try c.encode(code, forKey: .code)
            try c.encode(error, forKey: .error)
        }
    }

    func record(_ entry: Entry) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entry) else { return }
        let line = [UInt8](data) + [0x0A]
        descriptor.withLock { fd in
            if writeAll(fd, line) != 0 {
                Diagnostics.error("\(path): cannot write to the --errors file; check free disk space")
            }
        }
    }
}
