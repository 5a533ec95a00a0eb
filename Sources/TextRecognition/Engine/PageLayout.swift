/// How Tesseract was told to lay a page out before reading it.
public enum PageLayout: Sendable, Equatable {
    /// Tesseract's automatic layout, which reads each column in turn: for text that stands side
    /// by side in columns, and for pages where it finds no text lines.
    case automatic
    /// One column of text, read as a single block inside the area the lines take up: each line
    /// is read whole (an item and its price on a receipt), with the lines above and below it as
    /// context.
    case singleBlock
    /// The page segmentation mode the caller chose (`--psm`).
    case requested(Int)

    /// The name JSON Lines reports.
    public var name: String {
        switch self {
        case .automatic: "auto"
        case .singleBlock: "block"
        case .requested(let mode): "psm \(mode)"
        }
    }
}

/// One text line of Tesseract's automatic layout, in the page's pixels.
struct LayoutLine: Equatable {
    var minX: Int
    var minY: Int
    var maxX: Int
    var maxY: Int
}

extension PageLayout {
    /// Lines with another line beside them that make columns: three rows of two. One or two
    /// rows are a date beside an address or a signature block, not a column layout.
    static let minimumLinesSideBySide = 6

    /// Whether a page's text lines stand in columns: enough lines with another beside them,
    /// sharing over half the lower one's height and apart across.
    static func hasColumns(_ lines: [LayoutLine]) -> Bool {
        var beside = 0
        for (i, a) in lines.enumerated() {
            let hasNeighbour = lines.indices.contains { j in
                guard j != i else { return false }
                let b = lines[j]
                let shared = min(a.maxY, b.maxY) - max(a.minY, b.minY)
                let lower = min(a.maxY - a.minY, b.maxY - b.minY)
                return shared * 2 > lower && (b.minX > a.maxX || a.minX > b.maxX)
            }
            if hasNeighbour {
                beside += 1
                if beside >= minimumLinesSideBySide { return true }
            }
        }
        return false
    }
}
