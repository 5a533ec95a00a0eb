import Foundation
import TextRecognition

/// Runs the built `scantext` binary and captures what it prints.
struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

enum CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func sample(_ name: String) -> String { root.appendingPathComponent("SamplePages/\(name)").path }

    /// The binary SwiftPM built next to the test bundle.
    static var binary: String {
        let candidates = [Bundle.main.bundleURL.appendingPathComponent("scantext").path,
                          root.appendingPathComponent(".build/debug/scantext").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }

    static var hasEnglish: Bool { (try? EngineConfiguration().validate()) != nil }

    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    prefix: [String] = [], onStart: ((Int32) -> Void)? = nil) throws -> CLIRun {
        let process = Process()
        if prefix.isEmpty {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: prefix[0])
            process.arguments = Array(prefix.dropFirst()) + [binary] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        onStart?(process.processIdentifier)
        let writer = Thread {
            if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        // Read both pipes fully before waiting, so a full pipe never blocks the child.
        let errBox = DataBox()
        let errReader = Thread { errBox.set(err.fileHandleForReading.readDataToEndOfFile()) }
        errReader.start()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errBox.isSet { usleep(1000) }
        return CLIRun(status: process.terminationStatus,
                      stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: errBox.value, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scantext-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

final class DataBox: @unchecked Sendable {
    // Safety: every access goes through `lock`.
    private let lock = NSLock()
    private var data: Data?
    func set(_ d: Data) { lock.withLock { data = d } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}

/// Hand-made bad files.
enum BadFiles {
    /// A valid PNG header that claims `width`×`height` pixels, with no image data.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var chunk = Data("IHDR".utf8)
        for v in [width, height] { withUnsafeBytes(of: v.bigEndian) { chunk.append(contentsOf: $0) } }
        chunk.append(contentsOf: [8, 0, 0, 0, 0])
        withUnsafeBytes(of: UInt32(13).bigEndian) { d.append(contentsOf: $0) }
        d.append(chunk)
        withUnsafeBytes(of: crc32(chunk).bigEndian) { d.append(contentsOf: $0) }
        d.append(contentsOf: [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        return d
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
