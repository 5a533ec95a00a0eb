import ScanTestSupport
import TextRecognition

extension Fixtures {
    /// Whether Tesseract's English data is installed.
    static var hasEnglish: Bool { (try? EngineConfiguration().validate()) != nil }
}
