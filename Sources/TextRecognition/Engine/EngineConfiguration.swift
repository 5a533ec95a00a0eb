import Foundation

/// Where Tesseract's language data lives and which languages to load.
public struct EngineConfiguration: Sendable, Equatable {
    /// Tesseract language codes joined by `+`, e.g. `eng+deu`.
    public var languages: String
    /// A tessdata directory, or nil for `TESSDATA_PREFIX` or Debian's default.
    public var tessdataDirectory: String?
    /// Tesseract page segmentation mode (0–13), or nil for Tesseract's default (3).
    public var pageSegmentationMode: Int?

    public init(languages: String = "eng", tessdataDirectory: String? = nil, pageSegmentationMode: Int? = nil) {
        self.languages = languages
        self.tessdataDirectory = tessdataDirectory
        self.pageSegmentationMode = pageSegmentationMode
    }

    /// Debian's places for tessdata, newest first.
    static let standardDirectories = [
        "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata",
        "/usr/local/share/tessdata",
    ]

    /// The directory that will be used: `--tessdata`, then `TESSDATA_PREFIX`, then the first
    /// standard directory that exists.
    public var resolvedTessdataDirectory: String {
        if let tessdataDirectory { return tessdataDirectory }
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            // Tesseract accepts both the tessdata folder and its parent.
            let nested = (prefix as NSString).appendingPathComponent("tessdata")
            return FileManager.default.fileExists(atPath: nested) ? nested : prefix
        }
        return Self.standardDirectories.first { FileManager.default.fileExists(atPath: $0) } ?? Self.standardDirectories[0]
    }

    public var languageCodes: [String] {
        languages.split(separator: "+").map(String.init)
    }

    /// Checks, before any engine starts, that every language's data file exists, and names the
    /// Debian package to install when one does not.
    public func validate() throws(RecognitionError) {
        let codes = languageCodes
        guard !codes.isEmpty, codes.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } }) else {
            throw RecognitionError(
                .missingLanguage, source: nil, "'\(languages)' is not a language list",
                remedy: "write Tesseract codes joined by '+', e.g. --lang eng+deu")
        }
        if let psm = pageSegmentationMode, !(0...13).contains(psm) {
            throw RecognitionError(.engineFailed, source: nil, "--psm \(psm) is not a page segmentation mode", remedy: "use 0 to 13 (see tesseract --help-psm)")
        }
        let dir = resolvedTessdataDirectory
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw RecognitionError(
                .missingLanguage, source: nil, "the tessdata directory \(dir) does not exist",
                remedy: tessdataDirectory == nil
                    ? "install tesseract-ocr-eng (apt-get install tesseract-ocr-eng) or pass --tessdata DIR"
                    : "pass --tessdata with the directory that holds LANG.traineddata")
        }
        for code in codes {
            let file = (dir as NSString).appendingPathComponent("\(code).traineddata")
            if !FileManager.default.fileExists(atPath: file) {
                throw RecognitionError(
                    .missingLanguage, source: nil, "language data for '\(code)' is not installed (no \(file))",
                    remedy: "install it with apt-get install \(Self.debianPackage(for: code)), or pass --tessdata DIR")
            }
        }
    }

    /// The Debian package holding a language: `chi_sim` → `tesseract-ocr-chi-sim`, `script/Latin`
    /// is left as a best guess.
    static func debianPackage(for code: String) -> String {
        "tesseract-ocr-" + code.lowercased().replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: "/", with: "-")
    }
}
