import Foundation
import ScanCore

/// Makes synthetic "phone photos" with exact ground-truth corners, for tests: a page image is
/// projected into a photo at given corners over a chosen background, then lit unevenly and given
/// sensor noise.
public enum SyntheticPhoto {
    public enum Background: String, Sendable, CaseIterable {
        /// Dark wood-like desk.
        case dark
        /// Light grey desk under a white page: low contrast.
        case light
        /// Coarse random texture.
        case textured
        /// Objects and text-like marks on the desk, one of them over a page corner.
        case cluttered
        /// An off-white desk barely darker than the page, with a pen and a cable lying across
        /// the page's edges (over its margins, not its text).
        case pale
        /// A pale grey table top, larger than the page, on a dark floor: two nested bright
        /// outlines, of which the inner one is the page.
        case table
        /// A grey desk whose right part, past a vertical line across the page, is a window
        /// seen behind it: saturated, brighter than the paper, and not dimmed by the room's light.
        case window
        /// Window blinds: light slats 20 px apart, each lit on its upper face and falling off
        /// below it, with a dark gap between: strong parallel edges, slats nearly as light as paper.
        case blinds
        /// A noticeboard: a painted wall with saturated blocks and pale cards printed with rows
        /// of word-like bars, one card just past the page's left side.
        case poster
        /// A cream desk exactly as bright as the paper: the page steps from it only in colour,
        /// the desk lacking some blue. A dark wall shows past its far edge, along the top.
        case cream
        /// The cream desk filling the whole frame, no wall past it: the best outline in grey is
        /// the frame, as a flat scan's is.
        case creamAllRound
        /// A pale blue wall as bright as the paper, and as bright in its least channel: the page
        /// steps from it only in chroma, as a page held up before a tinted wall does. A dark
        /// floor shows along the bottom.
        case blueWall
    }

    /// A deterministic pseudo-random generator (SplitMix64).
    public struct Random {
        var state: UInt64
        public init(seed: UInt64) { state = seed }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        public mutating func range(_ r: ClosedRange<Double>) -> Double { r.lowerBound + unit() * (r.upperBound - r.lowerBound) }
    }

    /// A white page with rows of dark, word-like bars: text without a font.
    public static func textLikePage(width: Int, height: Int, seed: UInt64 = 1) -> PixelBuffer {
        var page = PixelBuffer(width: width, height: height, format: .gray, fill: 248)
        var rng = Random(seed: seed)
        let margin = width / 10, lineHeight = max(height / 40, 4)
        var y = margin
        while y + lineHeight < height - margin {
            var x = margin
            while x < width - margin {
                let wordWidth = Int(rng.range(Double(lineHeight)...Double(lineHeight * 5)))
                let end = min(x + wordWidth, width - margin)
                for yy in y..<(y + lineHeight * 2 / 3) { for xx in x..<end { page.pixels[yy * width + xx] = 30 } }
                x = end + lineHeight
            }
            y += lineHeight * 2
        }
        return page
    }

