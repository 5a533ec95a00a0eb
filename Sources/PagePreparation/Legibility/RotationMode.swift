/// Whether pages are turned upright before recognition.
public enum RotationMode: Sendable, Equatable {
    /// Find which way the text stands and turn the page when the evidence is clear.
    case auto
    /// Never turn a page.
    case none
    /// Turn every page this many quarter turns clockwise (0–3), whatever its text says.
    case quarterTurns(Int)
}

/// Whether small rotations of the text are levelled before recognition.
public enum DeskewMode: String, Sendable, Equatable, CaseIterable {
    /// Measure the text lines' angle and level them when it is large enough to matter.
    case auto
    /// Leave the angle as it is.
    case none
}

extension RotationMode {
    /// The values the command line and the server take: auto, none, or 0, 90, 180 or 270
    /// degrees clockwise.
    public static let choices = "auto, none, 0, 90, 180 or 270"

    public init?(parsing text: String) {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        case "0", "90", "180", "270": self = .quarterTurns((Int(text) ?? 0) / 90)
        default: return nil
        }
    }
}

extension DeskewMode {
    public static let choices = "auto or none"

    public init?(parsing text: String) { self.init(rawValue: text) }
}
