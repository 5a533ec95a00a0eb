import CTesseract
import Foundation
@testable import ImageInput
import ScanTestSupport
import SystemPackage
import Testing

@Suite struct ImageSourceTests {
    @Test("decodes each sample format with its size and pages")
    func samples() throws {
        let clean = try ImageSource.open(path: Fixtures.sample("clean.png"))
        #expect(clean.format == .png && clean.pageCount == 1)
        let page = try clean.page(0)
        #expect(page.image.width == 1200 && page.image.height == 900)
        #expect(page.resolution == 200)
        #expect(page.image.format == .gray)

        let tiff = try ImageSource.open(path: Fixtures.sample("multipage.tif"))
        #expect(tiff.format == .tiff && tiff.pageCount == 3)
        let third = try tiff.page(2)
        #expect(third.index == 2 && third.number == 3 && third.image.width == 1000)
        #expect(throws: InputError.self) { try tiff.page(3) }

        let jpeg = try ImageSource.open(path: Fixtures.sample("noisy.jpg"))
        #expect(jpeg.format == .jpeg)
        #expect(try jpeg.page(0).image.height == 900)
    }

    @Test("grey pixels come out in order (Leptonica's byte order is undone)")
    func pixelOrder() throws {
        // A PNG row 0..255 written by Leptonica itself from a known buffer.
        let ramp = try ScanCoreBuffer.ramp()
        let png = try #require(PNGEncoder.encode(ramp))
        let decoded = try ImageSource(name: "ramp.png", data: png).page(0)
        #expect(decoded.image.pixels == ramp.pixels)
    }

    @Test("each way an input can be bad has its own error", arguments: [
        (Data(), InputError.Code.empty),
        (Data("hello, this is text and not an image at all".utf8), .notAnImage),
        (Data("%PDF-1.4 minimal".utf8), .corrupt),
        (ImageFixtures.pdf(pages: ["locked"], encrypted: true), .encrypted),
    ])
    func badData(_ data: Data, _ code: InputError.Code) {
        #expect { try ImageSource(name: "x.png", data: data) } throws: { ($0 as? InputError)?.code == code }
    }

    @Test("a HEIC, AVIF or JPEG XL file is named as such, not called 'not an image'", arguments: [
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], "is a HEIC image"),
        ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], "is an AVIF image"),
        ([0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90, 0x08, 0, 0, 0, 0, 0], "is a JPEG XL image"),
    ] as [([UInt8], String)])
    func unreadableFormats(_ bytes: [UInt8], _ problem: String) {
        #expect { try ImageSource(name: "IMG_0001.jpg", data: Data(bytes + [UInt8](repeating: 0, count: 64))) } throws: {
            guard let error = $0 as? InputError else { return false }
            return error.code == .unsupportedFormat && error.message.hasPrefix("IMG_0001.jpg: \(problem), which scantext cannot read; convert it")
                && error.message.contains(" IMG_0001.jpg page.")
        }
        // An MP4 shares the container but is no image: still "not an image".
        let mp4 = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 64)
        #expect { try ImageSource(name: "clip.mp4", data: Data(mp4)) } throws: { ($0 as? InputError)?.code == .notAnImage }
    }

    @Test("a truncated PNG is corrupt, and the error names the file")
    func truncated() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("clean.png")))
        let cut = data.prefix(data.count / 2)
        do {
            let source = try ImageSource(name: "cut.png", data: cut)
            _ = try source.page(0)
            Issue.record("a truncated PNG decoded")
        } catch {
            #expect(error.code == .corrupt)
            #expect(error.message.hasPrefix("cut.png: "))
        }
    }

    @Test("a truncated JPEG is refused")
    func truncatedJPEG() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("noisy.jpg")))
        #expect(throws: InputError.self) { try ImageSource(name: "cut.jpg", data: data.prefix(data.count * 2 / 3)).page(0) }
    }

    @Test("images over the pixel limit are refused before decoding")
    func tooLarge() throws {
        let limits = DecodeLimits(maxPixels: 1000, maxFileBytes: 1 << 30)
        #expect { try ImageSource.open(path: Fixtures.sample("clean.png"), limits: limits) } throws: {
            ($0 as? InputError)?.code == .tooLarge
        }
    }

    @Test("files are read whole, in large reads, and refused past the size limit")
    func readsFilesWhole() throws {
        let path = Fixtures.sample("noisy.jpg")
        let expected = try Data(contentsOf: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(try FileReading.readAll(FileDescriptor(rawValue: fd), limit: 1 << 30) == expected)
        lseek(fd, 0, SEEK_SET)
        #expect(throws: FileReading.Failure.tooLarge(size: expected.count)) { try FileReading.readAll(FileDescriptor(rawValue: fd), limit: expected.count - 1) }
        // The size limit holds for the whole path through ImageSource too.
        #expect { try ImageSource.open(path: path, limits: DecodeLimits(maxPixels: 1 << 30, maxFileBytes: 1000)) } throws: {
            ($0 as? InputError)?.code == .tooLarge
        }
    }

    @Test("a pipe is read to its end across several growing chunks, and stopped at the limit")
    func readsPipes() throws {
        let payload = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        func pipeRead(limit: Int) throws(FileReading.Failure) -> Data {
            var fds: [Int32] = [0, 0]
            _ = pipe(&fds)
            let (input, output) = (fds[0], fds[1])
            let writer = Thread {
                payload.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let n = write(output, raw.baseAddress! + offset, raw.count - offset)
                        if n <= 0 { break }  // the reader stopped early
                        offset += n
                    }
                }
                close(output)
            }
            writer.start()
            defer { close(input) }
            return try FileReading.readAll(FileDescriptor(rawValue: input), limit: limit)
        }
        signal(SIGPIPE, SIG_IGN)
        #expect(try pipeRead(limit: 1 << 30) == payload)
        #expect(throws: FileReading.Failure.self) { try pipeRead(limit: 2 << 20) }
    }

    @Test("a named pipe given as a path (as with <(command)) is an input like any file")
    func namedPipe() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("scantext-fifo-\(getpid())").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("clean.png")))
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            png.withUnsafeBytes { _ = write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        writer.start()
        let source = try ImageSource.open(path: fifo)
        #expect(source.format == .png && source.pageCount == 1)
        #expect(try source.page(0).image == ImageSource.open(path: Fixtures.sample("clean.png")).page(0).image)
    }

    @Test("missing files and directories")
    func missing() {
        #expect { try ImageSource.open(path: "/nonexistent/x.png") } throws: { ($0 as? InputError)?.code == .notFound }
        #expect { try ImageSource.open(path: Fixtures.root.path) } throws: { ($0 as? InputError)?.code == .isDirectory }
    }
}

