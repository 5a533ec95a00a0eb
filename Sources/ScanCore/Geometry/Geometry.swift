/// A point in pixel coordinates: x to the right, y down, origin at the top-left corner of the
/// top-left pixel.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }

    public func distance(to other: Point) -> Double {
        let d = self - other
        return (d.x * d.x + d.y * d.y).squareRoot()
    }

    /// The z component of the cross product of two vectors.
    static func cross(_ a: Point, _ b: Point) -> Double { a.x * b.y - a.y * b.x }

    /// The dot product of two vectors.
    static func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }

    /// The vector scaled to length 1 (left as it is when it has none).
    var unit: Point {
        let length = (x * x + y * y).squareRoot()
        return length > 1e-9 ? self * (1 / length) : self
    }

    public var description: String { "(\(x), \(y))" }
}

/// A page outline: four corners in the order top-left, top-right, bottom-right, bottom-left.
public struct Quad: Sendable, Hashable, Codable, CustomStringConvertible {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// This quad with every x times `sx` and every y times `sy`: from one scale of an image to
    /// another.
    func scaled(_ sx: Double, _ sy: Double) -> Quad {
        Quad(topLeft: Point(topLeft.x * sx, topLeft.y * sy), topRight: Point(topRight.x * sx, topRight.y * sy),
             bottomRight: Point(bottomRight.x * sx, bottomRight.y * sy), bottomLeft: Point(bottomLeft.x * sx, bottomLeft.y * sy))
    }

