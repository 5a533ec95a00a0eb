import ArgumentParser
import Foundation
import ScanCore
import TextRecognition

/// `scantext detect`: page detection only.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find the page outline in each image, without recognising text.",
        discussion: """
            Prints, for each page, the corners of the page found in the image (top-left, \
            top-right, bottom-right, bottom-left, in the image's pixels) and a confidence. A flat \
            scan, or an image with no convincing page, has no quad (null).

            EXAMPLES:
              scantext detect photo.jpg
              scantext detect --format jsonl photos/*.jpg > corners.jsonl

            \(ExitStatus.helpText)
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, jsonl
    }

    @Option(help: "Output: text (one line per page) or jsonl (one object per page).")
    var format: Format = .text

    @Option(help: ArgumentHelp("Parallel workers (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Refuse images larger than this many megapixels.", valueName: "mp"))
    var maxMegapixels: Int = 250

    @Argument(help: ArgumentHelp("Image files; '-' reads standard input.", valueName: "input"))
    var inputs: [String] = []

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("no input given; name image files, or '-' for standard input") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given only once") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be 1 to 256, got \(jobs)") }
    }

    func run() throws {
        Diagnostics.ignoreBrokenPipes()
        var options = RecognitionOptions(crop: .auto, limits: DecodeLimits(maxPixels: maxMegapixels * 1_000_000, maxFileBytes: DecodeLimits.default.maxFileBytes))
        if let jobs { options.jobs = jobs }
        options.skipRecognition = true
        let recognizer = try TextRecognizer(options: options)
        let out = DescriptorWriter.standardOutput
        let format = self.format
        let done = DispatchSemaphore(value: 0)
        let failed = CancellationFlag()
        recognizer.start(inputs.map { $0 == "-" ? .standardInput : .file($0) }, onPage: { page in
            if let error = page.error {
                Diagnostics.error(error.message)
                failed.set()
                return
            }
            out.write(format == .jsonl ? Self.json(page) + "\n" : Self.text(page) + "\n")
        }) { _ in done.signal() }
        done.wait()
        if failed.isSet { throw ExitCode(ExitStatus.someFailed) }
    }

    /// Exactly: source, page, width, height, quad, confidence.
    static func json(_ page: RecognizedPage) -> String {
        let quad = page.quad.map { q in
            "[" + q.corners.map { "[\(number($0.x)),\(number($0.y))]" }.joined(separator: ",") + "]"
        } ?? "null"
        return "{\"source\":\(jsonString(page.source)),\"page\":\(page.page),\"width\":\(page.width),\"height\":\(page.height),\"quad\":\(quad),\"confidence\":\(number(page.detectionConfidence ?? 0, digits: 3))}"
    }

    static func text(_ page: RecognizedPage) -> String {
        let quad = page.quad.map { $0.description } ?? "none"
        return "\(page.source)\tpage \(page.page)\t\(page.width)x\(page.height)\t\(quad)\tconfidence \(number(page.detectionConfidence ?? 0, digits: 3))"
    }

    static func number(_ v: Double, digits: Int = 2) -> String {
        let p = pow(10.0, Double(digits))
        let r = (v * p).rounded() / p
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }

    static func jsonString(_ s: String) -> String {
        let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
