// A side that strays off the page's edge: it steps from paper to what the page lies on along
// part of its length, and shows no step at all along a long stretch of the rest. There the
// outline has left the page: a page's side carried on past its corner over the desk to take
// in a second sheet beside it, running out of the frame, or a side carried over a pale desk
// as bright as the paper. An object lying across a side shows no step on it either, but its
// edges cross the side, and the level outside jumps at both ends of the stretch.

extension GradientField {
    /// Whether side `k` of `q` shows no step along at least `strayShare` of its length, in one
    /// stretch, where its other points step from paper to the ground by a clear margin. Read
    /// in this view (the print wiped out, so a page's text is paper).
    func strays(_ k: Int, of q: Quad) -> Bool {
        let (a, b) = sidesOf(q)[k]
        let length = a.distance(to: b)
        guard length >= 16 else { return false }
        let along = (b - a) * (1 / length), inward = Line(through: a, b).normal
        let samples = Self.contrastSamples
        // Each point's inside and outside, 3–7 px either hand; nil where either leaves the frame.
        let points = (0..<samples).map { i -> (inside: Float, outside: Float)? in
            let p = a + along * (length * (0.05 + 0.9 * Double(i) / Double(samples - 1)))
            var inside: Float = 0, outside: Float = 0
            for depth in 3...7 {
                guard let i = level(at: p + inward * Double(depth)), let o = level(at: p - inward * Double(depth)) else { return nil }
                inside += i
                outside += o
            }
            return (inside / 5, outside / 5)
        }
        let stepped = points.compactMap { $0 }.filter { $0.inside - $0.outside >= Self.minimumPaperStep }
        guard stepped.count >= samples / 4 else { return false }
        var paperLevels = stepped.map(\.inside), groundLevels = stepped.map(\.outside)
        guard let paper = paperLevels.selectKth(stepped.count / 2), let ground = groundLevels.selectKth(stepped.count / 2),
              paper - ground >= 2 * Self.minimumPaperStep else { return false }
        // No paper step across either way, the ground's level drifting along the side under
        // uneven light. The ground outside goes on smoothly into such a stretch at one end at
        // least; an occluder's edge crosses the side at both of its ends, and the level outside
        // jumps there.
        func stepless(_ i: Int) -> Bool {
            guard let point = points[i] else { return false }
            return abs(point.inside - point.outside) < Self.minimumPaperStep
        }
        func smooth(_ i: Int, _ j: Int) -> Bool {
            guard points.indices.contains(j), let a = points[i], let b = points[j] else { return false }
            return abs(a.outside - b.outside) < Self.minimumPaperStep
        }
        var longest = 0, i = 0
        while i < samples {
            guard stepless(i) else { i += 1; continue }
            var end = i
            while end + 1 < samples, stepless(end + 1) { end += 1 }
            if smooth(i, i - 1) || smooth(end, end + 1) { longest = max(longest, end - i + 1) }
            i = end + 1
        }
        return Double(longest) >= Self.strayShare * Double(samples)
    }

    /// The share of a side that, showing no step in one stretch, shows it has left the page.
    static let strayShare = 1.0 / 3
}
