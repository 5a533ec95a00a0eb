// Times ScanCore's kernels on one image: page detection, the perspective warp to a grey page,
// and illumination flattening. Used by scripts/bench-geometry, which prints OpenCV's time for
// the same warp beside these figures.
//
//   scantext-bench-geometry IMAGE QUAD OUT_WIDTH OUT_HEIGHT [REPEATS]
//
// QUAD is x1,y1;x2,y2;x3,y3;x4,y4 (TL, TR, BR, BL) in IMAGE's pixels. Prints one line per
// kernel: name, median milliseconds, minimum milliseconds.
import Dispatch
import Foundation
import ScanCore
import ImageInput

func milliseconds(_ repeats: Int, _ body: () -> Void) -> (median: Double, min: Double) {
    var times: [Double] = []
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    return (times[times.count / 2], times[0])
}

let args = CommandLine.arguments
guard args.count >= 5, let outW = Int(args[3]), let outH = Int(args[4]), let quad = try? Quad(parsing: args[2]) else {
    FileHandle.standardError.write(Data("usage: scantext-bench-geometry IMAGE QUAD OUT_WIDTH OUT_HEIGHT [REPEATS]\n".utf8))
    exit(64)
}
let repeats = args.count > 5 ? max(1, Int(args[5]) ?? 9) : 9
do {
    let source = try ImageSource.open(path: args[1])
    // Decoded as the recognizer decodes photos: a JPEG straight to grey.
    let dec = milliseconds(repeats) { _ = try? source.page(0, luminanceOnly: true) }
    print("decode\t\(String(format: "%.2f", dec.median))\t\(String(format: "%.2f", dec.min))")
    let image = try source.page(0).image
    let grey = try source.page(0, luminanceOnly: true).image
    print("image\t\(image.width)x\(image.height)\t\(image.format)")
    var detection: PageDetection?
    let d = milliseconds(repeats) { detection = PageDetector().detect(in: grey) }
    print("detect\t\(String(format: "%.2f", d.median))\t\(String(format: "%.2f", d.min))\t\(detection.map { $0.quad.description } ?? "none")")
    let g = milliseconds(repeats) { _ = image.grayscale() }
    print("grayscale\t\(String(format: "%.2f", g.median))\t\(String(format: "%.2f", g.min))")
    let toSource = try Homography(mapping: Quad(width: outW, height: outH).corners, to: quad.corners)
    var warped: PixelBuffer?
    let w = milliseconds(repeats) {
        warped = PerspectiveCorrector.warp(grey, outputWidth: outW, outputHeight: outH, outputToSource: toSource)
    }
    print("warp-grey\t\(String(format: "%.2f", w.median))\t\(String(format: "%.2f", w.min))\t\(outW)x\(outH)")
    if let warped {
        let f = milliseconds(max(1, repeats / 3)) { _ = IlluminationCorrector().flatten(warped) }
        print("flatten\t\(String(format: "%.2f", f.median))\t\(String(format: "%.2f", f.min))")
    }
} catch {
    FileHandle.standardError.write(Data("scantext-bench-geometry: \(error)\n".utf8))
    exit(1)
}
