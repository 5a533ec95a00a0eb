import Foundation

/// Hand-built image files with exact structure, for the tests of damaged and hostile input.
public enum ImageFixtures {
    /// A classic little-endian TIFF of grey pages, one strip each, directories after their data.
    /// `declared` overrides the size a page's directory states (a bomb), `loop` points the last
    /// directory back at the first.
    public static func tiff(pages: [(width: Int, height: Int)], declared: [Int: (Int, Int)] = [:], loop: Bool = false) -> Data {
        var d = Data([0x49, 0x49, 42, 0])
        func u16(_ v: Int) { d.append(contentsOf: [UInt8(v & 255), UInt8(v >> 8 & 255)]) }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16(v >> 16) }
        let firstLink = d.count
        u32(0)
        var link = firstLink, firstIFD = 0
        for (i, page) in pages.enumerated() {
            let dataAt = d.count
            d.append(contentsOf: (0..<(page.width * page.height)).map { UInt8(truncatingIfNeeded: 255 - ($0 % 7) * 30) })
            if d.count % 2 == 1 { d.append(0) }
            let ifd = d.count
            if i == 0 { firstIFD = ifd }
            d.replaceSubrange(link..<(link + 4), with: [UInt8(ifd & 255), UInt8(ifd >> 8 & 255), UInt8(ifd >> 16 & 255), UInt8(ifd >> 24)])
            let (w, h) = declared[i] ?? (page.width, page.height)
            let entries: [(tag: Int, type: Int, value: Int)] = [
                (256, 4, w), (257, 4, h), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, dataAt),
                (277, 3, 1), (278, 4, page.height), (279, 4, page.width * page.height),
            ]
            u16(entries.count)
            for e in entries {
                u16(e.tag); u16(e.type); u32(1)
                if e.type == 3 { u16(e.value); u16(0) } else { u32(e.value) }
            }
            link = d.count
            u32(0)
        }
        if loop { d.replaceSubrange(link..<(link + 4), with: [UInt8(firstIFD & 255), UInt8(firstIFD >> 8 & 255), 0, 0]) }
        return d
    }

    /// A GIF of `frames` 1×1 images; `cutInFrame` ends the file inside that frame (1-based).
    public static func gif(frames: Int, cutInFrame: Int? = nil) -> Data {
        var d = Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0xFF, 0xFF, 0xFF, 0, 0, 0])
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        for i in 1...frames {
            if i == cutInFrame { return d + frame.prefix(8) }
            d.append(contentsOf: frame)
        }
        return d + [0x3B]
    }

    /// A binary grey PNM (P5) of `width`×`height`, then `trailing` bytes.
    public static func pgm(width: Int, height: Int, trailing: Data = Data()) -> Data {
        Data("P5\n\(width) \(height)\n255\n".utf8) + Data(repeating: 200, count: width * height) + trailing
    }

    /// A PNG chunk with its length and CRC.
    public static func pngChunk(_ type: String, _ body: [UInt8]) -> Data {
        var d = Data()
        let n = UInt32(body.count).bigEndian
        withUnsafeBytes(of: n) { d.append(contentsOf: $0) }
        let typed = Data(type.utf8) + body
        d.append(typed)
        withUnsafeBytes(of: crc32(typed).bigEndian) { d.append(contentsOf: $0) }
        return d
    }

    public static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}

extension ImageFixtures {
    /// A PDF of text pages in Helvetica, one line each, built object by object with a correct
    /// cross-reference table. `mediaBox` sets every page's size in points; `encrypted` adds a
    /// standard security handler whose user password is not empty, so a reader needs it.
    public static func pdf(pages: [String], mediaBox: (Double, Double) = (612, 792), encrypted: Bool = false) -> Data {
        var objects: [String] = []
        let pageIDs = pages.indices.map { 4 + 2 * $0 }
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        objects.append("<< /Type /Pages /Kids [\(pageIDs.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages.count) >>")
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        for (i, text) in pages.enumerated() {
            let stream = "BT /F1 36 Tf 72 \(Int(mediaBox.1) - 150) Td (\(text)) Tj ET"
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(mediaBox.0) \(mediaBox.1)] /Resources << /Font << /F1 3 0 R >> >> /Contents \(pageIDs[i] + 1) 0 R >>")
            objects.append("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
        }
        if encrypted {
            let hex32 = String(repeating: "7A", count: 32)
            objects.append("<< /Filter /Standard /V 1 /R 2 /O <\(hex32)> /U <\(String(repeating: "3C", count: 32))> /P -4 >>")
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(format: "%010d 00000 n \n", offset) }
        let encrypt = encrypted ? " /Encrypt \(objects.count) 0 R /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]" : ""
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R\(encrypt) >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }
}

extension ImageFixtures {
    /// A PDF whose pages are grey scans at `dpi`: each image drawn to fill its page, stored
    /// uncompressed, so a rendering at `dpi` gives the image back (72: one point per pixel).
    public static func pdf(scans: [(width: Int, height: Int, pixels: [UInt8])], dpi: Int = 72) -> Data {
        var chunks: [Data] = [], offsets: [Int] = []
        var size = 0
        func add(_ text: String, binary: Data? = nil) {
            offsets.append(size)
            var d = Data("\(offsets.count) 0 obj\n\(text)".utf8)
            if let binary { d += binary + Data("\nendstream".utf8) }
            d += Data("\nendobj\n".utf8)
            chunks.append(d)
            size += d.count
        }
        let header = Data("%PDF-1.4\n".utf8)
        size = header.count
        let pageIDs = scans.indices.map { 3 + 3 * $0 }
        add("<< /Type /Catalog /Pages 2 0 R >>")
        add("<< /Type /Pages /Kids [\(pageIDs.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(scans.count) >>")
        for (i, scan) in scans.enumerated() {
            let id = pageIDs[i]
            let (w, h) = (Double(scan.width * 72) / Double(dpi), Double(scan.height * 72) / Double(dpi))
            let draw = "q \(w) 0 0 \(h) 0 0 cm /Im0 Do Q"
            add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(w) \(h)] /Resources << /XObject << /Im0 \(id + 2) 0 R >> >> /Contents \(id + 1) 0 R >>")
            add("<< /Length \(draw.utf8.count) >>\nstream\n", binary: Data(draw.utf8))
            add("<< /Type /XObject /Subtype /Image /Width \(scan.width) /Height \(scan.height) /ColorSpace /DeviceGray /BitsPerComponent 8 /Length \(scan.pixels.count) >>\nstream\n",
                binary: Data(scan.pixels))
        }
        var out = header
        for chunk in chunks { out += chunk }
        var tail = "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { tail += String(format: "%010d 00000 n \n", offset) }
        tail += "trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(out.count)\n%%EOF\n"
        return out + Data(tail.utf8)
    }
}
