import Foundation
import SystemPackage

/// Reads a whole file descriptor into memory with a few large reads.
///
/// `FileHandle.readToEnd()` reads 4 KB per system call, and `Data(contentsOf:)` refuses pipes
/// and devices (`scantext <(curl …)`). Here a regular file is read into a buffer of its size,
/// and anything else (a pipe, standard input) in growing chunks; either way nothing beyond
/// `limit` bytes is kept.
enum FileReading {
    enum Failure: Error, Equatable {
        /// More than the limit; `size` is what was seen (at least limit + 1).
        case tooLarge(size: Int)
        /// A directory, which has no bytes to read.
        case isDirectory
        /// The system call failed.
        case failed(Errno)
    }

    /// All bytes from `fd`'s current offset to its end.
    static func readAll(_ fd: FileDescriptor, limit: Int) throws(Failure) -> Data {
        let info = try? fd.stat()
        if info?.type == .directory { throw .isDirectory }
        let regular = info?.type == .regular
        let size = Int(info?.size ?? 0)
        if regular && size > limit { throw .tooLarge(size: size) }
        // A regular file's size is known; one more byte is asked for to see that it has not
        // grown since. Anything else starts at 1 MiB and doubles.
        var capacity = regular ? size + 1 : 1 << 20
        var count = 0
        guard var buffer = malloc(capacity) else { throw .failed(.noMemory) }
        // Freed on every way out but the last, where the returned `Data` takes it.
        var handedOver = false
        defer { if !handedOver { free(buffer) } }
        while true {
            if count == capacity {
                guard count <= limit else { throw .tooLarge(size: count) }
                capacity = min(capacity * 2, limit + 1)
                guard let grown = realloc(buffer, capacity) else { throw .failed(.noMemory) }
                buffer = grown
            }
            let n: Int
            do {
                n = try fd.read(into: UnsafeMutableRawBufferPointer(start: buffer + count, count: capacity - count))
            } catch {
                throw .failed(error as? Errno ?? .ioError)
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw .tooLarge(size: count) }
        handedOver = true
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }
}
