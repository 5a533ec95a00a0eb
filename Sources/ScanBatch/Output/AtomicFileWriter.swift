#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SystemPackage

/// Writes one output file atomically: everything goes to a hidden temporary file in the same
/// directory, which is renamed over the destination only by `commit()`. Until then the
/// destination is untouched, and an abandoned writer removes its temporary file, so an
/// interrupted or failed run never leaves a partial or empty output.
public final class AtomicFileWriter {
    public let destination: String
    public let temporaryPath: String
    private var descriptor: Int32
    private var finished = false

    /// Every temporary file name starts with this, so leftovers are easy to recognise.
    public static let temporaryPrefix = ".scantext-tmp-"

    public init(destination: String) throws(BatchError) {
        self.destination = destination
        let directory = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        let template = (directory.isEmpty ? "." : directory) + "/" + Self.temporaryPrefix + name + ".XXXXXX"
        switch TemporaryFiles.shared.create(template: template) {
        case .success(let (fd, path)):
            descriptor = fd
            temporaryPath = path
        case .failure(let error):
            throw BatchError("\(destination): cannot create a file there (\(error)); check the output directory's permissions")
        }
    }

    deinit {
        if !finished { abandon() }
    }

    public func write(_ text: String) throws(BatchError) {
        var bytes = Array(text.utf8)
        try write(bytes: &bytes)
    }

    public func write(bytes: inout [UInt8]) throws(BatchError) {
        do {
            _ = try FileDescriptor(rawValue: descriptor).writeAll(bytes)
        } catch {
            throw BatchError("\(destination): write failed (\(error)); check free disk space")
        }
    }

    /// Makes the file visible under its final name.
    public func commit() throws(BatchError) {
        guard !finished else { return }
        finished = true
        fchmod(descriptor, 0o644)
        close(descriptor)
        if rename(temporaryPath, destination) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            TemporaryFiles.shared.unregister(temporaryPath)
            throw BatchError("\(destination): could not be written (\(reason)); check the output directory")
        }
        TemporaryFiles.shared.unregister(temporaryPath)
    }

    /// Drops everything written; the destination stays as it was.
    public func abandon() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        unlink(temporaryPath)
        TemporaryFiles.shared.unregister(temporaryPath)
    }

    /// Writes a whole file at once.
    public static func write(_ data: Data, to destination: String) throws(BatchError) {
        let writer = try AtomicFileWriter(destination: destination)
        var bytes = [UInt8](data)
        try writer.write(bytes: &bytes)
        try writer.commit()
    }
}
