import Testing
@testable import ScanCore
import ScanTestSupport

@Suite struct PixelBufferTests {
    @Test("the initializer checks the element count")
    func countChecked() {
        #expect(throws: ScanCoreError.self) { try PixelBuffer(width: 3, height: 2, format: .gray, pixels: [0, 0, 0]) }
        #expect(throws: ScanCoreError.self) { try PixelBuffer(width: 0, height: 2, format: .gray, pixels: []) }
        #expect((try? PixelBuffer(width: 2, height: 2, format: .rgb, pixels: [UInt8](repeating: 1, count: 12))) != nil)
    }

    @Test("grey uses Rec. 601 weights")
    func grey() throws {
        let rgb = try PixelBuffer(width: 3, height: 1, format: .rgb, pixels: [255, 0, 0, 0, 255, 0, 10, 20, 30])
        let g = rgb.grayscale()
        #expect(g.format == .gray)
        #expect(g.pixels == [76, 150, 18])
    }

    @Test("brightening scales every channel, rounded, and clips at white")
    func brightened() throws {
        let b = try PixelBuffer(width: 2, height: 1, format: .rgb, pixels: [0, 100, 215, 218, 250, 5])
        let lifted = b.brightened(by: 1.1)
        #expect(lifted.format == .rgb && lifted.width == 2 && lifted.height == 1)
        #expect(lifted.pixels == [0, 110, 237, 240, 255, 6])
    }

    @Test("box downsampling averages blocks")
    func downsample() throws {
        let b = try PixelBuffer(width: 4, height: 2, format: .gray, pixels: [0, 10, 100, 200, 20, 30, 100, 200])
        let d = b.downsampled(by: 2)
        #expect(d.width == 2 && d.height == 1)
        #expect(d.pixels == [15, 150])
    }

    /// The rounded mean of each factor×factor block, channel by channel, written out plainly.
    static func blockMeans(_ b: PixelBuffer, _ factor: Int) -> [UInt8] {
        let ow = b.width / factor, oh = b.height / factor, c = b.format.channels
        var out: [UInt8] = []
        for oy in 0..<oh { for ox in 0..<ow { for ch in 0..<c {
            var sum = 0
            for y in oy * factor..<(oy + 1) * factor { for x in ox * factor..<(ox + 1) * factor {
                sum += Int(b.pixels[(y * b.width + x) * c + ch])
            } }
            out.append(UInt8((sum + factor * factor / 2) / (factor * factor)))
        } } }
        return out
    }

