import Foundation

// The second cue: the page as a bright region.
//
// The line search scores outlines by the length of edge that backs them, so when a page lies on
// a larger pale surface (a grey table on a wooden floor), the larger outline wins, and a
// crumpled page offers no long straight edges at all. Read as a region instead, the page is
// the shape of what is brighter than its surroundings: after a grey closing wipes out text,
// pens and cables, one of the brightness level sets is the sheet. Each level's connected
// regions are measured for how well four corners explain them, in the manner of SmartDoc's
// best method (shapes from the tree of level lines), and the most quadrilateral wins.

extension GradientField {
    /// A page outline read from the shape of a bright region.
    struct RegionQuad {
        var quad: Quad
        /// Quad area over the area of the region's convex hull, times the region's solidity:
        /// 1 for a clean quadrilateral region.
        var fit: Double
    }

    /// Levels of the closed brightness at which regions are read.
    static let regionLevels = 12
    /// A region this much like a quadrilateral counts as a page.
    static let minimumRegionFit = 0.9

    /// Quadrilateral bright regions, best first, at most one per place; and, for each quad in
    /// `compare`, how well the region that best matches it fits it (IoU with the region,
    /// holes filled, at the level where it matches best).
    /// `closed` is the brightness after a grey closing, which wipes out text, pens and cables.
    func paperRegions(_ closed: [Float], minimumAreaFraction: Double, compare: [Quad] = []) -> (found: [RegionQuad], fits: [Double]) {
        let n = closed.count
        let (low, high) = Self.quantiles(closed, 0.2, 0.995)
        guard high - low >= 8 else { return ([], compare.map { _ in 0 }) }
        let masks = compare.map { quadPixels($0) }
        var fits = [Double](repeating: 0, count: compare.count)
        var found: [RegionQuad] = []
        let minimumArea = Int(minimumAreaFraction * Double(n))
        var labels = [Int32](repeating: -1, count: n)
        // Even steps up to one short of the top, and a half step above the last: a page clipped
        // white by over-exposure lies alone only there, on a pale desk a step below it.
        let step = (high - low) / Float(Self.regionLevels + 1)
        let thresholds = (1...Self.regionLevels).map { low + step * Float($0) } + [high - step / 2]
        for t in thresholds {
            let regions = labelRegions(closed, threshold: t, labels: &labels)
            for (k, mask) in masks.enumerated() {
                fits[k] = max(fits[k], Self.bestOverlap(mask, labels: labels, regions: regions))
            }
            for region in regions where region.area >= minimumArea && region.framesTouched <= 1 {
                guard let shape = regionQuad(region, labels: labels) else { continue }
                if let same = found.firstIndex(where: { $0.quad.intersectionOverUnion(shape.quad) > 0.9 }) {
                    if shape.fit > found[same].fit { found[same] = shape }
                } else {
                    found.append(shape)
                }
            }
        }
        found.sort { $0.fit > $1.fit }
        return (found.filter { $0.fit >= Self.minimumRegionFit }, fits)
    }

    /// The values below which `lower` and `upper` shares of `values` (0–255) lie, to the
    /// nearest grey level, from one histogram.
    static func quantiles(_ values: [Float], _ lower: Double, _ upper: Double) -> (Float, Float) {
        var histogram = LevelHistogram()
        for v in values { histogram.add(Int(min(max(v, 0), 255))) }
        return (Float(histogram.level(passing: lower)), Float(histogram.level(passing: upper)))
    }

    struct Region {
        var label: Int32
        var area = 0
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        /// How many sides of the image frame the region reaches.
        var framesTouched = 0
    }

