// swift-tools-version:6.0
// Coverage-guided fuzz targets (libFuzzer, AddressSanitizer) over scantext's libraries. Build
// and run them with scripts/fuzz (-sanitize=fuzzer,address -parse-as-library): each target's
// MODULE_main hands its test function to libFuzzer's driver.
import PackageDescription

let targets = ["FuzzImageDecoding", "FuzzPDF", "FuzzExif", "FuzzQuadParsing", "FuzzWarp", "FuzzPageDetection"]

let package = Package(
    name: "scantext-fuzz",
    dependencies: [.package(name: "scantext", path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "ScanCore", package: "scantext")]),
    ] + targets.map { name in
        .executableTarget(name: name, dependencies: [
            "FuzzSupport",
            .product(name: "ScanCore", package: "scantext"),
            .product(name: "ImageInput", package: "scantext"),
        ])
    },
    swiftLanguageModes: [.v6]
)