    // Up to factor 257 the column sums are 16-bit (257 rows of 255 fill them exactly); from
    // 258 they are 32-bit. White is the case that would overflow.
    @Test("box downsampling is the block mean on both sides of the 16-bit limit", arguments: [3, 10, 257, 258])
    func downsampleWide(factor: Int) throws {
        for format in [PixelBuffer.Format.gray, .rgb] {
            let w = factor * 2 + 1, h = factor + 2
            let white = PixelBuffer(width: w, height: h, format: format, fill: 255)
            #expect(white.downsampled(by: factor).pixels == [UInt8](repeating: 255, count: 2 * format.channels))
            var px = [UInt8](repeating: 0, count: w * h * format.channels)
            for i in px.indices { px[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
            let noisy = try PixelBuffer(width: w, height: h, format: format, pixels: px)
            let d = noisy.downsampled(by: factor)
            #expect(d.width == 2 && d.height == 1)
            #expect(d.pixels == Self.blockMeans(noisy, factor))
        }
    }

    @Test("an image narrower or shorter than the factor gives the mean of what there is (found by FuzzPageDetection)",
          arguments: [(1, 576, 2), (3, 2, 4), (10, 1, 3), (2, 2, 5)])
    func downsampleThin(width: Int, height: Int, factor: Int) throws {
        for format in [PixelBuffer.Format.gray, .rgb] {
            let c = format.channels
            let px = (0..<(width * height * c)).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            let d = try PixelBuffer(width: width, height: height, format: format, pixels: px).downsampled(by: factor)
            let (bw, bh) = (min(factor, width), min(factor, height))
            #expect(d.width == max(width / factor, 1) && d.height == max(height / factor, 1))
            for ch in 0..<c {
                var sum = 0
                for y in 0..<bh { for x in 0..<bw { sum += Int(px[(y * width + x) * c + ch]) } }
                #expect(Int(d.pixels[ch]) == (sum + bw * bh / 2) / (bw * bh), "\(width)x\(height) by \(factor), channel \(ch)")
            }
        }
    }
}

@Suite struct PerspectiveCorrectorTests {
    func gradient(_ w: Int, _ h: Int) throws -> PixelBuffer {
        var px = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { px[y * w + x] = UInt8((x * 7 + y * 3) % 256) } }
        return try PixelBuffer(width: w, height: h, format: .gray, pixels: px)
    }

    @Test("the whole-image quad gives the image back")
    func identity() throws {
        let image = try gradient(37, 23)
        let result = try PerspectiveCorrector().correct(image, quad: Quad(width: 37, height: 23))
        #expect(result.image == image)
    }

    @Test("an axis-aligned quad is a crop, in grey and colour")
    func crop() throws {
        let image = try gradient(64, 48)
        let quad = Quad(topLeft: Point(10, 5), topRight: Point(42, 5), bottomRight: Point(42, 29), bottomLeft: Point(10, 29))
        let result = try PerspectiveCorrector().correct(image, quad: quad)
        #expect(result.image.width == 32 && result.image.height == 24)
        for y in 0..<24 { for x in 0..<32 { #expect(result.image.pixels[y * 32 + x] == image.pixels[(y + 5) * 64 + x + 10]) } }

        var rgb = [UInt8]()
        for v in image.pixels { rgb += [v, 255 - v, v / 2] }
        let colour = try PixelBuffer(width: 64, height: 48, format: .rgb, pixels: rgb)
        let c = try PerspectiveCorrector().correct(colour, quad: quad)
        #expect(c.image.format == .rgb)
        for y in 0..<24 {
            for x in 0..<32 {
                let s = ((y + 5) * 64 + x + 10) * 3, d = (y * 32 + x) * 3
                #expect(Array(c.image.pixels[d..<d + 3]) == Array(rgb[s..<s + 3]))
            }
        }
    }

    /// The warp's grey sampling written plainly, one pixel at a time: the same float formula
    /// for the source position, then, for runs of eight pixels that all land inside the image,
    /// 5-bit fixed-point bilinear weights (positions rounded half to even), and otherwise a
    /// float bilinear sample with the border replicated and white beyond.
    func referenceWarp(_ src: PixelBuffer, width w: Int, height h: Int, outputToSource m: Homography) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: w * h)
        let sw = src.width, sh = src.height
        func px(_ x: Int, _ y: Int) -> Int32 { Int32(src.pixels[y * sw + x]) }
        for y in 0..<h {
            let yc = Double(y) + 0.5
            let a = Float(m.r0.x), b = Float(m.r1.x), c = Float(m.r2.x)
            let a0 = Float(m.r0.y * yc + m.r0.z + m.r0.x * 0.5)
            let b0 = Float(m.r1.y * yc + m.r1.z + m.r1.x * 0.5)
            let c0 = Float(m.r2.y * yc + m.r2.z + m.r2.x * 0.5)
            func position(_ x: Int) -> (Float, Float) {
                let xf = Float(x), wInv = 1 / (xf * c + c0)
                return ((xf * a + a0) * wInv - 0.5, (xf * b + b0) * wInv - 0.5)
            }
            for x in 0..<w {
                let (u, v) = position(x)
                let block = x / 8 * 8
                let inside = block + 8 <= w && (block..<block + 8).allSatisfy { x in
                    let (u, v) = position(x)
                    return u >= 0 && u < Float(sw - 1) && v >= 0 && v < Float(sh - 1)
                }
                if inside {
                    let uq = Int32((u * 32).rounded(.toNearestOrEven)), vq = Int32((v * 32).rounded(.toNearestOrEven))
                    let fx = uq & 31, fy = vq & 31, x0 = Int(uq >> 5), y0 = Int(vq >> 5)
                    let sum = px(x0, y0) * (32 - fx) * (32 - fy) + px(x0 + 1, y0) * fx * (32 - fy)
                        + px(x0, y0 + 1) * (32 - fx) * fy + px(x0 + 1, y0 + 1) * fx * fy
                    out[y * w + x] = UInt8((sum + 512) >> 10)
                } else if u >= -0.5, v >= -0.5, u <= Float(sw) - 0.5, v <= Float(sh) - 0.5 {
                    let uc = min(max(u, 0), Float(sw - 1)), vc = min(max(v, 0), Float(sh - 1))
                    let x0 = Int(uc), y0 = Int(vc), x1 = min(x0 + 1, sw - 1), y1 = min(y0 + 1, sh - 1)
                    let fx = uc - Float(x0), fy = vc - Float(y0)
                    let top = Float(px(x0, y0)) + (Float(px(x1, y0)) - Float(px(x0, y0))) * fx
                    let bottom = Float(px(x0, y1)) + (Float(px(x1, y1)) - Float(px(x0, y1))) * fx
                    out[y * w + x] = UInt8(min(max(top + (bottom - top) * fy + 0.5, 0), 255))
                } else {
                    out[y * w + x] = 255
                }
            }
        }
        return out
    }

    @Test("a turned, foreshortened page is sampled exactly as the plain bilinear reference says")
    func turnedPageMatchesReference() throws {
        // Noise, so that any neighbour picked wrongly shows.
        var state: UInt32 = 12345
        let pixels = (0..<(211 * 157)).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let image = try PixelBuffer(width: 211, height: 157, format: .gray, pixels: pixels)
        // Turned about 20 degrees, narrower at the top, one corner outside the image.
        let quads = [
            Quad(topLeft: Point(60, 8), topRight: Point(170, 35), bottomRight: Point(150, 150), bottomLeft: Point(25, 120)),
            Quad(topLeft: Point(-6, 10), topRight: Point(200, -4), bottomRight: Point(214, 160), bottomLeft: Point(3, 150)),
            Quad(topLeft: Point(100, 20), topRight: Point(130, 22), bottomRight: Point(128, 60), bottomLeft: Point(99, 58)),
        ]
        for quad in quads {
            let (w, h) = PerspectiveCorrector.outputSize(for: quad)
            let toSource = try Homography(mapping: Quad(width: w, height: h).corners, to: quad.corners)
            let warped = PerspectiveCorrector.warp(image, outputWidth: w, outputHeight: h, outputToSource: toSource)
            let expected = referenceWarp(image, width: w, height: h, outputToSource: toSource)
            let wrong = zip(warped.pixels, expected).filter { $0 != $1 }.count
            #expect(wrong == 0, "\(wrong) of \(w * h) pixels differ for \(quad)")
        }
    }

    @Test("the output size follows the longer edges")
    func size() {
        let q = Quad(topLeft: Point(0, 0), topRight: Point(100, 0), bottomRight: Point(120, 200), bottomLeft: Point(-10, 190))
        let (w, h) = PerspectiveCorrector.outputSize(for: q)
        #expect(w == 130)
        #expect(h == Int((Point(100, 0).distance(to: Point(120, 200))).rounded()))
    }

    @Test("a quad far past any page size is refused as too large, not trapped on (found by fuzzing)", arguments: [
        "0,0;4e30,0;4e30,10;0,10", "0,0;1e300,0;1e300,1e300;0,1e300", "0,0;9.3e18,0;9.3e18,9.3e18;0,9.3e18",
    ])
    func hugeQuad(_ text: String) throws {
        let quad = try Quad(parsing: text)
        let (w, _) = PerspectiveCorrector.outputSize(for: quad)
        #expect(w == 1 << 30)
        #expect { try PerspectiveCorrector().correct(try gradient(20, 20), quad: quad) } throws: {
            ($0 as? ScanCoreError)?.code == .outputTooLarge
        }
    }

