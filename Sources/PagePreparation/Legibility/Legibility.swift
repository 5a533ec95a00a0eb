import ScanCore

/// Turns a page upright and levels its text lines before recognition, as the modes say and
/// the page's text geometry shows. Each change is a recorded step on the `ScanPage`.
public struct Legibility: Sendable {
    public let rotation: RotationMode
    public let deskew: DeskewMode
    /// Scale pages of small text up to a height Tesseract reads well.
    public let upscale: Bool
    private let analyzer = TextGeometryAnalyzer()

    /// One line direction must score this many times the other before the page is turned or
    /// levelled: text pages score 2.5 or more, noise and pictures near 1.
    static let minimumDirectionRatio = 1.5
    /// Up-down evidence (Leptonica's count statistic) needed to turn a page half-way or to pick
    /// between the two quarter turns. See `scripts/eval-orientation` for how it separates.
    static let minimumUprightEvidence = 5.0
    /// Evidence below this leaves the way up unsure, for the recogniser to settle by reading
    /// (`uprightUnsure`): text in capitals, as on receipts, has few ascenders and descenders
    /// for Leptonica to count, and its evidence can point the wrong way.
    static let strongUprightEvidence = 12.0
    /// Tilts smaller than this are left: Tesseract reads them as well, and resampling would
    /// change a straight page's pixels for nothing.
    static let minimumSkewDegrees = 0.3
    /// Characters shorter than this (median blob height, pixels) are scaled up to
    /// `legibleCharacterHeight`, by at most `maximumScale`: Tesseract reads text with an
    /// x-height under about 10 pixels poorly. Larger text is never scaled down; measured on
    /// the corpus, shrinking it helped some pages and hurt as many.
    static let smallCharacterHeight = 16.0
    static let legibleCharacterHeight = 20.0
    static let maximumScale = 3.0
    /// Pages are not enlarged past this many pixels: a huge scan of small print is read as it is.
    static let maximumScaledPixels = 120_000_000.0

    public init(rotation: RotationMode = .auto, deskew: DeskewMode = .auto, upscale: Bool = true) {
        self.rotation = rotation
        self.deskew = deskew
        self.upscale = upscale
    }

    /// What was read from the page and what was done to it.
    public struct Outcome: Sendable, Equatable {
        /// The text geometry, when the page was analysed and had text to judge by.
        public var geometry: TextGeometry?
        /// Quarter turns clockwise applied (0–3).
        public var quarterTurns = 0
        /// Degrees clockwise the page was rotated to level its lines (its tilt), 0 if not.
        public var skewDegrees = 0.0
        /// The page's lines run across now, but whether it stands upright or upside down is
        /// unsure: the recogniser should compare how well it reads either way.
        public var uprightUnsure = false
        /// Where the text is, in the page's pixels after the turn and levelling.
        public var textBounds: TextGeometry.Bounds?
        /// How much the page was scaled to make small text legible, 1 when it was not.
        public var scale = 1.0

        /// Whether the text's lines run across the page once turned: false without geometry.
        public var linesRunAcross: Bool {
            guard let g = geometry else { return false }
            return g.linesRunVertically == (quarterTurns % 2 == 1)
        }

        public init(geometry: TextGeometry? = nil, quarterTurns: Int = 0, skewDegrees: Double = 0,
                    uprightUnsure: Bool = false, textBounds: TextGeometry.Bounds? = nil) {
            self.geometry = geometry
            self.quarterTurns = quarterTurns
            self.skewDegrees = skewDegrees
            self.uprightUnsure = uprightUnsure
            self.textBounds = textBounds
        }
    }

    /// Turns and levels `page` in place.
    public func apply(to page: inout ScanPage) throws(PreparationError) -> Outcome {
        var outcome = Outcome()
        let needsGeometry = rotation == .auto || deskew == .auto || upscale
        if needsGeometry {
            let grey = page.image.format == .gray ? page.image : page.image.grayscale()
            outcome.geometry = analyzer.analyze(grey)
        }
        switch rotation {
        case .none: outcome.quarterTurns = 0
        case .quarterTurns(let q): outcome.quarterTurns = ((q % 4) + 4) % 4
        case .auto: outcome.quarterTurns = outcome.geometry.map(Self.quarterTurns(for:)) ?? 0
        }
        if deskew == .auto, let g = outcome.geometry, g.directionRatio >= Self.minimumDirectionRatio,
           abs(g.skewDegrees) >= Self.minimumSkewDegrees,
           outcome.linesRunAcross {
            // A half turn keeps a line's angle, so the tilt read with the lines across holds
            // for either way up.
            outcome.skewDegrees = g.skewDegrees
        }
        if rotation == .auto, let g = outcome.geometry, g.directionRatio >= Self.minimumDirectionRatio {
            outcome.uprightUnsure = abs(g.uprightEvidence) < Self.strongUprightEvidence
        }
        var scale = 1.0
        if upscale, let g = outcome.geometry, g.directionRatio >= Self.minimumDirectionRatio, g.characterHeight < Self.smallCharacterHeight {
            let room = (Self.maximumScaledPixels / Double(max(1, page.image.width * page.image.height))).squareRoot()
            scale = min(Self.maximumScale, Self.legibleCharacterHeight / max(g.characterHeight, 1), room)
            if scale < 1.05 { scale = 1 }
        }
        outcome.scale = scale
        let before = page.sourceToCurrent
        page.turn(quarterTurns: outcome.quarterTurns)
        do throws(ScanCoreError) {
            try page.straighten(degrees: outcome.skewDegrees, scale: scale)
            if let bounds = outcome.geometry?.textBounds {
                outcome.textBounds = bounds.mapped(through: page.sourceToCurrent * (try before.inverted()))
            }
        } catch {
            throw PreparationError(.geometry, "the page cannot be levelled (\(error.message))", remedy: "use --deskew none")
        }
        return outcome
    }

    /// The quarter turns clockwise that stand the text upright as far as its geometry shows:
    /// lines turned to run across, then the way up the evidence gives, if it gives one.
    static func quarterTurns(for g: TextGeometry) -> Int {
        // Without clear lines there is no telling which way they run. The up-down count is a
        // difference in standard deviations, though: strong enough, it shows lines across
        // standing on their heads (dotted print, whose lines are faint for the direction).
        guard g.directionRatio >= minimumDirectionRatio else {
            return !g.linesRunVertically && g.uprightEvidence <= -strongUprightEvidence ? 2 : 0
        }
        let upsideDown = g.uprightEvidence <= -minimumUprightEvidence
        // The evidence for vertical lines was read after a quarter turn clockwise.
        if g.linesRunVertically { return upsideDown ? 3 : 1 }
        return upsideDown ? 2 : 0
    }
}
