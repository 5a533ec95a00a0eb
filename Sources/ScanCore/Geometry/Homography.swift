/// A projective map of the plane, a 3×3 matrix acting on homogeneous points `(x, y, 1)`.
///
/// Linux has no `simd` module, so the rows are the standard library's `SIMD3<Double>`.
public struct Homography: Sendable, Hashable, Codable, CustomStringConvertible {
    public var r0: SIMD3<Double>
    public var r1: SIMD3<Double>
    public var r2: SIMD3<Double>

    public init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        self.r0 = r0
        self.r1 = r1
        self.r2 = r2
    }

    public static let identity = Homography(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// The homography taking each of four source points to the matching destination point.
    /// Throws when three of the points are collinear or the system is otherwise singular.
    public init(mapping source: [Point], to destination: [Point]) throws(ScanCoreError) {
        guard source.count == 4, destination.count == 4 else {
            throw ScanCoreError(.invalidQuad, "a homography needs 4 point pairs")
        }
        // Normalise both point sets (Hartley) so the 8×8 solve is well conditioned.
        let (ns, ts) = Self.normalizing(source)
        let (nd, td) = Self.normalizing(destination)
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y) = (ns[i].x, ns[i].y), (u, v) = (nd[i].x, nd[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        guard let h = Self.solve(&a) else {
            throw ScanCoreError(.degenerateQuad, "the corners are collinear or coincide; no perspective map exists")
        }
        let normalized = Homography(SIMD3(h[0], h[1], h[2]), SIMD3(h[3], h[4], h[5]), SIMD3(h[6], h[7], 1))
        let tdInverse = try td.inverted()
        self = (tdInverse * normalized * ts).normalized()
    }

    /// Maps a point; nil when it lands on the line at infinity.
    public func apply(_ p: Point) -> Point? {
        let v = SIMD3(p.x, p.y, 1)
        let w = (r2 * v).sum()
        guard abs(w) > 1e-12 else { return nil }
        return Point((r0 * v).sum() / w, (r1 * v).sum() / w)
    }

    public var determinant: Double {
        r0.x * (r1.y * r2.z - r1.z * r2.y) - r0.y * (r1.x * r2.z - r1.z * r2.x) + r0.z * (r1.x * r2.y - r1.y * r2.x)
    }

    /// The inverse map; throws when the matrix is singular.
    public func inverted() throws(ScanCoreError) -> Homography {
        let det = determinant
        let scale = [r0, r1, r2].map { Swift.max(abs($0.x), abs($0.y), abs($0.z)) }.max() ?? 0
        guard det.isFinite, abs(det) > 1e-12 * scale * scale * scale else {
            throw ScanCoreError(.singularMatrix, "the perspective map is singular and cannot be inverted")
        }
        let c0 = SIMD3(r1.y * r2.z - r1.z * r2.y, r0.z * r2.y - r0.y * r2.z, r0.y * r1.z - r0.z * r1.y)
        let c1 = SIMD3(r1.z * r2.x - r1.x * r2.z, r0.x * r2.z - r0.z * r2.x, r0.z * r1.x - r0.x * r1.z)
        let c2 = SIMD3(r1.x * r2.y - r1.y * r2.x, r0.y * r2.x - r0.x * r2.y, r0.x * r1.y - r0.y * r1.x)
        return Homography(c0 / det, c1 / det, c2 / det).normalized()
    }

    /// Matrix product: `(a * b).apply(p) == a.apply(b.apply(p))`.
    public static func * (a: Homography, b: Homography) -> Homography {
        let bc0 = SIMD3(b.r0.x, b.r1.x, b.r2.x), bc1 = SIMD3(b.r0.y, b.r1.y, b.r2.y), bc2 = SIMD3(b.r0.z, b.r1.z, b.r2.z)
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3((r * bc0).sum(), (r * bc1).sum(), (r * bc2).sum()) }
        return Homography(row(a.r0), row(a.r1), row(a.r2))
    }

    /// Scaled so the bottom-right entry is 1 when that is possible.
    func normalized() -> Homography {
        guard abs(r2.z) > 1e-12 else { return self }
        return Homography(r0 / r2.z, r1 / r2.z, r2 / r2.z)
    }

    public var elements: [Double] { [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z] }

    public var description: String { "[" + elements.map { String($0) }.joined(separator: ", ") + "]" }

    public static func == (a: Homography, b: Homography) -> Bool { a.r0 == b.r0 && a.r1 == b.r1 && a.r2 == b.r2 }
    public func hash(into h: inout Hasher) { for e in elements { h.combine(e) } }

    enum CodingKeys: CodingKey { case matrix }
    public init(from decoder: any Decoder) throws {
        let m = try decoder.container(keyedBy: CodingKeys.self).decode([Double].self, forKey: .matrix)
        guard m.count == 9 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a homography has 9 entries"))
        }
        self.init(SIMD3(m[0], m[1], m[2]), SIMD3(m[3], m[4], m[5]), SIMD3(m[6], m[7], m[8]))
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(elements, forKey: .matrix)
    }

    /// Translate to the centroid and scale to mean distance √2.
    private static func normalizing(_ p: [Point]) -> ([Point], Homography) {
        let cx = p.map(\.x).reduce(0, +) / Double(p.count), cy = p.map(\.y).reduce(0, +) / Double(p.count)
        let meanDist = p.map { Point($0.x - cx, $0.y - cy).distance(to: Point(0, 0)) }.reduce(0, +) / Double(p.count)
        let s = meanDist > 1e-12 ? 2.0.squareRoot() / meanDist : 1
        let t = Homography(SIMD3(s, 0, -s * cx), SIMD3(0, s, -s * cy), SIMD3(0, 0, 1))
        return (p.map { Point(($0.x - cx) * s, ($0.y - cy) * s) }, t)
    }

    /// Gaussian elimination with partial pivoting on an n×(n+1) augmented matrix.
    private static func solve(_ a: inout [[Double]]) -> [Double]? {
        let n = a.count
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<n where abs(a[r][col]) > abs(a[pivot][col]) { pivot = r }
            guard abs(a[pivot][col]) > 1e-10 else { return nil }
            a.swapAt(col, pivot)
            for r in 0..<n where r != col {
                let f = a[r][col] / a[col][col]
                if f != 0 { for k in col...n { a[r][k] -= f * a[col][k] } }
            }
        }
        let x = (0..<n).map { a[$0][n] / a[$0][$0] }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
