import Foundation
@testable import ImageInput
import ScanTestSupport
import Testing

/// A file whose structure says there is more than could be read is reported, never read as a
/// shorter file; the pages before the damage are still read.
@Suite struct DamageTests {
    static let threePages = ImageFixtures.tiff(pages: [(40, 30), (40, 30), (40, 30)])

    @Test("a sound multi-page TIFF has all its pages and no damage")
    func soundTIFF() throws {
        let source = try ImageSource(name: "ok.tif", data: Self.threePages)
        #expect(source.pageCount == 3 && source.damage == nil)
        #expect(try source.page(2).image.width == 40)
        let sample = try ImageSource.open(path: Fixtures.sample("multipage.tif"))
        #expect(sample.pageCount == 3 && sample.damage == nil)
    }

    @Test("a TIFF cut anywhere is reported, with the pages before the cut still readable", arguments: [0.4, 0.6, 0.8, 0.95])
    func cutTIFF(_ share: Double) throws {
        let data = Self.threePages
        let cut = data.prefix(Int(Double(data.count) * share))
        let source: ImageSource
        do {
            source = try ImageSource(name: "cut.tif", data: cut)
        } catch {
            // Cut before the first page is whole: nothing to read, refused at once.
            #expect(error.code == .corrupt && error.problem.contains("truncated"), "\(error)")
            return
        }
        let damage = try #require(source.damage, "a TIFF cut at \(share) was read as sound")
        #expect(damage.code == .corrupt && damage.problem.hasPrefix("is truncated"))
        #expect(source.pageCount < 3)
        for page in 0..<source.pageCount { #expect(try source.page(page).image.width == 40) }
    }

    @Test("a TIFF whose page chain loops is reported once, not read forever")
    func loopingTIFF() throws {
        let source = try ImageSource(name: "loop.tif", data: ImageFixtures.tiff(pages: [(20, 20), (20, 20)], loop: true))
        #expect(source.damage?.problem.contains("loops back") == true)
        #expect(source.pageCount <= 2)
    }

    @Test("a huge page inside a TIFF is refused before it is decoded; the other pages are read")
    func tiffBomb() throws {
        let data = ImageFixtures.tiff(pages: [(20, 20), (20, 20)], declared: [1: (60_000, 60_000)])
        let source = try ImageSource(name: "bomb.tif", data: data)
        #expect(try source.page(0).image.width == 20)
        #expect { try source.page(1) } throws: { ($0 as? InputError)?.code == .tooLarge }
    }

    @Test("more pages than the limit are refused before any is decoded")
    func tooManyPages() {
        let data = ImageFixtures.tiff(pages: Array(repeating: (2, 2), count: 30))
        #expect { try ImageSource(name: "many.tif", data: data, limits: DecodeLimits(maxPixels: 1 << 20, maxFileBytes: 1 << 20, maxPages: 20)) } throws: {
            ($0 as? InputError)?.code == .tooLarge && ($0 as? InputError)?.problem == "has 30 pages, over the limit of 20"
        }
    }

    @Test("a GIF of several images: the first is read, the rest reported")
    func multiFrameGIF() throws {
        let source = try ImageSource(name: "anim.gif", data: ImageFixtures.gif(frames: 3))
        #expect(source.pageCount == 1)
        #expect(source.damage?.code == .unsupportedFormat && source.damage?.problem.contains("holds 3 images") == true)
        #expect(try source.page(0).image.width == 1)
        #expect(try ImageSource(name: "one.gif", data: ImageFixtures.gif(frames: 1)).damage == nil)
    }

