import Foundation

/// A page found in a photo.
public struct PageDetection: Sendable, Equatable {
    /// Corners in source pixels: top-left, top-right, bottom-right, bottom-left.
    public var quad: Quad
    /// 0–1: how much of the outline is backed by image edges.
    public var confidence: Double
}

/// Finds the page quadrilateral in a photo.
///
/// The method works on line segments, in the manner of the strongest published SmartDoc
/// methods, not on contour approximation:
/// 1. a small working copy (long side `workingSize`), smoothed, with gradients taken in each
///    channel of a colour image, so a light page on a light desk can show its edge in whichever
///    channel differs most. (The recognizer passes grey images: on the corpus's photos, grey
///    found better outlines than colour; see `PageWorker`.)
/// 2. an orientation-restricted Hough transform: each edge pixel votes only for lines
///    perpendicular to its gradient, which keeps peaks sharp;
/// 3. every pair of roughly horizontal and pair of roughly vertical candidate lines (the image
///    borders included, for pages cut by the frame) forms a quad, scored by the length of its
///    outline backed by an edge pointing across it less the length that is not, so clutter and
///    text lines inside the page lose to the long continuous outline, a fold loses to the
///    whole page, and an occluding hand costs only part of a side;
/// 4. the best-scored quads are refined by a weighted least-squares fit to their edge pixels
///    and checked for paper (brighter inside each side and in the middle than outside); the
///    first that passes wins;
/// 5. where the paper boundary of a side runs on past a corner (a curled edge, a page standing
///    up at a fold), the corner moves to its end.
///
/// It returns nil for flat scans (the best outline is the image frame itself) and whenever the
/// best outline is not convincing: a wrong crop is worse than none.
public struct PageDetector: Sendable {
    /// Long side of the working copy, in pixels.
    public var workingSize: Int
    /// Detections below this confidence are dropped.
    public var minimumConfidence: Double
    /// The page must cover at least this share of the image.
    public var minimumAreaFraction: Double

    public init(workingSize: Int = 400, minimumConfidence: Double = 0.55, minimumAreaFraction: Double = 0.12) {
        self.workingSize = workingSize
        self.minimumConfidence = minimumConfidence
        self.minimumAreaFraction = minimumAreaFraction
    }

    public func detect(in image: PixelBuffer) -> PageDetection? {
        let longSide = max(image.width, image.height)
        let factor = max(1, Int((Double(longSide) / Double(workingSize)).rounded(.up)))
        let small = image.downsampled(by: factor)
        guard small.width >= 16, small.height >= 16 else { return nil }
        let field = GradientField(small)
        guard let best = field.bestQuad(minimumAreaFraction: minimumAreaFraction) else { return nil }
        guard !best.isFrame, best.confidence >= minimumConfidence else { return nil }
        // Working-copy coordinates → source pixels (pixel-corner convention on both sides).
        let sx = Double(image.width) / Double(small.width), sy = Double(image.height) / Double(small.height)
        let quad = Quad(
            topLeft: Point(best.quad.topLeft.x * sx, best.quad.topLeft.y * sy),
            topRight: Point(best.quad.topRight.x * sx, best.quad.topRight.y * sy),
            bottomRight: Point(best.quad.bottomRight.x * sx, best.quad.bottomRight.y * sy),
            bottomLeft: Point(best.quad.bottomLeft.x * sx, best.quad.bottomLeft.y * sy))
        return PageDetection(quad: quad, confidence: best.confidence)
    }
}

/// A line `x·cos θ + y·sin θ = ρ` in working-copy coordinates (pixel centres at i + ½).
struct Line {
    let theta: Double
    let rho: Double
    var isBorder = false
    var votes: Double = 0
    let cosTheta: Double
    let sinTheta: Double

    init(theta: Double, rho: Double, isBorder: Bool = false, votes: Double = 0) {
        self.theta = theta
        self.rho = rho
        self.isBorder = isBorder
        self.votes = votes
        cosTheta = cos(theta)
        sinTheta = sin(theta)
    }

    var normal: Point { Point(cosTheta, sinTheta) }