    /// Connected regions (4-neighbours) of pixels at least `threshold` bright; `labels` gets
    /// each pixel's region index, or −1. Regions are numbered in the order of their first
    /// pixel, row by row.
    func labelRegions(_ values: [Float], threshold: Float, labels: inout [Int32]) -> [Region] {
        let w = width, h = height
        // Runs of bright pixels along each row, joined by union-find where they overlap a run
        // of the row above: a page is a few hundred runs, not tens of thousands of pixels.
        var runs: [(y: Int, from: Int, to: Int)] = []
        var parent: [Int32] = []
        func find(_ a: Int32) -> Int32 {
            var a = a
            while parent[Int(a)] != a {
                parent[Int(a)] = parent[Int(parent[Int(a)])]
                a = parent[Int(a)]
            }
            return a
        }
        var above = 0..<0
        values.withUnsafeBufferPointer { v in
            for y in 0..<h {
                let row = y * w, first = runs.count
                var x = 0
                while x < w {
                    guard v[row + x] >= threshold else { x += 1; continue }
                    let from = x
                    while x < w && v[row + x] >= threshold { x += 1 }
                    runs.append((y, from, x))
                    parent.append(Int32(runs.count - 1))
                }
                // Both rows' runs are in order along x: walk them together.
                var k = above.lowerBound
                for r in first..<runs.count {
                    while k < above.upperBound && runs[k].to <= runs[r].from { k += 1 }
                    var j = k
                    while j < above.upperBound && runs[j].from < runs[r].to {
                        let a = find(Int32(r)), b = find(Int32(j))
                        // The smaller index stays the root: a region's root is its first run.
                        if a != b { parent[Int(max(a, b))] = min(a, b) }
                        j += 1
                    }
                }
                above = first..<runs.count
            }
        }
        // Roots → compact indices, in the order of each region's first run.
        var index = [Int32](repeating: -1, count: runs.count)
        var regions: [Region] = []
        labels.withUnsafeMutableBufferPointer { l in
            l.update(repeating: -1)
            for r in runs.indices {
                let root = Int(find(Int32(r)))
                if index[root] < 0 {
                    index[root] = Int32(regions.count)
                    regions.append(Region(label: Int32(regions.count)))
                }
                let label = index[root], run = runs[r]
                let at = Int(label)
                for x in run.from..<run.to { l[run.y * w + x] = label }
                regions[at].area += run.to - run.from
                regions[at].minX = min(regions[at].minX, run.from)
                regions[at].maxX = max(regions[at].maxX, run.to - 1)
                regions[at].minY = min(regions[at].minY, run.y)
                regions[at].maxY = max(regions[at].maxY, run.y)
            }
        }
        for r in regions.indices {
            regions[r].framesTouched = (regions[r].minX == 0 ? 1 : 0) + (regions[r].maxX == w - 1 ? 1 : 0)
                + (regions[r].minY == 0 ? 1 : 0) + (regions[r].maxY == h - 1 ? 1 : 0)
        }
        return regions
    }

    /// The quad of largest area inside the region's convex hull, and how well it explains the
    /// region.
    func regionQuad(_ region: Region, labels: [Int32]) -> RegionQuad? {
        var points: [Point] = []
        var filled = 0
        for y in region.minY...region.maxY {
            var from = Int.max, to = Int.min
            let row = y * width
            for x in region.minX...region.maxX where labels[row + x] == region.label {
                from = min(from, x)
                to = max(to, x)
            }
            guard from <= to else { continue }
            filled += to - from + 1
            // Pixel corners, so a one-pixel-wide row still has extent.
            points.append(Point(Double(from), Double(y)))
            points.append(Point(Double(from), Double(y + 1)))
            points.append(Point(Double(to + 1), Double(y)))
            points.append(Point(Double(to + 1), Double(y + 1)))
        }
        let hull = Self.convexHull(points)
        guard hull.count >= 4 else { return nil }
        let hullArea = abs(Polygon.signedArea(hull))
        guard hullArea > 0, let quad = Self.largestInscribedQuad(hull) else { return nil }
        let solidity = min(1, Double(filled) / hullArea)
        return RegionQuad(quad: quad, fit: quad.area / hullArea * solidity)
    }

