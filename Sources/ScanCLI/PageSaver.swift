import ArgumentParser
import Foundation
import ScanCore
import TextRecognition

/// `--save-pages DIR`: writes each corrected page as PNG, atomically.
struct PageSaver: Sendable {
    let directory: String

    /// Creates the directory (and parents) or says why it cannot.
    static func prepare(directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            Diagnostics.error("\(directory): cannot create the --save-pages directory; check the path and permissions")
            throw ExitCode(ExitStatus.usage)
        }
    }

    /// `photo.jpg` → `DIR/photo.png`; page N of a multi-page file → `DIR/scan-pN.png`; stdin → `stdin…`.
    func path(for page: RecognizedPage, multiPage: Bool) -> String {
        let base = page.source == "-" ? "stdin" : ((page.source as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = multiPage || page.page > 1 ? "\(base)-p\(page.page).png" : "\(base).png"
        return (directory as NSString).appendingPathComponent(name)
    }

    func save(_ page: RecognizedPage) {
        guard let image = page.correctedImage else { return }
        let destination = path(for: page, multiPage: page.pagesInSource > 1)
        guard let png = PNGEncoder.encode(image) else {
            Diagnostics.error("\(destination): the page could not be encoded as PNG")
            return
        }
        do {
            try AtomicFileWriter.write(png, to: destination)
        } catch {
            Diagnostics.error(error.message)
        }
    }
}