    /// Corners in TL, TR, BR, BL order; throws unless there are exactly four.
    public init(_ corners: [Point]) throws(ScanCoreError) {
        guard corners.count == 4 else {
            throw ScanCoreError(.invalidQuad, "a quad needs 4 corners, got \(corners.count)")
        }
        self.init(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }

    /// The whole of a `width`×`height` image.
    public init(width: Int, height: Int) {
        let w = Double(width), h = Double(height)
        self.init(topLeft: Point(0, 0), topRight: Point(w, 0), bottomRight: Point(w, h), bottomLeft: Point(0, h))
    }

    /// Parses `x1,y1;x2,y2;x3,y3;x4,y4` (TL, TR, BR, BL), the form used on the command line and
    /// in the evaluation manifests.
    public init(parsing text: String) throws(ScanCoreError) {
        let pairs = text.split(separator: ";", omittingEmptySubsequences: false)
        var points: [Point] = []
        for pair in pairs {
            let parts = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2,
                  let x = Double(parts[0].trimmingSpaces), let y = Double(parts[1].trimmingSpaces),
                  x.isFinite, y.isFinite
            else {
                throw ScanCoreError(.invalidQuad, "'\(text)' is not a quad; write x1,y1;x2,y2;x3,y3;x4,y4 (TL;TR;BR;BL)")
            }
            points.append(Point(x, y))
        }
        guard points.count == 4 else {
            throw ScanCoreError(.invalidQuad, "'\(text)' has \(points.count) corners; write x1,y1;x2,y2;x3,y3;x4,y4 (TL;TR;BR;BL)")
        }
        try self.init(points)
    }

    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// Corner `i` of TL, TR, BR, BL, taken modulo 4. The per-pixel and per-candidate tests
    /// below read corners through this, not `corners`, so they allocate nothing.
    @inline(__always) func corner(_ i: Int) -> Point {
        switch i & 3 {
        case 0: topLeft
        case 1: topRight
        case 2: bottomRight
        default: bottomLeft
        }
    }

    /// Signed area by the shoelace formula: positive for clockwise corners in image coordinates
    /// (y down), which is the TL, TR, BR, BL order.
    public var signedArea: Double {
        var s = 0.0
        for i in 0..<4 { s += Point.cross(corner(i), corner(i + 1)) }
        return s / 2
    }

    public var area: Double { abs(signedArea) }

    /// Whether `p` lies inside the quad or on its outline (for a convex quad).
    public func contains(_ p: Point) -> Bool {
        let sign: Double = signedArea >= 0 ? 1 : -1
        for i in 0..<4 where !(sign * Point.cross(corner(i + 1) - corner(i), p - corner(i)) >= 0) { return false }
        return true
    }

    /// True when the corners turn the same way at every vertex and the quad has area.
    public var isConvex: Bool {
        var sign = 0.0
        for i in 0..<4 {
            let z = Point.cross(corner(i + 1) - corner(i), corner(i + 2) - corner(i + 1))
            guard abs(z) > 1e-9 else { return false }
            if sign == 0 { sign = z } else if (z > 0) != (sign > 0) { return false }
        }
        return true
    }

    /// Jaccard index (intersection over union) of two convex quads, as scored in SmartDoc 2015.
    public func intersectionOverUnion(_ other: Quad) -> Double {
        let inter = Polygon.intersectionArea(corners, other.corners)
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// `x1,y1;x2,y2;x3,y3;x4,y4`, rounded to hundredths.
    public var description: String {
        corners.map { "\(Self.format($0.x)),\(Self.format($0.y))" }.joined(separator: ";")
    }

    static func format(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        // Whole numbers without ".0", where an Int can hold them (corners from the command line
        // can be any finite number).
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }
}

enum Polygon {
    /// Area of the intersection of two convex polygons (Sutherland–Hodgman clipping).
    static func intersectionArea(_ subject: [Point], _ clip: [Point]) -> Double {
        let clipOriented = orientedCounterClockwise(clip)
        var output = orientedCounterClockwise(subject)
        for i in 0..<clipOriented.count {
            guard !output.isEmpty else { break }
            let a = clipOriented[i], b = clipOriented[(i + 1) % clipOriented.count]
            let input = output
            output = []
            func inside(_ p: Point) -> Bool { Point.cross(b - a, p - a) >= 0 }
            func intersect(_ p: Point, _ q: Point) -> Point {
                let d1 = Point.cross(b - a, p - a), d2 = Point.cross(b - a, q - a)
                let t = d1 / (d1 - d2)
                return p + (q - p) * t
            }
            for j in 0..<input.count {
                let p = input[j], q = input[(j + 1) % input.count]
                if inside(q) {
                    if !inside(p) { output.append(intersect(p, q)) }
                    output.append(q)
                } else if inside(p) {
                    output.append(intersect(p, q))
                }
            }
        }
        return abs(signedArea(output))
    }

    static func signedArea(_ p: [Point]) -> Double {
        guard p.count >= 3 else { return 0 }
        var s = 0.0
        for i in 0..<p.count { s += Point.cross(p[i], p[(i + 1) % p.count]) }
        return s / 2
    }

    /// Counter-clockwise in a y-up sense, which is what `inside` above assumes.
    static func orientedCounterClockwise(_ p: [Point]) -> [Point] {
        signedArea(p) >= 0 ? p : p.reversed()
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}

extension Array where Element == Float {
    /// The element that `sorted()[k]` would give, found by selection in linear expected time,
    /// or nil when `k` is not an index; the array is left partly reordered. No element may be
    /// NaN (the detector's are grey levels).
    mutating func selectKth(_ k: Int) -> Float? {
        guard indices.contains(k) else { return nil }
        return withUnsafeMutableBufferPointer { a in
            var low = 0, high = a.count - 1
            while low < high {
                // Median of three as the pivot keeps sorted and reversed runs linear.
                let mid = low + (high - low) / 2
                if a[mid] < a[low] { a.swapAt(mid, low) }
                if a[high] < a[low] { a.swapAt(high, low) }
                if a[high] < a[mid] { a.swapAt(high, mid) }
                let pivot = a[mid]
                var i = low, j = high
                while i <= j {
                    while a[i] < pivot { i += 1 }
                    while a[j] > pivot { j -= 1 }
                    if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
                }
                if k <= j { high = j } else if k >= i { low = i } else { return a[k] }
            }
            return a[k]
        }
    }
}
