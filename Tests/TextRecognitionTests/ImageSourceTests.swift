import Foundation
import Testing
@testable import TextRecognition

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
        #expect(throws: RecognitionError.self) { try tiff.page(3) }

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
        (Data(), RecognitionError.Code.empty),
        (Data("hello, this is text and not an image at all".utf8), .notAnImage),
        (Data("%PDF-1.4 minimal".utf8), .unsupportedFormat),
    ])
    func badData(_ data: Data, _ code: RecognitionError.Code) {
        #expect { try ImageSource(name: "x.png", data: data) } throws: { ($0 as? RecognitionError)?.code == code }
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
        #expect(throws: RecognitionError.self) { try ImageSource(name: "cut.jpg", data: data.prefix(data.count * 2 / 3)).page(0) }
    }

    @Test("images over the pixel limit are refused before decoding")
    func tooLarge() throws {
        let limits = DecodeLimits(maxPixels: 1000, maxFileBytes: 1 << 30)
        #expect { try ImageSource.open(path: Fixtures.sample("clean.png"), limits: limits) } throws: {
            ($0 as? RecognitionError)?.code == .tooLarge
        }
    }

    @Test("missing files and directories")
    func missing() {
        #expect { try ImageSource.open(path: "/nonexistent/x.png") } throws: { ($0 as? RecognitionError)?.code == .notFound }
        #expect { try ImageSource.open(path: Fixtures.root.path) } throws: { ($0 as? RecognitionError)?.code == .isDirectory }
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