    /// The best IoU of a quad (`pixels`, the indices of the pixels inside it) with one region.
    static func bestOverlap(_ pixels: [Int], labels: [Int32], regions: [Region]) -> Double {
        guard !pixels.isEmpty, !regions.isEmpty else { return 0 }
        var overlap = [Int](repeating: 0, count: regions.count)
        for i in pixels where labels[i] >= 0 { overlap[Int(labels[i])] += 1 }
        guard let label = overlap.indices.max(by: { overlap[$0] < overlap[$1] }), overlap[label] > 0 else { return 0 }
        let shared = overlap[label]
        // Holes in the region (text the closing missed) count against it: a lower bound,
        // good enough to rank two outlines against one region.
        return Double(shared) / Double(pixels.count + max(regions[label].area, shared) - shared)
    }

    /// The indices of the pixels whose centres lie inside `q`.
    func quadPixels(_ q: Quad) -> [Int] {
        var pixels: [Int] = []
        guard let box = pixelBox(around: q.corners) else { return pixels }
        for y in box.ys {
            for x in box.xs where q.contains(Point(Double(x) + 0.5, Double(y) + 0.5)) {
                pixels.append(y * width + x)
            }
        }
        return pixels
    }

    /// Grey closing (a maximum then a minimum filter over a square of side 2·radius + 1):
    /// removes dark strokes narrower than the square (text, pens, cables, rules) and leaves
    /// the outline of a large convex bright region where it was.
    static func closing(_ p: [Float], _ w: Int, _ h: Int, radius: Int) -> [Float] {
        let grown = filter(filter(p, w, h, radius: radius, horizontal: true, max: true), w, h, radius: radius, horizontal: false, max: true)
        return filter(filter(grown, w, h, radius: radius, horizontal: true, max: false), w, h, radius: radius, horizontal: false, max: false)
    }

