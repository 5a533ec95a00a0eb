import Foundation

// An outline with nothing printed in it (a window pane in its frame, a blank board) can be the
// strongest in the photo and stand in front of the page in every reading: the search verifies
// the best-scored outlines first and keeps the first that passes, so a printed page scored
// below the pane's near-copies is never read. Where the outline found is blank, the photo is
// read once more with it painted over in what lies round it.

extension PageDetector {
    /// The page outline read from `small` with `blank` (an outline found first, with little
    /// printed in it) painted over, and the views it was read in; nil unless a page is found
    /// there, well backed, that lies clear of `blank`.
    func readingPast(_ blank: Quad, in small: PixelBuffer, closingRadius radius: Int)
        -> (outline: ScoredQuad, field: GradientField, textless: GradientField)? {
        guard let painted = small.paintedOver(blank, reach: Self.blankReach) else { return nil }
        let (field, textless) = GradientField.views(of: painted, closingRadius: radius)
        guard let outline = field.pageOutline(minimumAreaFraction: minimumAreaFraction, minimumConfidence: minimumConfidence, textless: textless),
              !outline.isFrame, outline.confidence >= GradientField.laterPlaceConfidence,
              Polygon.intersectionArea(outline.quad.corners, blank.corners) <= Self.blankOverlap * outline.quad.area else { return nil }
        return (outline, field, textless)
    }

    /// How far past a blank outline, in working pixels, the paint reaches: over its edge's
    /// blur and the bands a side's step is read in, so no step is left along it.
    static let blankReach = 8.0
    /// The share of a page found past a blank outline that may lie over where it was: the page
    /// may overlap a pane's frame, but an outline round the paint itself is no page.
    static let blankOverlap = 0.1
}

extension PixelBuffer {
    /// A grey image with `quad`, and the strip `reach` pixels round it, painted over in what lies
    /// round it: each pixel in the level of the ring just past that strip beyond its nearest
    /// side (the median of that ring), so no side steps from what lies beyond it, though a wall
    /// is lit unevenly round a pane or the rest of a sheet lies past a blank part of it. Nil
    /// where the rings are out of view.
    func paintedOver(_ quad: Quad, reach: Double) -> PixelBuffer? {
        guard format == .gray else { return nil }
        // The least of the distances to the sides' lines (positive inside, the corners being
        // clockwise) is a point's depth inside the outline: negative outside, at most that far out.
        let c = quad.corners
        let sides = (0..<4).map { Line(through: c[$0], c[($0 + 1) % 4]) }
        let ringWidth = 4.0
        var rings = [[Float]](repeating: [], count: 4), inside: [(index: Int, side: Int)] = []
        for y in 0..<height {
            for x in 0..<width {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                var depth = Double.infinity, nearest = 0
                for (k, side) in sides.enumerated() {
                    let d = Point.dot(p, side.normal) - side.rho
                    if d < depth { (depth, nearest) = (d, k) }
                }
                if depth >= -reach {
                    inside.append((y * width + x, nearest))
                } else if depth >= -(reach + ringWidth) {
                    rings[nearest].append(Float(pixels[y * width + x]))
                }
            }
        }
        var all = rings.flatMap { $0 }
        guard all.count >= 16, let level = all.selectKth(all.count / 2) else { return nil }
        // A side with too little of its ring in view takes the level all round.
        let levels = rings.map { ring -> UInt8 in
            var ring = ring
            return UInt8((ring.count >= 4 ? ring.selectKth(ring.count / 2) ?? level : level).rounded())
        }
        var out = self
        for (index, side) in inside { out.pixels[index] = levels[side] }
        return out
    }
}
