import Foundation

// Pages with something lying across one of their sides.
//
// A book, a phone or a folder lying over a page's side hides a stretch of it, and the thing's
// own edge across the paper bounds the page in view as cleanly as that side would: the search
// takes it for the side. Two things show it is not the page's edge. Its edge runs on past the
// outline's corner, out over the desk, where a page's side ends at its corners; or the page's
// sides meeting it run on past it, with the paper beside the thing. The page's own side is then
// a line further out, along which (and along the sides meeting it, carried on to it) the page's
// edge shows wherever the thing does not lie over it, and the thing, unlike the paper and the
// desk beside it, wherever it does.

extension GradientField {
    /// `outline` with one side moved out past something lying across it, to the page's own
    /// side (`occludedSide`); nil where no side shows something lying across it. Read in this
    /// view, with the print wiped out.
    func unoccluded(_ outline: ScoredQuad, lines: [Line]) -> ScoredQuad? {
        let q = outline.quad
        guard let levels = interior(q), levels.inside - levels.outside >= Self.minimumStep else { return nil }
        var best: (quad: Quad, score: Double, covered: [Int])?
        for k in 0..<4 where !liesOnFrame(q.corners[k], q.corners[(k + 1) % 4]) && crossedBySomething(k, of: q) {
            guard let found = occludedSide(k, of: q, lines: lines),
                  found.score > best?.score ?? -.infinity else { continue }
            best = found
        }
        guard let best else { return nil }
        return ScoredQuad(quad: best.quad, confidence: outline.confidence, isFrame: false, regionFit: outline.regionFit, backing: outline.backing,
                          covered: best.covered)
    }

    /// Whether side `k` of `q` may be the edge of something lying across the page: its own
    /// edge runs on past one of its corners, over a quarter of its length, or over a shorter
    /// stretch with the same thing outside it as outside the side, and inside it the desk as
    /// beside the side meeting it there (a thing over a corner may reach only a little past the
    /// page); or the sides meeting it run on past it (`sidesRunOn`).
    func crossedBySomething(_ k: Int, of q: Quad) -> Bool {
        let c = q.corners
        let (a, b) = (c[k], c[(k + 1) % 4])
        let length = a.distance(to: b)
        guard length >= 8 else { return false }
        let d = (b - a) * (1 / length)
        // Past each end: the stretch carrying the side on, and the side meeting it there.
        let ends = [(b + d * 3, b, c[(k + 2) % 4]), (a - d * 3, a, c[(k + 3) % 4])]
        let outsideSide = levels(along: a, b, inwardOf: q).compactMap(\.outside).median
        let runsOn = ends.contains { start, corner, other in
            let far = start + (start - corner).unit * (Self.runOnReach * length)
            if inBounds(start), inBounds(far), abs(stepContrast(start, far, paper: false).median) >= Self.minimumStep { return true }
            let near = start + (start - corner).unit * Self.leastRunOn
            guard inBounds(near), let outsideSide, let (_, desk) = Self.shownLevels(levels(along: corner, (corner + other) * 0.5, inwardOf: q)) else { return false }
            let run = levels(along: start, near, inwardOf: q)
            guard let inside = run.compactMap(\.inside).median, let outside = run.compactMap(\.outside).median else { return false }
            return inside - outside >= Self.minimumStep && abs(inside - desk) < Self.minimumStep && abs(outside - outsideSide) < Self.minimumStep
        }
        return runsOn || sidesRunOn(past: k, of: q)
    }