    @Test("degenerate quads are errors, not garbage", arguments: [
        "0,0;10,0;10,0;0,0",        // collapsed
        "0,0;10,10;10,0;0,10",      // bow tie
        "0,0;0,10;10,10;10,0",      // counter-clockwise order
        "5,5;5,5;5,5;5,5",          // a point
    ])
    func degenerate(_ text: String) throws {
        let quad = try Quad(parsing: text)
        let image = try gradient(20, 20)
        #expect(throws: ScanCoreError.self) { try PerspectiveCorrector().correct(image, quad: quad) }
    }

    @Test("a page records its steps and maps back to the source")
    func steps() throws {
        var page = ScanPage(source: "x.png", index: 0, image: try gradient(200, 100), resolution: 300)
        let quad = Quad(topLeft: Point(20, 10), topRight: Point(180, 20), bottomRight: Point(170, 90), bottomLeft: Point(30, 85))
        try page.correctPerspective(quad, detected: true)
        #expect(page.steps.count == 2)
        #expect(page.quad == quad)
        let corner = try #require(page.mapToSource(Point(Double(page.image.width), Double(page.image.height))))
        #expect(corner.distance(to: quad.bottomRight) < 1e-6)
        #expect(page.sourceSize.width == 200)
    }
}

@Suite struct IlluminationCorrectorTests {
    @Test("a page lit from one side comes out evenly white, with its text still dark")
    func flattens() throws {
        let w = 400, h = 300
        var px = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let light = 1.0 - 0.5 * Double(x) / Double(w)  // 250 on the left, 125 on the right
                let ink = (y % 20 < 4 && x % 30 < 20) ? 0.15 : 1.0
                px[y * w + x] = UInt8(250 * light * ink)
            }
        }
        let shaded = try PixelBuffer(width: w, height: h, format: .gray, pixels: px)
        let flat = IlluminationCorrector().flatten(shaded)
        #expect(flat.width == w && flat.height == h && flat.format == .gray)
        // Paper (rows 10..19 hold no ink) near both edges: 250 against 128 before.
        let left = flat.pixels[15 * w + 25], right = flat.pixels[15 * w + 385]
        #expect(abs(Int(left) - Int(right)) < 25, "paper \(left) vs \(right)")
        #expect(right > 220)
        // Ink stays dark on the shaded side.
        #expect(flat.pixels[1 * w + 370] < 80)
    }

    @Test("flattening in place gives the same page, in the page's own buffer, recorded as a step")
    func flattensInPlace() throws {
        let corners = Quad(topLeft: Point(60, 40), topRight: Point(440, 60), bottomRight: Point(430, 370), bottomLeft: Point(50, 350))
        let photo = try SyntheticPhoto.make(
            page: SyntheticPhoto.textLikePage(width: 300, height: 400), corners: corners, width: 500, height: 400,
            background: .dark, seed: 3)
        let expected = IlluminationCorrector().flatten(photo.grayscale())
        // The page is the only owner of its pixels: they are rewritten where they are.
        var page = ScanPage(source: "p", index: 0, image: photo.grayscale(), resolution: nil)
        let buffer = page.image.pixels.withUnsafeBufferPointer { $0.baseAddress }
        try page.applyFilter("illumination") { IlluminationCorrector().flatten(&$0) }
        #expect(page.image == expected)
        #expect(page.image.pixels.withUnsafeBufferPointer { $0.baseAddress } == buffer)
        #expect(page.steps.last == .filtered("illumination"))
        // Pixels shared with another owner are copied first: that owner's stay as they were.
        let kept = photo.grayscale()
        var shared = ScanPage(source: "p", index: 0, image: kept, resolution: nil)
        try shared.applyFilter("illumination") { IlluminationCorrector().flatten(&$0) }
        #expect(shared.image == expected && kept == photo.grayscale())
        // Colour pages become grey, as with the copying form.
        var colour = photo
        IlluminationCorrector().flatten(&colour)
        #expect(colour == IlluminationCorrector().flatten(photo) && colour.format == .gray)
        // A filter that changes the size is refused.
        #expect(throws: ScanCoreError.self) {
            try page.applyFilter("crop") { $0 = PixelBuffer(width: 10, height: 10, format: .gray, fill: 0) }
        }
    }
}