import ScanCore

enum ScanCoreBuffer {
    static func ramp() throws -> PixelBuffer {
        let w = 37, h = 3
        let px = (0..<(w * h)).map { UInt8(($0 * 7) % 256) }
        return try PixelBuffer(width: w, height: h, format: .gray, pixels: px)
    }
}

@Suite struct ExifOrientationTests {
    @Test("reads the tag in either byte order, and none when absent or broken")
    func parse() throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("noisy.jpg")))
        #expect(ExifOrientation.read(jpeg: jpeg) == .upright)
        for o in 1...8 {
            #expect(ExifOrientation.read(jpeg: ExifFixture.tagged(jpeg, orientation: UInt16(o))).rawValue == o)
            #expect(ExifOrientation.read(jpeg: ExifFixture.tagged(jpeg, orientation: UInt16(o), bigEndian: true)).rawValue == o)
        }
        #expect(ExifOrientation.read(jpeg: ExifFixture.tagged(jpeg, orientation: 9)) == .upright)
        // Cut inside the EXIF block: no crash, no orientation.
        #expect(ExifOrientation.read(jpeg: ExifFixture.tagged(jpeg, orientation: 6).prefix(40)) == .upright)
        #expect(ExifOrientation.read(jpeg: Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF])) == .upright)
    }

    @Test("only a colour JPEG drops colour when decoded for its luminance")
    func dropsColour() throws {
        let rgb = try PixelBuffer(width: 64, height: 48, format: .rgb, pixels: (0..<(64 * 48 * 3)).map { UInt8($0 % 3 == 2 ? 90 : 200) })
        let colourJPEG = try ImageSource(name: "c.jpg", data: try #require(JPEGEncoder.encode(rgb)))
        #expect(colourJPEG.dropsColourWhenLuminanceOnly)
        #expect(try colourJPEG.page(0, luminanceOnly: true).image.format == .gray)
        #expect(try colourJPEG.page(0).image.format == .rgb)
        let greyJPEG = try ImageSource(name: "g.jpg", data: try #require(JPEGEncoder.encode(rgb.grayscale())))
        #expect(!greyJPEG.dropsColourWhenLuminanceOnly)
        let colourPNG = try ImageSource(name: "c.png", data: try #require(PNGEncoder.encode(rgb)))
        #expect(!colourPNG.dropsColourWhenLuminanceOnly)
        #expect(try colourPNG.page(0, luminanceOnly: true).image.format == .rgb)
    }

    @Test("the fast JPEG path gives Leptonica's pixels and resolution")
    func turboMatchesLeptonica() throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("noisy.jpg")))
        let fast = try ImageSource(name: "a.jpg", data: jpeg).page(0, luminanceOnly: true)
        // The page came through libjpeg-turbo, not through Leptonica's fallback.
        let decoder = try #require(TurboJPEGDecoder())
        let direct = jpeg.withUnsafeBytes { raw in
            decoder.header(of: raw).flatMap { decoder.luminance(of: raw, width: $0.width, height: $0.height) }
        }
        #expect(direct == fast.image)
        // Leptonica's own luminance decode: the same libjpeg, the same IDCT, the same bytes.
        let leptonica = try #require(jpeg.withUnsafeBytes { raw in
            LeptonicaImage(taking: pixReadMemJpeg(
                raw.bindMemory(to: UInt8.self).baseAddress, raw.count, 0, 1, nil, Int32(L_JPEG_READ_LUMINANCE)))
        })
        #expect(leptonica.pixelBuffer() == fast.image)
        #expect(fast.resolution == 200 && leptonica.resolution == 200)

        // A JFIF density in dots per centimetre: 118 dpcm is 300 dpi.
        var metric = jpeg
        metric[13] = 2
        metric[14] = 0; metric[15] = 118
        metric[16] = 0; metric[17] = 118
        #expect(try ImageSource(name: "b.jpg", data: metric).page(0, luminanceOnly: true).resolution == 300)
        // Resolutions Tesseract trusts (70-2400 dpi) are kept, on both decoding paths, even the
        // 96 dpi many converters write; others are dropped so that Tesseract estimates one.
        for (dpi, kept) in [(96, 96), (70, 70), (2400, 2400), (69, nil), (2401, nil), (0, nil)] as [(Int, Int?)] {
            var stamped = jpeg
            stamped[13] = 1
            stamped[14] = UInt8(dpi >> 8); stamped[15] = UInt8(dpi & 255)
            stamped[16] = UInt8(dpi >> 8); stamped[17] = UInt8(dpi & 255)
            let source = try ImageSource(name: "c.jpg", data: stamped)
            #expect(try source.page(0, luminanceOnly: true).resolution == kept, "\(dpi) dpi, fast path")
            #expect(try source.page(0).resolution == kept, "\(dpi) dpi, Leptonica")
        }
        // A cut-off JPEG goes to Leptonica, which refuses it as before.
        #expect { try ImageSource(name: "cut.jpg", data: jpeg.prefix(jpeg.count * 2 / 3)).page(0, luminanceOnly: true) } throws: {
            ($0 as? InputError)?.code == .corrupt
        }
    }

    @Test("a tagged JPEG decodes upright: each pixel where the orientation puts it", arguments: 2...8)
    func decode(_ orientation: Int) throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("noisy.jpg")))
        let plain = try ImageSource(name: "plain.jpg", data: jpeg).page(0, luminanceOnly: true).image
        let page = try ImageSource(name: "tagged.jpg", data: ExifFixture.tagged(jpeg, orientation: UInt16(orientation)))
            .page(0, luminanceOnly: true)
        let turned = page.image
        #expect(page.steps.contains(.oriented(exif: orientation)))
        let (w, h) = (plain.width, plain.height)
        // Where stored pixel (x, y) is shown.
        func shown(_ x: Int, _ y: Int) -> (Int, Int) {
            switch orientation {
            case 2: (w - 1 - x, y)
            case 3: (w - 1 - x, h - 1 - y)
            case 4: (x, h - 1 - y)
            case 5: (y, x)
            case 6: (h - 1 - y, x)
            case 7: (h - 1 - y, w - 1 - x)
            default: (y, w - 1 - x)  // 8
            }
        }
        let quarter = orientation >= 5
        #expect(turned.width == (quarter ? h : w) && turned.height == (quarter ? w : h))
        for (x, y) in [(0, 0), (17, 5), (w - 1, 3), (400, h - 1), (w / 2, h / 2), (1001, 777)] {
            let (sx, sy) = shown(x, y)
            #expect(turned.pixels[sy * turned.width + sx] == plain.pixels[y * w + x], "(\(x), \(y)) → (\(sx), \(sy))")
        }
    }
}
