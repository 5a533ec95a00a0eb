import Foundation
import ScanTestSupport
import Subprocess
import SystemPackage
import TextRecognition

/// Runs the built `scantext` binary and captures what it prints.
struct CLIRun {
    var status: Int32
    /// Standard output's bytes, for binary formats.
    var stdoutData = Data()
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

    /// Runs the binary and collects what it prints. `prefix` runs it through another program
    /// (`setpriv`, to drop root); `onStart` gets its process id as soon as it runs, on a thread
    /// of its own (Subprocess's body runs on Swift's cooperative pool, which other tests'
    /// blocking waits can hold up until the child has finished).
    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    prefix: [String] = [], onStart: (@Sendable (Int32) -> Void)? = nil) async throws -> CLIRun {
        let command = prefix.isEmpty ? [binary] + arguments : prefix + [binary] + arguments
        var environment = environment
        if let onStart {
            let marker = "SCANTEXT_TEST_RUN=\(UUID().uuidString)"
            environment["SCANTEXT_TEST_RUN"] = String(marker.dropFirst("SCANTEXT_TEST_RUN=".count))
            Thread { if let pid = childProcess(marked: marker, within: 30) { onStart(pid) } }.start()
        }
        var updates: [Environment.Key: String?] = [:]
        for (key, value) in environment { if let key = Environment.Key(rawValue: key) { updates[key] = value } }
        let result = try await Subprocess.run(
            .path(FilePath(command[0])), arguments: Arguments(Array(command.dropFirst())),
            environment: .inherit.updating(updates), input: .data(stdin ?? Data()),
            output: .data(limit: 256 << 20), error: .data(limit: 16 << 20))
        let status: Int32 = switch result.terminationStatus {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
        return CLIRun(status: status, stdoutData: result.standardOutput, stdout: String(decoding: result.standardOutput, as: UTF8.self),
                      stderr: String(decoding: result.standardError, as: UTF8.self))
    }

    /// The process whose environment holds `marker` (`NAME=VALUE`), looked for in /proc every
    /// millisecond for up to `seconds`.
    static func childProcess(marked marker: String, within seconds: Double) -> Int32? {
        let wanted = Array(marker.utf8)
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry), pid != getpid(),
                      let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { continue }
                if environ.split(separator: 0).contains(where: { Array($0) == wanted }) { return pid }
            }
            usleep(1000)
        }
        return nil
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL { try Fixtures.temporaryDirectory() }
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

    static func crc32(_ data: Data) -> UInt32 { ImageFixtures.crc32(data) }
}
