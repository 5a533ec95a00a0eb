import ScanCore

/// How a page's outline is found before recognition.
public enum CropMode: Sendable, Equatable {
    /// Detect the page in photos; leave flat scans alone.
    case auto
    /// Take the image as it is.
    case none
    /// Rectify this quad (source pixels, TL, TR, BR, BL) on every page.
    case quad(Quad)
}
