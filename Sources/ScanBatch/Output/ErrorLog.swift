#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import SystemPackage

/// `--errors FILE`: one JSON object per failure, written as it happens, one `write(2)` per line
/// so the file only ever holds whole lines, even after a kill. The file is truncated at start:
/// it describes this run (a resumed run retries every input that failed before).
///
///     {"code":"corrupt","error":"in/a.jpg: ...; ...","page":1,"source":"in/a.jpg"}
public final class ErrorLog: Sendable {
    public let path: String
    private let descriptor: Mutex<FileDescriptor>

    public init(path: String) throws(BatchError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw BatchError("\(path): cannot open the --errors file (\(error)); check the path and permissions")
        }
        self.path = path
        descriptor = Mutex(fd)
    }

    deinit {
        descriptor.withLock { try? $0.close() }
    }

    public struct Entry: Encodable {
        let source: String
        let page: Int?
        let code: String
        let error: String

        enum CodingKeys: CodingKey { case source, page, code, error }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(source, forKey: .source)
            if let page { try c.encode(page, forKey: .page) } else { try c.encodeNil(forKey: .page) }
            try c.encode(code, forKey: .code)
            try c.encode(error, forKey: .error)
        }
    }

    public func record(_ entry: Entry) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entry) else { return }
        let line = [UInt8](data) + [0x0A]
        descriptor.withLock { fd in
            if (try? fd.writeAll(line)) == nil {
                Diagnostics.error("\(path): cannot write to the --errors file; check free disk space")
            }
        }
    }
}
