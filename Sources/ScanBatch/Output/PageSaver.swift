import Foundation
import ImageInput
import ScanCore
import TextRecognition

/// `--save-pages DIR`: writes each corrected page as PNG, atomically.
public struct PageSaver: Sendable {
    public let directory: String
    /// Mirror the input tree (batch runs with `--output-dir` or `--recursive`) instead of
    /// writing every page straight into `directory`.
    public let mirrorTree: Bool

    public init(directory: String, mirrorTree: Bool) {
        self.directory = directory
        self.mirrorTree = mirrorTree
    }

    /// Creates the directory (and parents) or says why it cannot.
    public static func prepare(directory: String) throws(BatchError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BatchError("\(directory): cannot create the --save-pages directory; check the path and permissions")
        }
    }

    /// `photo.jpg` → `DIR/photo.png`; page N of a multi-page file → `DIR/scan-pN.png`; stdin →
    /// `DIR/stdin.png`. When mirroring, `in/a/b.jpg` → `DIR/a/b.png`.
    public func path(for page: RecognizedPage, input: BatchInput) -> String {
        let stem = mirrorTree ? input.outputStem : InputWalker.stem(of: InputWalker.name(of: input.relativePath))
        let name = page.pagesInSource > 1 || page.page > 1 ? "\(stem)-p\(page.page).png" : "\(stem).png"
        return (directory as NSString).appendingPathComponent(name)
    }

    public func save(_ page: RecognizedPage, input: BatchInput) {
        guard let image = page.correctedImage else { return }
        let destination = path(for: page, input: input)
        guard let png = PNGEncoder.encode(image) else {
            Diagnostics.error("\(destination): the page could not be encoded as PNG")
            return
        }
        do {
            if mirrorTree {
                try? FileManager.default.createDirectory(
                    atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            }
            try AtomicFileWriter.write(png, to: destination)
        } catch {
            Diagnostics.error(error.message)
        }
    }
}
