import ScanCore

/// What a page's text says about how it lies: which way its lines run, how far they are tilted,
/// which way is up and how tall its characters are. All in the analysed page's pixels.
public struct TextGeometry: Sendable, Equatable {
    /// Median height of character-sized ink blobs, in pixels.
    public var characterHeight: Double
    /// True when the text lines run up and down the page rather than across it.
    public var linesRunVertically: Bool
    /// How strongly the line direction stood out: the better direction's line score over the
    /// other's (1 when they tie).
    public var directionRatio: Double
    /// Characters whose nearest neighbour lies beside them over those whose nearest lies above
    /// or below: well over 1 for lines across, under 1 for lines down.
    public var neighbourRatio: Double
    /// The lines' tilt in degrees, counter-clockwise positive, measured once they run across.
    public var skewDegrees: Double
    /// Leptonica's confidence in the tilt (best score over the sweep's mean; 0 when none).
    public var skewConfidence: Double
    /// Leptonica's up-down evidence once the lines run across: positive when the text stands
    /// upright, negative when it is upside down, near 0 when it cannot tell.
    public var uprightEvidence: Double
    /// The box around the character-sized blobs (5th to 95th percentile of their edges):
    /// where the text is.
    public var textBounds: Bounds

    public init(characterHeight: Double, linesRunVertically: Bool, directionRatio: Double, neighbourRatio: Double, skewDegrees: Double,
                skewConfidence: Double, uprightEvidence: Double, textBounds: Bounds) {
        self.textBounds = textBounds
        self.characterHeight = characterHeight
        self.linesRunVertically = linesRunVertically
        self.directionRatio = directionRatio
        self.neighbourRatio = neighbourRatio
        self.skewDegrees = skewDegrees
        self.skewConfidence = skewConfidence
        self.uprightEvidence = uprightEvidence
    }

    /// An upright box in pixels.
    public struct Bounds: Sendable, Equatable {
        public var minX: Double, minY: Double, maxX: Double, maxY: Double

        public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }

        /// The upright box around this one's corners mapped through `map`.
        public func mapped(through map: Homography) -> Bounds {
            let corners = [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)].compactMap { map.apply($0) }
            guard corners.count == 4 else { return self }
            return Bounds(minX: corners.map(\.x).min() ?? minX, minY: corners.map(\.y).min() ?? minY,
                          maxX: corners.map(\.x).max() ?? maxX, maxY: corners.map(\.y).max() ?? maxY)
        }
    }
}