    /// Projects `page`, grey or colour, into a `width`×`height` photo with its corners at `corners`.
    public static func make(
        page: PixelBuffer, corners: Quad, width: Int, height: Int, background: Background, seed: UInt64 = 7,
        shading: Double = 0.3, noise: Double = 6
    ) throws -> PixelBuffer {
        let pageGrey = page.grayscale()
        let pageChannels = page.format == .rgb ? try (0..<3).map { c in
            try PixelBuffer(width: page.width, height: page.height, format: .gray, pixels: (0..<page.pixelCount).map { page.pixels[3 * $0 + c] })
        } : nil
        let toPage = try Homography(mapping: corners.corners, to: Quad(width: page.width, height: page.height).corners)
        var rng = Random(seed: seed)
        var out = [UInt8](repeating: 0, count: width * height * 3)
        // Clutter: a few dark and coloured rectangles, the first over the top-right corner.
        var objects: [(x0: Int, y0: Int, x1: Int, y1: Int, colour: (Double, Double, Double))] = []
        if background == .cluttered {
            let tr = corners.topRight
            objects.append((Int(tr.x) - width / 12, Int(tr.y) - height / 12, Int(tr.x) + width / 14, Int(tr.y) + height / 20, (40, 40, 45)))
            for _ in 0..<6 {
                let x0 = Int(rng.range(0...Double(width))), y0 = Int(rng.range(0...Double(height)))
                objects.append((x0, y0, x0 + Int(rng.range(10...Double(width / 6))), y0 + Int(rng.range(4...Double(height / 8))),
                                (rng.range(0...255), rng.range(0...255), rng.range(0...255))))
            }
        }
        let textureSeed = rng.next()
        // Pen and cable: segments from the desk across the bottom and left edges, ending 15 px
        // into the page's margin.
        var strokes: [(a: Point, b: Point, radius: Double, value: Double)] = []
        if background == .pale {
            let centre = (corners.topLeft + corners.topRight + corners.bottomRight + corners.bottomLeft) * 0.25
            for (from, to, at, radius, value) in [(corners.bottomLeft, corners.bottomRight, 0.35, 3.5, 35.0),
                                                  (corners.topLeft, corners.bottomLeft, 0.6, 2.0, 20.0)] {
                let edge = from + (to - from) * at
                let inward = (centre - edge) * (1 / centre.distance(to: edge))
                let along = (to - from) * (1 / to.distance(to: from))
                strokes.append((edge + inward * -70 + along * 30, edge + inward * 15, radius, value))
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                var r: Double, g: Double, b: Double
                var emitsLight = false
                let p = toPage.apply(Point(Double(x) + 0.5, Double(y) + 0.5)) ?? Point(-1, -1)
                if p.x >= 0, p.y >= 0, p.x < Double(page.width), p.y < Double(page.height) {
                    if let channels = pageChannels {
                        // A colour page keeps its colours, tinted as white paper is.
                        (r, g, b) = (Self.sample(channels[0], p.x - 0.5, p.y - 0.5), Self.sample(channels[1], p.x - 0.5, p.y - 0.5) * 0.99,
                                     Self.sample(channels[2], p.x - 0.5, p.y - 0.5) * 0.96)
                    } else {
                        let v = Self.sample(pageGrey, p.x - 0.5, p.y - 0.5)
                        (r, g, b) = (v, v * 0.99, v * 0.96)
                    }
                } else {
                    switch background {
                    case .dark:
                        let phase: Double = Double(y) * 0.05 + sin(Double(x) * 0.01) * 3
                        let grain: Double = 12 * sin(phase)
                        (r, g, b) = (95 + grain, 62 + grain * 0.7, 40 + grain * 0.5)
                    case .light:
                        (r, g, b) = (222, 220, 214)
                    case .textured:
                        let h = Self.hash(x / 6, y / 6, textureSeed)
                        let v = 110 + Double(h % 90)
                        (r, g, b) = (v, v * 0.9, v * 0.8)
                    case .cluttered:
                        (r, g, b) = (150, 140, 125)
                        if (y / 9) % 3 == 0 && (x / 23) % 4 != 3 && x < width / 3 { (r, g, b) = (40, 40, 40) }
                    case .pale:
                        (r, g, b) = (232, 230, 226)
                    case .cream:
                        // The brightness of the paper's white (248, 245.5, 238).
                        (r, g, b) = y < height / 20 ? (90, 60, 40) : (255, 247, 212)
                    case .creamAllRound:
                        (r, g, b) = (255, 247, 212)
                    case .blueWall:
                        // The paper's white (248, 245.5, 238) is brighter by 2.5 and its least
                        // channel by 2.
                        (r, g, b) = y >= height * 19 / 20 ? (70, 60, 55) : (236, 244, 255)
                    case .table:
                        let onTable = x > width / 20 && x < width * 19 / 20 && y > height / 25 && y < height * 24 / 25
                        (r, g, b) = onTable ? (196, 194, 190) : (92, 60, 40)
                    case .window:
                        (r, g, b) = (150, 140, 125)
                        if x >= width * 11 / 20 {
                            (r, g, b) = (252, 252, 252)
                            emitsLight = true
                        }
                    case .blinds:
                        let u = y % 20
                        let v = u >= 17 ? 55 : 215 - 2.5 * Double(u)
                        (r, g, b) = (v, v, v * 0.97)
                    case .poster:
                        (r, g, b) = (160, 150, 135)
                        if x >= width * 33 / 40 && y >= height / 20 && y < height * 3 / 8 { (r, g, b) = (200, 40, 40) }
                        if x >= width / 40 && x < width * 11 / 80 && y >= height * 3 / 4 { (r, g, b) = (230, 190, 40) }
                        if x >= width / 40 && x < width * 13 / 80 && y >= height * 3 / 20 && y < height * 21 / 40 {
                            // A card: rows of bars 12 px apart, like a page's print.
                            let row = (y - height * 3 / 20) % 12
                            (r, g, b) = row >= 4 && row < 8 && (x / 17) % 3 != 2 ? (50, 45, 40) : (240, 225, 160)
                        }
                    }
                }
                for stroke in strokes where Self.distance(Point(Double(x) + 0.5, Double(y) + 0.5), stroke.a, stroke.b) < stroke.radius {
                    (r, g, b) = (stroke.value, stroke.value, stroke.value * 1.6)
                }
                for o in objects where x >= o.x0 && x < o.x1 && y >= o.y0 && y < o.y1 { (r, g, b) = o.colour }
                // Uneven light: darker towards one corner.
                let light = emitsLight ? 1 : 1 - shading * (Double(x) / Double(width) * 0.6 + Double(y) / Double(height) * 0.4)
                let n = noise * (rng.unit() + rng.unit() - 1)
                let i = (y * width + x) * 3
                out[i] = UInt8(max(0, min(255, r * light + n)))
                out[i + 1] = UInt8(max(0, min(255, g * light + n)))
                out[i + 2] = UInt8(max(0, min(255, b * light + n)))
            }
        }
        return try PixelBuffer(width: width, height: height, format: .rgb, pixels: out)
    }

    static func sample(_ img: PixelBuffer, _ u: Double, _ v: Double) -> Double {
        let x0 = max(0, min(img.width - 1, Int(u.rounded(.down)))), y0 = max(0, min(img.height - 1, Int(v.rounded(.down))))
        let x1 = min(x0 + 1, img.width - 1), y1 = min(y0 + 1, img.height - 1)
        let fx = max(0, min(1, u - Double(x0))), fy = max(0, min(1, v - Double(y0)))
        func at(_ x: Int, _ y: Int) -> Double { Double(img.pixels[y * img.width + x]) }
        let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * fx
        let bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * fx
        return top + (bottom - top) * fy
    }

    /// Distance from `p` to the segment `a`–`b`.
    static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let d = b - a
        let t = max(0, min(1, ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / max(d.x * d.x + d.y * d.y, 1e-9)))
        return p.distance(to: a + d * t)
    }

    static func hash(_ x: Int, _ y: Int, _ seed: UInt64) -> UInt64 {
        var r = Random(seed: seed ^ UInt64(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663))
        return r.next()
    }

    /// The largest corner distance between two quads.
    public static func cornerError(_ a: Quad, _ b: Quad) -> Double {
        zip(a.corners, b.corners).map { $0.distance(to: $1) }.max() ?? .infinity
    }
}