    func intersection(_ other: Line) -> Point? {
        let a = cosTheta, b = sinTheta, c = other.cosTheta, d = other.sinTheta
        let det = a * d - b * c
        guard abs(det) > 1e-6 else { return nil }
        return Point((rho * d - b * other.rho) / det, (a * other.rho - rho * c) / det)
    }
}

struct ScoredQuad {
    var quad: Quad
    var confidence: Double
    var isFrame: Bool
}

/// Smoothed colour gradients of the working copy.
struct GradientField {
    let width: Int
    let height: Int
    /// Gradient components of the channel with the strongest gradient at each pixel.
    var gx: [Float]
    var gy: [Float]
    var magnitude: [Float]
    /// Smoothed brightness (mean of the channels).
    var luma: [Float]
    /// Magnitude above which a pixel counts as an edge.
    var threshold: Float = 0

    init(_ image: PixelBuffer) {
        width = image.width
        height = image.height
        let n = width * height
        let channels = image.format.channels
        gx = [Float](repeating: 0, count: n)
        gy = [Float](repeating: 0, count: n)
        magnitude = [Float](repeating: 0, count: n)
        luma = [Float](repeating: 0, count: n)
        for ch in 0..<channels {
            var plane = [Float](unsafeUninitializedCapacity: n) { out, initialized in
                image.pixels.withUnsafeBufferPointer { src in
                    for i in 0..<n { out[i] = Float(src[i * channels + ch]) }
                }
                initialized = n
            }
            plane = Self.blur(plane, width, height)
            let share = Float(channels)
            plane.withUnsafeBufferPointer { smooth in
                luma.withUnsafeMutableBufferPointer { luma in
                    for i in 0..<n { luma[i] += smooth[i] / share }
                }
            }
            accumulateSobel(plane)
        }
        threshold = edgeThreshold()
    }

