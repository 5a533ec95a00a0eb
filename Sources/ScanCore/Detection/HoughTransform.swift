import Foundation
import HeapModule

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

    /// The angle between the two lines, 0–π/2.
    func angle(to other: Line) -> Double {
        let d = abs(theta - other.theta).truncatingRemainder(dividingBy: .pi)
        return min(d, .pi - d)
    }

    func intersection(_ other: Line) -> Point? {
        let a = cosTheta, b = sinTheta, c = other.cosTheta, d = other.sinTheta
        let det = a * d - b * c
        guard abs(det) > 1e-6 else { return nil }
        return Point((rho * d - b * other.rho) / det, (a * other.rho - rho * c) / det)
    }
}

extension GradientField {
    static let thetaBins = 180

    /// The view's lines, strongest first. Each edge pixel votes for the lines through it that
    /// run across its gradient, by its magnitude up to `voteCap` times the edge threshold; with
    /// `thin`, only pixels on the ridge of an edge (no weaker than both neighbours across it) vote.
    func houghLines(maxLines: Int, voteCap: Float = 4, thin: Bool = false) -> [Line] {
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
                if thin {
                    // The neighbours across the edge: the gradient's direction to the nearest
                    // of the four axes and diagonals (tan 67.5° ≈ 2.414).
                    let ax = abs(gx[i]), ay = abs(gy[i])
                    let (a, b): (Int, Int) = if ax > 2.414 * ay { (i - 1, i + 1) }
                        else if ay > 2.414 * ax { (i - width, i + width) }
                        else if (gx[i] > 0) == (gy[i] > 0) { (i - width - 1, i + width + 1) }
                        else { (i - width + 1, i + width - 1) }
                    guard m >= magnitude[a], m >= magnitude[b] else { continue }
                }
                var angle = atan2(Double(gy[i]), Double(gx[i]))
                if angle < 0 { angle += .pi }
                let center = Int((angle / .pi * Double(Self.thetaBins)).rounded()) % Self.thetaBins
                let weight = min(m, voteCap * threshold)
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

    /// `lines`, longest `longestRun` first (ties in their order).
    func byLongestRun(_ lines: [Line], minimum: Float) -> [Line] {
        let runs = lines.map { longestRun(along: $0, minimum: minimum) }
        return lines.indices.sorted { runs[$0] > runs[$1] || (runs[$0] == runs[$1] && $0 < $1) }.map { lines[$0] }
    }

    /// The stretch of t for which `line`'s point `normal * rho + (-sin θ, cos θ) * t` lies in
    /// the frame; nil where it misses it.
    func frameSpan(of line: Line) -> (low: Double, high: Double)? {
        let ox = line.cosTheta * line.rho, oy = line.sinTheta * line.rho
        var low = -Double.infinity, high = Double.infinity
        for (o, d, size) in [(ox, -line.sinTheta, Double(width)), (oy, line.cosTheta, Double(height))] {
            if abs(d) < 1e-9 {
                if o < 0 || o > size { return nil }
                continue
            }
            let a = (0 - o) / d, b = (size - o) / d
            low = max(low, min(a, b))
            high = min(high, max(a, b))
        }
        return high > low ? (low, high) : nil
    }

    /// The longest stretch of `line` in the frame along which an edge runs: pixels within a
    /// pixel of it whose gradient points across it, one way all along, at least `minimum`
    /// strong, with gaps of at most `gap` pixels.
    func longestRun(along line: Line, minimum: Float, gap: Int = 2) -> Int {
        let dx = -line.sinTheta, dy = line.cosTheta, nx = line.cosTheta, ny = line.sinTheta
        let ox = nx * line.rho, oy = ny * line.rho
        guard let (low, high) = frameSpan(of: line) else { return 0 }
        let cosine: Float = 0.94  // within 20° of the line's normal
        let fnx = Float(nx), fny = Float(ny)
        var best = 0, run = 0, missed = 0, runSign: Float = 0
        magnitude.withUnsafeBufferPointer { magnitude in
            gx.withUnsafeBufferPointer { gx in
                gy.withUnsafeBufferPointer { gy in
                    var t = low.rounded(.up)
                    while t <= high {
                        let px = ox + dx * t, py = oy + dy * t
                        var sign: Float = 0
                        // On the line, then a pixel either side of it.
                        for off in 0..<3 where sign == 0 {
                            let d = off == 0 ? 0 : (off == 1 ? -1.0 : 1.0)
                            let x = Int((px + nx * d).rounded(.down)), y = Int((py + ny * d).rounded(.down))
                            guard x >= 0, y >= 0, x < width, y < height else { continue }
                            let i = y * width + x, m = magnitude[i]
                            let across = (gx[i] * fnx + gy[i] * fny) / 8
                            if m >= minimum, abs(across) >= cosine * m { sign = across > 0 ? 1 : -1 }
                        }
                        if sign != 0 && (run == 0 || sign == runSign) {
                            run += 1 + missed
                            missed = 0
                            runSign = sign
                        } else if run > 0 && missed < gap {
                            missed += 1
                        } else {
                            run = sign != 0 ? 1 : 0
                            runSign = sign
                            missed = 0
                        }
                        best = max(best, run)
                        t += 1
                    }
                }
            }
        }
        return best
    }

    /// Lines (θ, ρ) within 5° and `distance` pixels of each other (θ wraps at 180° with ρ
    /// negated).
    static func similar(_ thetaA: Double, _ rhoA: Double, _ thetaB: Double, _ rhoB: Double, _ distance: Double) -> Bool {
        var dt = abs(thetaA - thetaB)
        var rb = rhoB
        if dt > .pi / 2 { dt = .pi - dt; rb = -rb }
        return dt < 5 * .pi / 180 && abs(rhoA - rb) < distance
    }
}

/// The positive cells of a vote array, strongest first and, among equal votes, lowest index
/// first: the order a full sort by (votes descending, index ascending) gives. The cells at or
/// above `floor` are heaped first and the weaker ones only if the reader gets through all of
/// those, so a search that stops after the first few hundred cells never orders the rest.
struct StrongestCells: Sequence, IteratorProtocol {
    /// Ordered so that the heap's maximum is the cell to read next.
    struct Cell: Comparable {
        let value: Float
        let index: Int32

        static func < (a: Cell, b: Cell) -> Bool {
            a.value < b.value || (a.value == b.value && a.index > b.index)
        }
    }

    private let votes: [Float]
    private var floor: Float
    private var heap: Heap<Cell>

    init(_ votes: [Float], floor: Float = 0) {
        self.votes = votes
        self.floor = floor
        heap = Self.cells(of: votes) { $0 >= floor && $0 > 0 }
    }

    private static func cells(of votes: [Float], where include: (Float) -> Bool) -> Heap<Cell> {
        var cells: [Cell] = []
        for (i, v) in votes.enumerated() where include(v) { cells.append(Cell(value: v, index: Int32(truncatingIfNeeded: i))) }
        return Heap(cells)
    }

    mutating func next() -> (value: Float, index: Int)? {
        if heap.isEmpty && floor > 0 {
            // Every cell above the floor has been read: the weaker ones follow, all below them.
            let below = floor
            floor = 0
            heap = Self.cells(of: votes) { $0 > 0 && $0 < below }
        }
        guard let top = heap.popMax() else { return nil }
        return (top.value, Int(top.index))
    }
}
