import Testing
@testable import ScanCore

@Suite struct QuadTests {
    @Test("parses the command-line quad form")
    func parse() throws {
        let q = try Quad(parsing: "10,12;900,30;880,1200.5;5,1180")
        #expect(q.topLeft == Point(10, 12))
        #expect(q.bottomRight == Point(880, 1200.5))
        #expect(q.description == "10,12;900,30;880,1200.5;5,1180")
    }

    @Test("corners past Int's range print without trapping (found by FuzzQuadParsing)")
    func hugeCorners() throws {
        let q = try Quad(parsing: "54,5;4500000000000000000000000000000000054,0000005;54,5;4,0")
        #expect(q.description == "54,5;4.5e+36,5;54,5;4,0")
        #expect(try Quad(parsing: "-1e300,0;1,0;1,1;0,1").description == "-1e+300,0;1,0;1,1;0,1")
    }

    @Test("rejects malformed quads", arguments: ["", "1,2;3,4;5,6", "a,b;1,2;3,4;5,6", "1,2;3,4;5,6;7", "1,2;3,4;5,6;7,8;9,10"])
    func rejects(_ text: String) {
        #expect(throws: ScanCoreError.self) { try Quad(parsing: text) }
    }

    @Test("IoU of identical, disjoint and half-overlapping squares")
    func iou() {
        let a = Quad(width: 10, height: 10)
        #expect(abs(a.intersectionOverUnion(a) - 1) < 1e-12)
        let far = Quad(topLeft: Point(20, 0), topRight: Point(30, 0), bottomRight: Point(30, 10), bottomLeft: Point(20, 10))
        #expect(a.intersectionOverUnion(far) == 0)
        let half = Quad(topLeft: Point(5, 0), topRight: Point(15, 0), bottomRight: Point(15, 10), bottomLeft: Point(5, 10))
        #expect(abs(a.intersectionOverUnion(half) - 50.0 / 150.0) < 1e-9)
    }

    @Test("contains points inside and on the outline, in either winding")
    func contains() {
        let q = Quad(topLeft: Point(10, 10), topRight: Point(110, 20), bottomRight: Point(100, 90), bottomLeft: Point(0, 80))
        let reversed = Quad(topLeft: q.topLeft, topRight: q.bottomLeft, bottomRight: q.bottomRight, bottomLeft: q.topRight)
        for quad in [q, reversed] {
            #expect(quad.contains(Point(50, 50)))
            #expect(quad.contains(Point(10, 10)))
            #expect(!quad.contains(Point(5, 5)))
            #expect(!quad.contains(Point(105, 85)))
        }
    }

    @Test("convexity and orientation")
    func convexity() {
        #expect(Quad(width: 4, height: 3).isConvex)
        #expect(Quad(width: 4, height: 3).signedArea > 0)
        let bowtie = Quad(topLeft: Point(0, 0), topRight: Point(10, 10), bottomRight: Point(10, 0), bottomLeft: Point(0, 10))
        #expect(!bowtie.isConvex)
    }
}

@Suite struct HomographyTests {
    static let quads: [Quad] = [
        Quad(topLeft: Point(100, 80), topRight: Point(900, 120), bottomRight: Point(980, 1300), bottomLeft: Point(40, 1250)),
        Quad(topLeft: Point(0.5, 0.5), topRight: Point(3000, 10), bottomRight: Point(2900, 4000), bottomLeft: Point(20, 3900)),
        Quad(topLeft: Point(300, 50), topRight: Point(500, 60), bottomRight: Point(700, 400), bottomLeft: Point(100, 390)),
    ]

    @Test("maps the four corners exactly and round-trips through its inverse", arguments: quads)
    func roundTrip(_ quad: Quad) throws {
        let target = Quad(width: 850, height: 1100)
        let h = try Homography(mapping: quad.corners, to: target.corners)
        for (s, d) in zip(quad.corners, target.corners) {
            let p = try #require(h.apply(s))
            #expect(p.distance(to: d) < 1e-6)
        }
        let inverse = try h.inverted()
        for x in stride(from: 0.0, through: 850, by: 85) {
            for y in stride(from: 0.0, through: 1100, by: 110) {
                let there = try #require(inverse.apply(Point(x, y)))
                let back = try #require(h.apply(there))
                #expect(back.distance(to: Point(x, y)) < 1e-6)
            }
        }
        // The product is the identity up to scale.
        let product = h * inverse
        let identity = product.elements.map { $0 / product.r2.z }
        for (a, b) in zip(identity, Homography.identity.elements) { #expect(abs(a - b) < 1e-9) }
    }

    @Test("collinear corners have no homography")
    func collinear() {
        let line = [Point(0, 0), Point(1, 1), Point(2, 2), Point(3, 3)]
        #expect(throws: ScanCoreError.self) { try Homography(mapping: line, to: Quad(width: 10, height: 10).corners) }
    }

    @Test("a singular matrix cannot be inverted")
    func singular() {
        let h = Homography(SIMD3(1, 2, 3), SIMD3(2, 4, 6), SIMD3(0, 0, 1))
        #expect(throws: ScanCoreError.self) { try h.inverted() }
    }
}

@Suite struct SelectionTests {
    @Test("selectKth gives the k-th smallest, as sorting would, with ties, runs and one element")
    func matchesSorting() {
        var generator = SystemRandomNumberGenerator()
        var arrays: [[Float]] = [[7], (0..<50).map(Float.init), (0..<50).reversed().map(Float.init), [Float](repeating: 3, count: 9)]
        for n in [2, 3, 10, 101, 1000] {
            arrays.append((0..<n).map { _ in Float(Int.random(in: 0..<(n / 3 + 2), using: &generator)) })
            arrays.append((0..<n).map { _ in Float.random(in: -1...1, using: &generator) })
        }
        for values in arrays {
            let sorted = values.sorted()
            for k in Set([0, values.count / 2, values.count - 1, values.count / 10]) {
                var copy = values
                #expect(copy.selectKth(k) == sorted[k], "k = \(k) of \(values.count)")
            }
        }
    }

    @Test("StrongestCells yields the positive cells as a sort by votes, then index, orders them, whatever the floor")
    func strongestCellsMatchSorting() {
        var generator = SystemRandomNumberGenerator()
        var arrays: [[Float]] = [[], [0, 0], [5], [Float](repeating: 2, count: 40), (0..<64).map(Float.init)]
        for n in [3, 17, 500, 5000] {
            // Few distinct values, so ties are common; zeros are never yielded.
            arrays.append((0..<n).map { _ in Float(Int.random(in: 0..<(n / 10 + 3), using: &generator)) })
            arrays.append((0..<n).map { _ in Float.random(in: 0...1, using: &generator) })
        }
        for votes in arrays {
            let expected = votes.enumerated().filter { $0.element > 0 }
                .sorted { $0.element > $1.element || ($0.element == $1.element && $0.offset < $1.offset) }
                .map(\.offset)
            let peak = votes.max() ?? 0
            // Any floor gives the same order: the weaker cells follow once the others are read.
            for floor in [0, peak / 6, peak / 2, peak, peak * 2] {
                #expect(StrongestCells(votes, floor: floor).map(\.index) == expected, "\(votes.count) cells, floor \(floor)")
            }
        }
    }
}
