import Foundation

// A booklet's cover with a white band across one end, where its title is printed. The surface
// reading (`surfaceReading`) sees the cover as its distance in colour from the desk: the
// coloured part lies far off, but the white band lies near a pale desk, which is nearer white
// than any strong colour is, and where the desk's light varies, parts of the desk lie farther
// off than the band. So the outline found is the coloured part alone. In brightness the band is
// paper, brighter than the desk round it, between the cover's sides carried on: the outline
// grows over it to its far edge.

extension GradientField {
    /// `q` grown across the side past which the sheet goes on as a band brighter than what lies
    /// round it (this view is the photo's brightness), to the band's far edge; nil where no side
    /// has such a band past it. `textless` is this view with the print wiped out.
    func extendedOverSheetBand(_ q: Quad, textless: GradientField) -> Quad? {
        var best: (quad: Quad, backing: Double)?
        for k in 0..<4 {
            guard let grown = sheetBand(beyond: k, of: q, textless: textless), grown.backing > best?.backing ?? 0 else { continue }
            best = grown
        }
        return best?.quad
    }

    /// The band is read out to the depth of the part it lies past, at most: a band across one
    /// end of a cover is narrower than the rest of it.
    static let sheetBandShare = 1.0
    /// The least share of each of the band's edges (its far edge, and the sides carried on
    /// along it) that edges stepping down out of it back: most of it.
    static let sheetBandBacking = 0.5

    /// `q` grown over a band of the same sheet past side `k` (`extendedOverSheetBand`), and the
    /// least share of any of its three new edges that edges back.
    func sheetBand(beyond k: Int, of q: Quad, textless: GradientField) -> (quad: Quad, backing: Double)? {
        let depth = depth(across: k, of: q)
        guard depth >= 8 else { return nil }
        // Right past the side, the band is paper brighter than what lies beside it, past each
        // side carried on (the light across a desk varies, so the desk is read there).
        let c = q.corners
        let first = Double(Self.shadeLead.upperBound + 1)
        let reach = max(first, Self.besideShare * depth)
        let besideBefore = stepContrast(c[k], c[k] + (c[k] - c[(k + 3) % 4]).unit * reach, paper: false).mean
        let besideAfter = stepContrast(c[(k + 1) % 4] + (c[(k + 1) % 4] - c[(k + 2) % 4]).unit * reach, c[(k + 1) % 4], paper: false).mean
        guard min(besideBefore, besideAfter) >= Self.minimumStep else { return nil }
        // In each part of the band's rows, its far edge is the steepest fall in level, from a
        // band that holds above what lies past it all the way there.
        let profiles = textless.bandProfiles(beyond: k, of: q, from: first, to: Self.sheetBandShare * depth)
        let ends = zip(Self.shadePortions, profiles).compactMap { portion, profile -> FarEnd? in
            guard let fall = Self.levelChanges(in: profile).min(by: { $0.step < $1.step }), -fall.step >= Self.minimumPaperStep,
                  let bandLeast = profile[..<(fall.at - 2)].min(), let pastMost = Self.rowsBeside(fall.at, in: profile).after.max(),
                  bandLeast >= pastMost + Self.minimumFarStep,
                  let (from, to) = bandRow(beyond: k, of: q, at: first + Double(fall.at)) else { return nil }
            let middle = (portion.lowerBound + portion.upperBound) / 2
            return FarEnd(point: from + (to - from) * middle, step: fall.step)
        }
        // The far edge is straight all across.
        guard ends.count == Self.shadePortions.count, let farEdge = Self.lineFit(ends.map { ($0.point, 1) }),
              ends.allSatisfy({ abs(Point.dot($0.point, farEdge.normal) - farEdge.rho) <= Self.shadeEdgeStraightness }) else { return nil }
        guard let (grown, farBefore, farAfter) = carried(q, past: k, to: farEdge) else { return nil }
        // Each of the band's edges steps down out of it all along, and edges that do back most
        // of it (a note or a pen may lie over a stretch).
        var backing = 1.0
        for (a, b) in [(c[k], farBefore), (farBefore, farAfter), (farAfter, c[(k + 1) % 4])] {
            let step = stepContrast(a, b, paper: false)
            guard step.mean >= Self.minimumStep, step.median >= Self.minimumStep else { return nil }
            let count = edgeCount(a, b, polarity: 1, threshold: Self.edgeThreshold(forStep: step.mean, threshold))
            backing = min(backing, Double(count.hits) / Double(max(count.steps, 1)))
        }
        guard backing >= Self.sheetBandBacking else { return nil }
        return (grown, backing)
    }
}