    /// The outline with side `k` of `q` replaced by one of `lines` further out: every stretch of
    /// its new side, and of the sides meeting it carried on to it, shows either the page's edge
    /// (paper inside, stepping down to the desk) or something lying across it (the same level
    /// either side, unlike the paper and unlike the desk beside that stretch), with the page's
    /// edge along some of the new side and something over some of it. Scored by the length the
    /// page's edge backs less the length neither explains; with the steps covered on each side.
    func occludedSide(_ k: Int, of q: Quad, lines: [Line]) -> (quad: Quad, score: Double, covered: [Int])? {
        let c = q.corners
        let (a, b) = (c[k], c[(k + 1) % 4])
        let (previous, next) = (c[(k + 3) % 4], c[(k + 2) % 4])
        let before = Line(through: previous, a), after = Line(through: b, next), current = Line(through: a, b)
        let outward = Point.dot((a + b) * 0.5 - q.middle, current.normal) >= 0 ? current.normal : current.normal * -1
        // The paper and the desk either side of each side meeting side k, where its edge shows
        // on its half nearest it: light falls off across a photo, and each stretch is judged by
        // the levels beside it.
        guard let (paperBefore, deskBefore) = Self.shownLevels(levels(along: (previous + a) * 0.5, a, inwardOf: q)),
              let (paperAfter, deskAfter) = Self.shownLevels(levels(along: b, (b + next) * 0.5, inwardOf: q)) else { return nil }
        var best: (quad: Quad, score: Double, covered: [Int])?
        for line in lines where line.angle(to: current) <= Self.maximumTurn {
            guard let p = line.intersection(before), let p2 = line.intersection(after) else { continue }
            // The new corners lie out past the side taken, along the sides meeting it; one may
            // stay, where the thing lies over the other corner alone.
            let moves = (Point.dot(p - a, outward), Point.dot(p2 - b, outward))
            guard max(moves.0, moves.1) > max(Self.leastMove, Self.leastMoveShare * min(a.distance(to: previous), b.distance(to: next))),
                  min(moves.0, moves.1) > -1 else { continue }
            var corners = c
            corners[k] = p
            corners[(k + 1) % 4] = p2
            let whole = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
            guard whole.isConvex, inBounds(whole) else { continue }
            let side = levels(along: p, p2, inwardOf: whole)
            // The levels beside the new side are read where the page's edge shows along it.
            let (paperBeside, deskBeside) = Self.shownLevels(side) ?? ((paperBefore + paperAfter) / 2, (deskBefore + deskAfter) / 2)
            let stretches = [account(levels(along: a, p, inwardOf: whole), paper: paperBefore, desk: deskBefore),
                             account(side, paper: paperBeside, desk: deskBeside),
                             account(levels(along: p2, b, inwardOf: whole), paper: paperAfter, desk: deskAfter)]
            guard stretches.allSatisfy({ Double($0.unexplained) <= Self.unexplainedShare * Double($0.count) }) else { continue }
            let newSide = stretches[1], covered = stretches.reduce(0) { $0 + $1.covered }
            guard newSide.count > 0, Double(newSide.longestBacked) >= Self.leastSideShown * Double(newSide.count),
                  newSide.longestBacked >= Self.leastShownSteps, Double(covered) >= Self.leastCovered * Double(newSide.count) else { continue }
            let score = Double(stretches.reduce(0) { $0 + $1.backed - $1.unexplained })
            var coveredSteps = [0, 0, 0, 0]
            (coveredSteps[(k + 3) % 4], coveredSteps[k], coveredSteps[(k + 1) % 4]) = (stretches[0].covered, stretches[1].covered, stretches[2].covered)
            if score > best?.score ?? -.infinity { best = (whole, score, coveredSteps) }
        }
        return best
    }

    /// The levels a few pixels inside and outside the line `a` → `b` at each step, inside
    /// being towards `quad`'s middle.
    func levels(along a: Point, _ b: Point, inwardOf quad: Quad) -> [(inside: Float?, outside: Float?)] {
        let length = a.distance(to: b)
        guard length >= 1 else { return [] }
        let d = (b - a) * (1 / length)
        var inward = Point(-d.y, d.x)
        if Point.dot(quad.middle - a, inward) < 0 { inward = inward * -1 }
        return (0..<Int(length)).map { s in
            let p = a + d * (Double(s) + 0.5)
            return (level(at: p + inward * Self.levelOffset), level(at: p - inward * Self.levelOffset))
        }
    }