    /// Separable [1 4 6 4 1] / 16 smoothing with replicated borders. Each output is summed tap
    /// by tap from the left (top), in the same order at the borders and inside, so the interior
    /// loops can run without clamping and vectorise with the same results.
    static func blur(_ p: [Float], _ w: Int, _ h: Int) -> [Float] {
        var tmp = [Float](repeating: 0, count: p.count)
        var out = [Float](repeating: 0, count: p.count)
        p.withUnsafeBufferPointer { src in
            tmp.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let s = src.baseAddress! + y * w, d = dst.baseAddress! + y * w
                    func clamped(_ x: Int) -> Float {
                        var t: Float = 0
                        t += 1 * s[min(max(x - 2, 0), w - 1)]
                        t += 4 * s[min(max(x - 1, 0), w - 1)]
                        t += 6 * s[min(max(x, 0), w - 1)]
                        t += 4 * s[min(max(x + 1, 0), w - 1)]
                        t += 1 * s[min(max(x + 2, 0), w - 1)]
                        return t / 16
                    }
                    if w < 5 {
                        for x in 0..<w { d[x] = clamped(x) }
                        continue
                    }
                    d[0] = clamped(0)
                    d[1] = clamped(1)
                    for x in 2..<(w - 2) {
                        var t: Float = 0
                        t += 1 * s[x - 2]
                        t += 4 * s[x - 1]
                        t += 6 * s[x]
                        t += 4 * s[x + 1]
                        t += 1 * s[x + 2]
                        d[x] = t / 16
                    }
                    d[w - 2] = clamped(w - 2)
                    d[w - 1] = clamped(w - 1)
                }
            }
        }
        tmp.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let rows = (-2...2).map { src.baseAddress! + min(max(y + $0, 0), h - 1) * w }
                    let r0 = rows[0], r1 = rows[1], r2 = rows[2], r3 = rows[3], r4 = rows[4]
                    let d = dst.baseAddress! + y * w
                    for x in 0..<w {
                        var t: Float = 0
                        t += 1 * r0[x]
                        t += 4 * r1[x]
                        t += 6 * r2[x]
                        t += 4 * r3[x]
                        t += 1 * r4[x]
                        d[x] = t / 16
                    }
                }
            }
        }
        return out
    }

    /// Sobel on one channel; keeps it where it is stronger than the channels before.
    mutating func accumulateSobel(_ p: [Float]) {
        let w = width, h = height
        guard w > 2, h > 2 else { return }
        p.withUnsafeBufferPointer { src in
            magnitude.withUnsafeMutableBufferPointer { mag in
                gx.withUnsafeMutableBufferPointer { gxs in
                    gy.withUnsafeMutableBufferPointer { gys in
                        for y in 1..<(h - 1) {
                            let up = src.baseAddress! + (y - 1) * w, mid = up + w, down = mid + w
                            let m = mag.baseAddress! + y * w, ox = gxs.baseAddress! + y * w, oy = gys.baseAddress! + y * w
                            for x in 1..<(w - 1) {
                                let dx = (up[x + 1] + 2 * mid[x + 1] + down[x + 1]) - (up[x - 1] + 2 * mid[x - 1] + down[x - 1])
                                let dy = (down[x - 1] + 2 * down[x] + down[x + 1]) - (up[x - 1] + 2 * up[x] + up[x + 1])
                                let value = (dx * dx + dy * dy).squareRoot() / 8
                                let stronger = value > m[x]
                                m[x] = stronger ? value : m[x]
                                ox[x] = stronger ? dx : ox[x]
                                oy[x] = stronger ? dy : oy[x]
                            }
                        }
                    }
                }
            }
        }
    }

    /// The 85th percentile of gradient magnitude, but never below a floor that noise reaches.
    func edgeThreshold() -> Float {
        var histogram = [Int](repeating: 0, count: 256)
        for m in magnitude { histogram[min(Int(m), 255)] += 1 }
        let target = Int(Double(magnitude.count) * 0.85)
        var seen = 0
        // Text and clutter dominate the strong gradients; a pale page on a pale desk has a
        // faint edge, so the threshold never climbs above a moderate contrast.
        for (value, count) in histogram.enumerated() {
            seen += count
            if seen >= target { return min(max(Float(value), 3), 8) }
        }
        return 3
    }

    // MARK: Hough transform

    static let thetaBins = 180

    func houghLines(maxLines: Int) -> [Line] {
        let diag = Int((Double(width * width + height * height)).squareRoot()) + 2
        let rhoBins = 2 * diag + 1
        var accumulator = [Float](repeating: 0, count: Self.thetaBins * rhoBins)
        let cosTable = (0..<Self.thetaBins).map { Float(cos(Double($0) * .pi / Double(Self.thetaBins))) }
        let sinTable = (0..<Self.thetaBins).map { Float(sin(Double($0) * .pi / Double(Self.thetaBins))) }
        let spread = 3
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let i = y * width + x
                let m = magnitude[i]
                guard m >= threshold else { continue }
                var angle = atan2(Double(gy[i]), Double(gx[i]))
                if angle < 0 { angle += .pi }
                let center = Int((angle / .pi * Double(Self.thetaBins)).rounded()) % Self.thetaBins
                let weight = min(m, 4 * threshold)
                let px = Float(x) + 0.5, py = Float(y) + 0.5
                for d in -spread...spread {
                    var t = center + d
                    if t < 0 { t += Self.thetaBins } else if t >= Self.thetaBins { t -= Self.thetaBins }
                    let rho = px * cosTable[t] + py * sinTable[t]
                    let r = Int(rho.rounded()) + diag
                    accumulator[t * rhoBins + r] += weight
                }
            }
        }
        // Peaks, strongest first (ties in accumulator order), with non-maximum suppression in
        // (θ, ρ). The search rarely reads past the strongest few thousand cells, so they come
        // from a heap, the cells above a sixth of the peak first, rather than a sort of every
        // cell; the order is the same. Each line taken marks the cells `similar` to it, so a
        // candidate is dropped by one lookup instead of a comparison with every line so far.
        var lines: [Line] = []
        let minDistance = Double(max(width, height)) * 0.02 + 3
        var suppressed = [Bool](repeating: false, count: accumulator.count)
        func theta(_ t: Int) -> Double { Double(t) * .pi / Double(Self.thetaBins) }
        let peak = accumulator.max() ?? 0
        for (v, i) in StrongestCells(accumulator, floor: peak / 6) {
            guard lines.count < maxLines else { break }
            if suppressed[i] { continue }
            let line = Line(theta: theta(i / rhoBins), rho: Double(i % rhoBins - diag), votes: Double(v))
            lines.append(line)
            // `similar` needs the angles within 5° (one bin more to spare for rounding, across
            // the wrap at 180°) and ρ or −ρ within the distance.
            let t0 = i / rhoBins, reach = 5 * Self.thetaBins / 180 + 1
            for dt in -reach...reach {
                let t = (t0 + dt + Self.thetaBins) % Self.thetaBins
                for centre in [line.rho, -line.rho] {
                    let low = max(0, Int((centre - minDistance).rounded(.down)) - 1 + diag)
                    let high = min(rhoBins - 1, Int((centre + minDistance).rounded(.up)) + 1 + diag)
                    guard low <= high else { continue }
                    for r in low...high where Self.similar(line.theta, line.rho, theta(t), Double(r - diag), minDistance) {
                        suppressed[t * rhoBins + r] = true
                    }
                }
            }
        }
        return lines
    }

    /// Lines (θ, ρ) within 5° and `distance` pixels of each other (θ wraps at 180° with ρ
    /// negated).
    static func similar(_ thetaA: Double, _ rhoA: Double, _ thetaB: Double, _ rhoB: Double, _ distance: Double) -> Bool {
        var dt = abs(thetaA - thetaB)
        var rb = rhoB
        if dt > .pi / 2 { dt = .pi - dt; rb = -rb }
        return dt < 5 * .pi / 180 && abs(rhoA - rb) < distance
    }

    // MARK: Quad search

    /// Text lines and clutter make many strong lines; the page's own edges must still be among
    /// the candidates.
    static let candidatesPerOrientation = 18

    func bestQuad(minimumAreaFraction: Double) -> ScoredQuad? {
        let lines = houghLines(maxLines: 64)
        let w = Double(width), h = Double(height)
        var horizontal = lines.filter { abs($0.theta - .pi / 2) < .pi / 4 }
        var vertical = lines.filter { abs($0.theta - .pi / 2) >= .pi / 4 }
        horizontal = Array(horizontal.prefix(Self.candidatesPerOrientation))
        vertical = Array(vertical.prefix(Self.candidatesPerOrientation))
        horizontal.append(Line(theta: .pi / 2, rho: 0.5, isBorder: true))
        horizontal.append(Line(theta: .pi / 2, rho: h - 0.5, isBorder: true))
        vertical.append(Line(theta: 0, rho: 0.5, isBorder: true))
        vertical.append(Line(theta: 0, rho: w - 0.5, isBorder: true))

        let imageArea = w * h
        let nh = horizontal.count, nv = vertical.count
        // Everything that depends on one line or one pair is computed once: the corners (each
        // horizontal cut by each vertical) and where each line crosses the middle, for order.
        var corners = [Point?](repeating: nil, count: nh * nv)
        for a in 0..<nh { for c in 0..<nv { corners[a * nv + c] = horizontal[a].intersection(vertical[c]) } }
        let midX = w / 2, midY = h / 2
        let yMid = horizontal.map { ($0.rho - midX * $0.cosTheta) / max($0.sinTheta, 1e-6) }
        let xMid = vertical.map { ($0.rho - midY * $0.sinTheta) / (abs($0.cosTheta) > 1e-6 ? $0.cosTheta : 1e-6) }
        // A side is one line cut by two of the other orientation, run one way or the other;
        // many quads share it, so its support is cached (NaN: not yet computed).
        var horizontalSides = [Double](repeating: .nan, count: nh * nv * nv * 2)
        var verticalSides = [Double](repeating: .nan, count: nv * nh * nh * 2)
        func side(_ line: Line, _ from: Point, _ to: Point, _ cache: inout [Double], _ key: Int) -> Double {
            if line.isBorder { return Self.borderSupport }
            let cached = cache[key]
            if !cached.isNaN { return cached }
            // A page edge is a step: the paper a few pixels inside is brighter than what lies a
            // few pixels outside. A ruled line or a table border is dark on white on both sides
            // and gets no support, however straight it is.
            let value = stepContrast(from, to, paper: false).mean >= Self.minimumStep ? support(from, to, polarity: 1) : 0
            cache[key] = value
            return value
        }

        let perimeter = 2 * (w + h)
        var ranked: [Candidate] = []
        for a in 0..<nh {
            for b in (a + 1)..<nh {
                let (top, bottom) = yMid[a] < yMid[b] ? (a, b) : (b, a)
                for c in 0..<nv {
                    for d in (c + 1)..<nv {
                        let (left, right) = xMid[c] < xMid[d] ? (c, d) : (d, c)
                        guard let tl = corners[top * nv + left], let tr = corners[top * nv + right],
                              let br = corners[bottom * nv + right], let bl = corners[bottom * nv + left] else { continue }
                        let quad = Quad(topLeft: tl, topRight: tr, bottomRight: br, bottomLeft: bl)
                        let area = quad.area / imageArea
                        guard area >= minimumAreaFraction, area <= 1.02, quad.isConvex, inBounds(quad) else { continue }
                        // A quad leaning on more than one side of the frame would crop the
                        // image with little evidence; the whole frame means "flat scan".
                        let borders = (horizontal[a].isBorder ? 1 : 0) + (horizontal[b].isBorder ? 1 : 0)
                            + (vertical[c].isBorder ? 1 : 0) + (vertical[d].isBorder ? 1 : 0)
                        guard borders <= 1 || borders == 4 else { continue }
                        // Sides run clockwise (top, right, bottom, left), so "inside" is on the
                        // normal's side; bottom and left run against their cache key's order.
                        let lengths = SIMD4(tl.distance(to: tr), tr.distance(to: br), br.distance(to: bl), bl.distance(to: tl))
                        // A side adds at most its length to the score and an unbacked one takes it
                        // away, so once the ranking is full, a quad that cannot beat its last entry
                        // even with its remaining sides fully backed is dropped before they are
                        // measured. The ranking is the same as measuring every side.
                        let bar = ranked.count == Self.rankedCandidates ? ranked[ranked.count - 1].score * perimeter - 1e-9 : -Double.infinity
                        var bound = lengths[0] + lengths[1] + lengths[2] + lengths[3]
                        guard bound > bar else { continue }
                        var supports = SIMD4<Double>(repeating: 0)
                        var beaten = false
                        for k in 0..<4 {
                            supports[k] = switch k {
                            case 0: side(horizontal[top], tl, tr, &horizontalSides, ((top * nv + c) * nv + d) * 2)
                            case 1: side(vertical[right], tr, br, &verticalSides, ((right * nh + a) * nh + b) * 2)
                            case 2: side(horizontal[bottom], br, bl, &horizontalSides, ((bottom * nv + c) * nv + d) * 2 + 1)
                            default: side(vertical[left], bl, tl, &verticalSides, ((left * nh + a) * nh + b) * 2 + 1)
                            }
                            bound -= 2 * (1 - supports[k]) * lengths[k]
                            if bound <= bar { beaten = true; break }
                        }
                        if beaten { continue }
                        let score = Self.score(supports: supports, lengths: lengths, perimeter: perimeter)
                        if ranked.count < Self.rankedCandidates || score > ranked[ranked.count - 1].score {
                            let entry = Candidate(score: score, quad: quad, sides: [horizontal[top], vertical[right], horizontal[bottom], vertical[left]])
                            let at = ranked.firstIndex { $0.score < score } ?? ranked.count
                            ranked.insert(entry, at: at)
                            if ranked.count > Self.rankedCandidates { ranked.removeLast() }
                        }
                    }
                }
            }
        }
        // The best-scored outline that also looks like paper wins; when none does, nothing is
        // cropped.
        for candidate in ranked {
            if let found = verified(candidate) { return found }
        }
        return nil
    }

    struct Candidate {
        var score: Double
        var quad: Quad
        var sides: [Line]
    }

    /// How many of the best-scored outlines are checked for paper before giving up.
    static let rankedCandidates = 6

    /// Edge-backed length of the outline less its unbacked length, over the image perimeter.
    /// Counting length, not each side's backed share, lets a whole page beat the half below a
    /// fold: the crease is a straight step backed end to end, but the page's own outline is
    /// longer. An unbacked stretch costs as much as a backed one gains, so a large outline
    /// drawn through clutter still loses, and so does one leaning on the frame where the page
    /// itself is in view.
    static func score(supports: SIMD4<Double>, lengths: SIMD4<Double>, perimeter: Double) -> Double {
        var balance = 0.0
        for i in 0..<4 { balance += (2 * supports[i] - 1) * lengths[i] }
        return balance / perimeter
    }

    /// Refines a candidate and applies the checks that are too costly for the search; nil
    /// when it fails them.
    func verified(_ candidate: Candidate) -> ScoredQuad? {
        let isFrame = candidate.sides.allSatisfy(\.isBorder)
        if isFrame { return ScoredQuad(quad: candidate.quad, confidence: 1, isFrame: true) }
        let refined = refine(candidate.quad, sides: candidate.sides, polarity: 1)
        let refinedSides = sidesOf(refined)
        // The winner's sides must each have paper inside and something darker than paper
        // outside; a region of a flat scan bounded by text or rules has the same paper on both.
        let paperless = refinedSides.enumerated().filter { i, side in
            !candidate.sides[i].isBorder && stepContrast(side.0, side.1).paper < Self.minimumPaperStep
        }
        // Leaning on the frame, a quad has less evidence, and every other side must pass.
        let leansOnFrame = candidate.sides.contains(where: \.isBorder)
        if paperless.count >= (leansOnFrame ? 1 : Self.maximumPaperlessSides) { return nil }
        // Most of a page is paper, brighter than what it lies on.
        let medians = interiorMedians(refined)
        if let medians, medians.inside - medians.outside < Self.minimumInteriorStep { return nil }
        // A small outline square to the frame is a box printed on a flat scan (a slide's title,
        // a table, a figure); a page photographed that square fills more of the frame.
        if Self.axisAlignedSides(candidate.quad, toleranceDegrees: Self.squareTolerance) >= 3,
           refined.area < Self.printedBoxAreaFraction * Double(width * height) { return nil }
        let supports = refinedSides.enumerated().map {
            candidate.sides[$0.offset].isBorder ? Self.borderSupport : support($0.element.0, $0.element.1, polarity: 1)
        }
        let confidence = supports.reduce(0, +) / 4 * 0.5 + (supports.min() ?? 0) * 0.5
        // Paper is what is brighter than halfway from the outside's brightness to the page's.
        let quad = medians.map { extendedCorners(refined, paperThreshold: ($0.inside + $0.outside) / 2) } ?? refined
        return ScoredQuad(quad: quad, confidence: min(1, confidence / 0.8), isFrame: false)
    }

    /// Degrees from the image axes within which a side counts as square to the frame.
    static let squareTolerance = 1.5
    /// Below this share of the frame, an outline square to it is taken for a printed box.
    static let printedBoxAreaFraction = 0.35

    /// How many of the quad's sides run within `toleranceDegrees` of the image axes.
    static func axisAlignedSides(_ q: Quad, toleranceDegrees: Double) -> Int {
        let c = q.corners
        return (0..<4).filter { i in
            let d = c[(i + 1) % 4] - c[i]
            let angle = abs(atan2(d.y, d.x)) * 180 / .pi  // 0…180
            let offAxis = min(angle.truncatingRemainder(dividingBy: 90), 90 - angle.truncatingRemainder(dividingBy: 90))
            return offAxis <= toleranceDegrees
        }.count
    }

    /// Grey levels by which the median inside a page must exceed the median outside it.
    static let minimumInteriorStep: Float = 3

    /// Median brightness inside the quad and outside it, on a sparse grid; nil when a page
    /// that fills the frame leaves too little outside to compare with.
    func interiorMedians(_ q: Quad) -> (inside: Float, outside: Float)? {
        var inside: [Float] = [], outside: [Float] = []
        inside.reserveCapacity(width * height / 9)
        outside.reserveCapacity(width * height / 9)
        for y in stride(from: 1, to: height, by: 3) {
            for x in stride(from: 1, to: width, by: 3) {
                let value = luma[y * width + x]
                if q.contains(Point(Double(x) + 0.5, Double(y) + 0.5)) { inside.append(value) } else { outside.append(value) }
            }
        }
        guard outside.count >= 50, let insideMedian = inside.selectKth(inside.count / 2),
              let outsideMedian = outside.selectKth(outside.count / 2) else { return nil }
        return (insideMedian, outsideMedian)
    }

    /// Corners may sit a little outside the frame (a page cut by the photo's edge).
    func inBounds(_ q: Quad) -> Bool {
        let mx = Double(width) * 0.08, my = Double(height) * 0.08
        let w = Double(width), h = Double(height)
        for i in 0..<4 {
            let c = q.corner(i)
            guard c.x >= -mx && c.x <= w + mx && c.y >= -my && c.y <= h + my else { return false }
        }
        return true
    }

    /// Sides in the order top, right, bottom, left, as point pairs.
    func sidesOf(_ q: Quad) -> [(Point, Point)] {
        [(q.topLeft, q.topRight), (q.topRight, q.bottomRight), (q.bottomRight, q.bottomLeft), (q.bottomLeft, q.topLeft)]
    }

    // Paper is brighter than what it lies on: every side must have brightness rising inwards.
    // The other polarity is what a block of text on a white page shows (dark inside, white
    // margin outside), and taking it would crop a flat scan to its text.

    /// Grey levels by which the inside of a side must be brighter than its outside.
    static let minimumStep: Float = 10

    /// Grey levels by which paper inside a side must be brighter than the brightest of what
    /// lies outside. Beside a column of text on a flat scan the outside is the same paper, and
    /// this is near 0; a desk, even a light one, stays below the paper's white.
    static let minimumPaperStep: Float = 6
    /// A page whose this many sides fail the paper step is taken for a region of a flat scan
    /// (one, when it leans on the frame).
    static let maximumPaperlessSides = 2

    /// Brightness 3–7 px inside a side against 3–7 px outside, over its middle 80 %: the
    /// difference of the means, and of the 90th percentiles (paper against the brightest of
    /// the outside).
    /// `paper: false` skips the percentiles (the search calls this for thousands of sides).
    func stepContrast(_ a: Point, _ b: Point, paper: Bool = true) -> (mean: Float, paper: Float) {
        let length = a.distance(to: b)
        guard length >= 4 else { return (0, 0) }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = -dy, ny = dx
        var inside: [Float] = [], outside: [Float] = []
        var insideSum: Float = 0, outsideSum: Float = 0, count: Float = 0
        if paper {
            inside.reserveCapacity(120)
            outside.reserveCapacity(120)
        }
        let samples = 24
        // The search's hottest loops (with `support`): read through buffers, every index
        // being checked against the frame just above.
        let width = self.width, height = self.height
        luma.withUnsafeBufferPointer { luma in
            for k in 0..<samples {
                let t = length * (0.1 + 0.8 * Double(k) / Double(samples - 1))
                let px = a.x + dx * t, py = a.y + dy * t
                for step in 3...7 {
                    let d = Double(step)
                    let xi = Int((px + nx * d).rounded(.down)), yi = Int((py + ny * d).rounded(.down))
                    let xo = Int((px - nx * d).rounded(.down)), yo = Int((py - ny * d).rounded(.down))
                    guard xi >= 0, yi >= 0, xi < width, yi < height, xo >= 0, yo >= 0, xo < width, yo < height else { continue }
                    let i = luma[yi * width + xi], o = luma[yo * width + xo]
                    insideSum += i
                    outsideSum += o
                    count += 1
                    if paper {
                        inside.append(i)
                        outside.append(o)
                    }
                }
            }
        }
        guard count > 0 else { return (0, 0) }
        let mean = (insideSum - outsideSum) / count
        guard paper else { return (mean, 0) }
        inside.sort()
        outside.sort()
        let p90 = min(inside.count - 1, inside.count * 9 / 10)
        return (mean, inside[p90] - outside[p90])
    }

    /// Across a side, where `support` looks for its edge: on it, then 1 and 2 px either side.
    static let supportOffsets: [Double] = [0, -1, 1, -2, 2]

    /// What a side along the image frame counts for: the frame is a weak edge.
    static let borderSupport = 0.45

    /// The share of a segment backed by an edge whose gradient points across the segment, with
    /// brightness rising inwards (`polarity` 1) or outwards (−1). Corners run clockwise, so the
    /// normal (−dy, dx) points into the quad.
    func support(_ a: Point, _ b: Point, polarity: Double) -> Double {
        let length = a.distance(to: b)
        guard length >= 2 else { return 0 }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = -dy, ny = dx
        let steps = Int(length)
        let width = self.width, height = self.height, threshold = self.threshold
        var hits = 0
        let offsets = Self.supportOffsets
        magnitude.withUnsafeBufferPointer { magnitude in
            gx.withUnsafeBufferPointer { gx in
                gy.withUnsafeBufferPointer { gy in
                    for s in 0..<steps {
                        let t = (Double(s) + 0.5)
                        let px = a.x + dx * t, py = a.y + dy * t
                        for o in offsets {
                            let x = Int((px + nx * o).rounded(.down)), y = Int((py + ny * o).rounded(.down))
                            guard x >= 1, y >= 1, x < width - 1, y < height - 1 else { continue }
                            let i = y * width + x
                            let m = magnitude[i]
                            guard m >= threshold else { continue }
                            let cosine = polarity * (Double(gx[i]) * nx + Double(gy[i]) * ny) / Double(m * 8)
                            if cosine > 0.85 { hits += 1; break }
                        }
                    }
                }
            }
        }
        // Parts outside the frame count as unsupported.
        return Double(hits) / Double(max(steps, 1))
    }

    /// Refits each non-border side to the edge pixels near it (weighted total least squares).
    func refine(_ q: Quad, sides: [Line], polarity: Double) -> Quad {
        var fitted: [Line] = []
        for (i, (a, b)) in sidesOf(q).enumerated() {
            guard !sides[i].isBorder, let line = fit(a, b, polarity: polarity) else {
                fitted.append(sides[i])
                continue
            }
            fitted.append(line)
        }
        guard let tl = fitted[0].intersection(fitted[3]), let tr = fitted[0].intersection(fitted[1]),
              let br = fitted[2].intersection(fitted[1]), let bl = fitted[2].intersection(fitted[3])
        else { return q }
        let refined = Quad(topLeft: tl, topRight: tr, bottomRight: br, bottomLeft: bl)
        // Keep the refinement only when it stays close to the Hough answer.
        let moved = zip(refined.corners, q.corners).map { $0.distance(to: $1) }.max() ?? 0
        return refined.isConvex && moved < Double(max(width, height)) * 0.03 ? refined : q
    }

    func fit(_ a: Point, _ b: Point, polarity: Double) -> Line? {
        let length = a.distance(to: b)
        guard length >= 8 else { return nil }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = -dy, ny = dx
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
        // Skip the ends, where the neighbouring side's edge lies.
        let start = Int(length * 0.08), end = Int(length * 0.92)
        guard end > start else { return nil }
        for s in start..<end {
            let px = a.x + dx * Double(s), py = a.y + dy * Double(s)
            // The strongest aligned edge pixel across the side within ±3 px.
            var bestM: Float = 0, bestPoint = Point(0, 0)
            for o in -3...3 {
                let x = Int((px + nx * Double(o)).rounded(.down)), y = Int((py + ny * Double(o)).rounded(.down))
                guard x >= 1, y >= 1, x < width - 1, y < height - 1 else { continue }
                let i = y * width + x
                let m = magnitude[i]
                guard m >= threshold, m > bestM else { continue }
                let cosine = polarity * (Double(gx[i]) * nx + Double(gy[i]) * ny) / Double(m * 8)
                guard cosine > 0.9 else { continue }
                bestM = m
                bestPoint = Point(Double(x) + 0.5, Double(y) + 0.5)
            }
            guard bestM > 0 else { continue }
            let weight = Double(bestM)
            sw += weight
            sx += weight * bestPoint.x
            sy += weight * bestPoint.y
            sxx += weight * bestPoint.x * bestPoint.x
            syy += weight * bestPoint.y * bestPoint.y
            sxy += weight * bestPoint.x * bestPoint.y
        }
        guard sw > 0 else { return nil }
        let mx = sx / sw, my = sy / sw
        let cxx = sxx / sw - mx * mx, cyy = syy / sw - my * my, cxy = sxy / sw - mx * my
        // The normal is the eigenvector of the smaller eigenvalue of the covariance.
        let angle = 0.5 * atan2(2 * cxy, cxx - cyy)  // direction of the line
        let theta = angle + .pi / 2
        let line = Line(theta: theta, rho: mx * cos(theta) + my * sin(theta))
        return line
    }
}