    @Test("a GIF cut inside its second image still gives its first; cut inside its first, it is refused")
    func cutGIF() throws {
        let source = try ImageSource(name: "cut.gif", data: ImageFixtures.gif(frames: 3, cutInFrame: 2))
        #expect(source.pageCount == 1 && source.damage?.problem.contains("ends inside image 2") == true)
        #expect(try source.page(0).image.width == 1)
        #expect { try ImageSource(name: "cut1.gif", data: ImageFixtures.gif(frames: 1, cutInFrame: 1)) } throws: {
            ($0 as? InputError)?.problem.contains("truncated") == true
        }
    }

    @Test("a PNG with bytes after IEND, or animated, is read and reported; one cut before IEND is refused")
    func png() throws {
        let png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("lowres.png")))
        let trailing = try ImageSource(name: "tail.png", data: png + Data("leftover".utf8))
        #expect(trailing.damage?.problem == "has 8 bytes after its end (the IEND chunk) that belong to no image")
        #expect(try trailing.page(0).image.width > 0)
        // An acTL chunk right after IHDR (8 + 25 bytes) makes it an animated PNG of 4 frames.
        let animated = png.prefix(33) + ImageFixtures.pngChunk("acTL", [0, 0, 0, 4, 0, 0, 0, 0]) + png.dropFirst(33)
        let source = try ImageSource(name: "anim.png", data: animated)
        #expect(source.damage?.code == .unsupportedFormat && source.damage?.problem.contains("4 frames") == true)
        #expect { try ImageSource(name: "cut.png", data: png.prefix(png.count - 20)) } throws: {
            ($0 as? InputError)?.problem.contains("truncated") == true
        }
    }

    @Test("binary PNM: cut pixels are refused, a second image or stray bytes after the first are reported")
    func pnm() throws {
        #expect(try ImageSource(name: "ok.pgm", data: ImageFixtures.pgm(width: 30, height: 20, trailing: Data("\n".utf8))).damage == nil)
        #expect { try ImageSource(name: "cut.pgm", data: ImageFixtures.pgm(width: 30, height: 20).prefix(300)) } throws: {
            ($0 as? InputError)?.problem.contains("truncated") == true
        }
        let two = try ImageSource(name: "two.pgm", data: ImageFixtures.pgm(width: 30, height: 20, trailing: ImageFixtures.pgm(width: 3, height: 2)))
        #expect(two.damage?.problem.contains("more than one image") == true)
        let junk = try ImageSource(name: "junk.pgm", data: ImageFixtures.pgm(width: 30, height: 20, trailing: Data("xyz".utf8)))
        #expect(junk.damage?.problem == "has 3 bytes after its image that belong to no image")
    }

    @Test("a BMP cut inside its pixels is refused, not read as a shorter image")
    func cutBMP() {
        // A 24-bit 40x30 BMP: 54 bytes of headers, rows padded to 120 bytes.
        var bmp = Data("BM".utf8)
        func le(_ v: Int, _ n: Int) { for i in 0..<n { bmp.append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
        le(54 + 120 * 30, 4); le(0, 4); le(54, 4)
        le(40, 4); le(40, 4); le(30, 4); le(1, 2); le(24, 2); le(0, 4); le(120 * 30, 4); le(2835, 4); le(2835, 4); le(0, 4); le(0, 4)
        bmp.append(Data(repeating: 200, count: 120 * 30))
        #expect(throws: Never.self) { try ImageSource(name: "ok.bmp", data: bmp).page(0) }
        #expect { try ImageSource(name: "cut.bmp", data: bmp.prefix(54 + 120 * 10)).page(0) } throws: {
            ($0 as? InputError)?.code == .corrupt && ($0 as? InputError)?.problem.contains("truncated or corrupt") == true
        }
    }

    @Test("a WebP whose RIFF header promises more than the file holds is refused")
    func webp() {
        var riff = Data("RIFF".utf8)
        withUnsafeBytes(of: UInt32(5000).littleEndian) { riff.append(contentsOf: $0) }
        riff.append(Data("WEBPVP8 ".utf8))
        riff.append(Data(repeating: 0, count: 100))
        let structure = FileStructure.check(riff, format: .webp)
        #expect(structure.pages == 0 && structure.damage?.hasPrefix("is truncated: its header says 5008 bytes") == true)
    }

    @Test("structure checks never crash on random or cut bytes", arguments: [ImageSource.ImageFormat.tiff, .gif, .png, .webp, .pnm])
    func randomBytes(_ format: ImageSource.ImageFormat) {
        var generator = SystemRandomNumberGenerator()
        let seeds: [Data] = [Self.threePages, ImageFixtures.gif(frames: 2), ImageFixtures.pgm(width: 5, height: 5)]
        for _ in 0..<300 {
            var data = seeds.randomElement(using: &generator) ?? Data()
            for _ in 0..<Int.random(in: 0...8, using: &generator) where !data.isEmpty {
                data[Int.random(in: 0..<data.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = FileStructure.check(data.prefix(Int.random(in: 0...data.count, using: &generator)), format: format)
        }
    }
}