    /// A running maximum or minimum along rows or columns over a window of 2·radius + 1, the
    /// window clipped at the borders. Van Herk and Gil–Werman's method: the running extremes
    /// from the left and from the right within blocks of the window's length make each output
    /// one comparison of two, whatever the radius. Columns go to `filterColumns`.
    static func filter(_ p: [Float], _ w: Int, _ h: Int, radius: Int, horizontal: Bool, max useMax: Bool) -> [Float] {
        guard horizontal else { return filterColumns(p, w, h, radius: radius, max: useMax) }
        var out = p
        let size = 2 * radius + 1
        let padded = w + 2 * radius
        let fill: Float = useMax ? -.infinity : .infinity
        var line = [Float](repeating: fill, count: padded)
        var forward = [Float](repeating: fill, count: padded)
        var backward = [Float](repeating: fill, count: padded)
        @inline(__always) func pick(_ a: Float, _ b: Float) -> Float { useMax ? Swift.max(a, b) : Swift.min(a, b) }
        p.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let base = y * w
                    for i in 0..<w { line[radius + i] = src[base + i] }
                    for start in stride(from: 0, to: padded, by: size) {
                        let end = min(start + size, padded)
                        forward[start] = line[start]
                        for i in (start + 1)..<end { forward[i] = pick(forward[i - 1], line[i]) }
                        backward[end - 1] = line[end - 1]
                        for i in stride(from: end - 2, through: start, by: -1) { backward[i] = pick(backward[i + 1], line[i]) }
                    }
                    // The window of output i is line[i ..< i + size] (the padding being neutral).
                    for i in 0..<w {
                        dst[base + i] = pick(backward[i], forward[i + size - 1])
                    }
                }
            }
        }
        return out
    }

    /// `filter` down the columns, done a whole row at a time: the same comparisons in the same
    /// order, but each over a contiguous row, which vectorises, where a column is read a row
    /// apart at every step.
    static func filterColumns(_ p: [Float], _ w: Int, _ h: Int, radius: Int, max useMax: Bool) -> [Float] {
        let size = 2 * radius + 1
        let padded = h + 2 * radius
        let fill: Float = useMax ? -.infinity : .infinity
        var forward = [Float](repeating: fill, count: padded * w)
        var backward = [Float](repeating: fill, count: padded * w)
        var out = p
        @inline(__always) func pick(_ a: Float, _ b: Float) -> Float { useMax ? Swift.max(a, b) : Swift.min(a, b) }
        p.withUnsafeBufferPointer { src in
            forward.withUnsafeMutableBufferPointer { forward in
                backward.withUnsafeMutableBufferPointer { backward in
                    // Padded row r is source row r − radius, or the neutral fill beyond the image.
                    func copyRow(_ r: Int, into rows: UnsafeMutableBufferPointer<Float>) {
                        let y = r - radius
                        guard y >= 0, y < h else { return }
                        for x in 0..<w { rows[r * w + x] = src[y * w + x] }
                    }
                    for start in stride(from: 0, to: padded, by: size) {
                        let end = Swift.min(start + size, padded)
                        copyRow(start, into: forward)
                        for r in (start + 1)..<end {
                            copyRow(r, into: forward)
                            for x in 0..<w { forward[r * w + x] = pick(forward[(r - 1) * w + x], forward[r * w + x]) }
                        }
                        copyRow(end - 1, into: backward)
                        for r in stride(from: end - 2, through: start, by: -1) {
                            copyRow(r, into: backward)
                            for x in 0..<w { backward[r * w + x] = pick(backward[(r + 1) * w + x], backward[r * w + x]) }
                        }
                    }
                    out.withUnsafeMutableBufferPointer { dst in
                        for y in 0..<h {
                            for x in 0..<w { dst[y * w + x] = pick(backward[y * w + x], forward[(y + size - 1) * w + x]) }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Convex hull (Andrew's monotone chain), clockwise in image coordinates (y down).
    static func convexHull(_ points: [Point]) -> [Point] {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        guard sorted.count >= 3 else { return sorted }
        var lower: [Point] = [], upper: [Point] = []
        for p in sorted {
            while lower.count >= 2 && Point.cross(lower[lower.count - 1] - lower[lower.count - 2], p - lower[lower.count - 2]) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in sorted.reversed() {
            while upper.count >= 2 && Point.cross(upper[upper.count - 1] - upper[upper.count - 2], p - upper[upper.count - 2]) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        let hull = Array(lower.dropLast() + upper.dropLast())
        // Monotone chain turns counter-clockwise in x-right, y-up terms; with y down that is
        // clockwise on screen, the order of TL, TR, BR, BL.
        return Polygon.signedArea(hull) >= 0 ? hull : hull.reversed()
    }

    /// The largest-area quadrilateral with its corners on the hull's vertices, corners from
    /// the one nearest the image's top-left, clockwise. For each diagonal, the best corner on
    /// either side is the vertex farthest from it, which moves monotonically as the diagonal
    /// turns, so the search is quadratic in the hull's size.
    static func largestInscribedQuad(_ hull: [Point]) -> Quad? {
        let n = hull.count
        guard n >= 4 else { return nil }
        func area(_ a: Point, _ b: Point, _ c: Point) -> Double { abs(Point.cross(b - a, c - a)) / 2 }
        var best = 0.0
        var corners = [0, 1, 2, 3]
        for i in 0..<n {
            var j = i + 1, l = i + 3
            for k in (i + 2)..<(i + n - 1) {
                let a = hull[i], c = hull[k % n]
                if j >= k { j = i + 1 }
                while j + 1 < k && area(a, hull[(j + 1) % n], c) >= area(a, hull[j % n], c) { j += 1 }
                if l <= k { l = k + 1 }
                while l + 1 < i + n && area(a, hull[(l + 1) % n], c) >= area(a, hull[l % n], c) { l += 1 }
                let total = area(a, hull[j % n], c) + area(a, hull[l % n], c)
                if total > best {
                    best = total
                    corners = [i, j % n, k % n, l % n]
                }
            }
        }
        let points = corners.map { hull[$0] }
        let start = points.indices.min { points[$0].x + points[$0].y < points[$1].x + points[$1].y } ?? 0
        let ordered = (0..<4).map { points[(start + $0) % 4] }
        let quad = Quad(topLeft: ordered[0], topRight: ordered[1], bottomRight: ordered[2], bottomLeft: ordered[3])
        return quad.signedArea > 0 ? quad : nil
    }
}
