import CTesseract

/// Facts about the linked Tesseract.
public enum Tesseract {
    public static var version: String {
        guard let v = TessVersion() else { return "unknown" }
        return String(cString: v)
    }
}