    /// The median levels inside and outside the `steps` that step up inwards; nil where none do.
    static func shownLevels(_ steps: [(inside: Float?, outside: Float?)]) -> (paper: Float, desk: Float)? {
        let shown = steps.compactMap { step -> (Float, Float)? in
            guard let inside = step.inside, let outside = step.outside, inside - outside >= minimumStep else { return nil }
            return (inside, outside)
        }
        guard let paper = shown.map(\.0).median, let desk = shown.map(\.1).median else { return nil }
        return (paper, desk)
    }

    /// How many of `steps` show the page's edge (a step up inwards, to nearer the `paper`
    /// beside the stretch than the `desk`), how many something lying across the line (the same
    /// level either side, unlike that paper and unlike that desk, where most steps so read are
    /// near one level), and how many neither; and the longest run of steps showing the page's
    /// edge.
    func account(_ steps: [(inside: Float?, outside: Float?)], paper: Float, desk: Float)
        -> (count: Int, backed: Int, covered: Int, unexplained: Int, longestBacked: Int) {
        var result = (count: 0, backed: 0, covered: 0, unexplained: 0, longestBacked: 0)
        var run = 0
        var covered: [Float] = []
        for step in steps {
            guard let inside = step.inside, let outside = step.outside else { continue }
            result.count += 1
            if inside - outside >= Self.minimumStep && inside >= (paper + desk) / 2 {
                result.backed += 1
                run += 1
                result.longestBacked = max(result.longestBacked, run)
                continue
            }
            run = 0
            if abs(inside - outside) < Self.minimumStep && abs(inside - paper) >= Self.minimumStep && abs(outside - desk) >= Self.minimumStep {
                covered.append(inside)
            } else {
                result.unexplained += 1
            }
        }
        result.covered = covered.count
        // A thing lying over the page is one level along most of the stretch (its ends blur
        // into what lies beside it); the leaves or the grain of a busy desk are not.
        if let level = covered.median,
           Double(covered.filter({ abs($0 - level) < Self.minimumStep }).count) < Self.steadyShare * Double(covered.count) {
            result.unexplained += covered.count
            result.covered = 0
        }
        return result
    }

    /// How far past its corner a side's own edge must run on, as a share of the side, or in
    /// working pixels where what lies either side of it shows it is the same thing's edge.
    static let runOnReach = 0.25
    static let leastRunOn = 8.0
    /// The share of the steps read as something lying over the page that must be near their
    /// median level.
    static let steadyShare = 0.75
    /// How far a side may turn, moved out to the page's own side (radians): where the thing
    /// lies over a corner, its edge cuts across it.
    static let maximumTurn = 1.0
    /// Working pixels, and the share of the sides meeting it, by which one end of a side must
    /// move out: the sides of a page's outline a few pixels out still run along its edge.
    static let leastMove = 3.0
    static let leastMoveShare = 0.05
    /// The most of each stretch that neither the page's edge nor the thing over it may explain
    /// (the blur where one meets the other).
    static let unexplainedShare = 0.25
    /// The least share and steps of the new side along which the page's edge must show
    /// unbroken, as a straight edge does (the rim of a mug crosses a line in a few steps) ...
    static let leastSideShown = 0.15
    static let leastShownSteps = 6
    /// ... and the least that something must cover, as a share of the new side.
    static let leastCovered = 0.15
}

extension Quad {
    /// The mean of the corners: a point inside a convex quad.
    var middle: Point { (topLeft + topRight + bottomRight + bottomLeft) * 0.25 }
}

extension Array where Element == Float {
    /// The middle value; nil when empty.
    var median: Float? {
        var copy = self
        return copy.selectKth(count / 2)
    }
}
