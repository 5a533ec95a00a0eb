// swift-tools-version:6.0
import PackageDescription

// The geometry and pixel kernels are optimised even in debug builds, so `swift test`
// (a debug build) exercises them at a realistic speed. Root-package unsafe flags are fine.
let optimizedKernels: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "scantext",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "scantext", targets: ["scantext"]),
        .executable(name: "scantext-bench-geometry", targets: ["scantext-bench-geometry"]),
        .library(name: "ScanCore", targets: ["ScanCore"]),
        .library(name: "TextRecognition", targets: ["TextRecognition"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]
        ),
        .target(name: "ScanCore", swiftSettings: optimizedKernels),
        .target(name: "TextRecognition", dependencies: ["CTesseract", "ScanCore"]),
        .target(
            name: "ScanCLI",
            dependencies: [
                "ScanCore", "TextRecognition",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "scantext", dependencies: ["ScanCLI"]),
        .executableTarget(name: "scantext-bench-geometry", dependencies: ["ScanCore", "TextRecognition"]),
        // Synthetic photos with exact corners, for the tests (not part of any product).
        .target(name: "ScanTestSupport", dependencies: ["ScanCore"], swiftSettings: optimizedKernels),
        .testTarget(name: "ScanCoreTests", dependencies: ["ScanCore", "ScanTestSupport"]),
        .testTarget(name: "TextRecognitionTests", dependencies: ["TextRecognition", "ScanCore", "ScanTestSupport"]),
        .testTarget(
            name: "ScanCLITests",
            dependencies: ["ScanCLI", "ScanCore", "TextRecognition", "ScanTestSupport", "scantext"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
