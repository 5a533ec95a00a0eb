// swift-tools-version:6.0
import Foundation
import PackageDescription

// Every library product builds with no unsafe flags, so any package can depend on scantext by
// version. Machine-specific settings apply only when SCANTEXT_TUNED=1 is in the environment
// of the build, which `scripts/build-release` sets for the release command line:
// - ScanCore's kernels compiled for x86-64-v3 (AVX2, FMA, BMI2), which the executable checks
//   for with CPUID before it runs any of them;
// - the Swift runtime and Foundation linked statically (the binary needs no Swift to run),
//   with lld, since GNU ld warns about a `mktemp` reference inside the static Foundation.
let tuned = ProcessInfo.processInfo.environment["SCANTEXT_TUNED"] == "1"
#if arch(x86_64)
let wideVectors = tuned
#else
let wideVectors = false
#endif
#if os(Linux)
let staticRuntime = tuned
#else
let staticRuntime = false
#endif
let kernelTuning: [SwiftSetting] = wideVectors
    ? [.unsafeFlags(["-target-cpu", "haswell"]), .define("SCANCORE_X86_64_V3")] : []
let kernelTuningName: [SwiftSetting] = wideVectors ? [.define("SCANCORE_X86_64_V3")] : []
let staticRuntimeCompile: [SwiftSetting] = staticRuntime ? [.unsafeFlags(["-static-stdlib"])] : []
let staticRuntimeLink: [LinkerSetting] = staticRuntime ? [.unsafeFlags(["-static-stdlib", "-use-ld=lld"])] : []

/// The library functions CTesseractHooks defines in place of libpng's and libgomp's. An
/// executable exports no symbols by default; these must be in its dynamic symbol table for
/// Tesseract's and Leptonica's calls to reach them.
let hookedSymbols = [
    "png_set_compression_level",
    "GOMP_parallel", "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait",
]

let package = Package(
    name: "scantext",
    products: [
        .executable(name: "scantext", targets: ["scantext"]),
        .executable(name: "scantext-bench-geometry", targets: ["scantext-bench-geometry"]),
        .library(name: "ScanCore", targets: ["ScanCore"]),
        .library(name: "ImageInput", targets: ["ImageInput"]),
        .library(name: "PagePreparation", targets: ["PagePreparation"]),
        .library(name: "TextRecognition", targets: ["TextRecognition"]),
        .library(name: "ScanOutput", targets: ["ScanOutput"]),
        .library(name: "ScanBatch", targets: ["ScanBatch"]),
        .library(name: "ScanServer", targets: ["ScanServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // C libraries, one system-library module each. Tesseract is linked directly, not
        // through pkg-config: tesseract.pc adds -larchive -lcurl, which scantext does not
        // call, and -lcurl can name another build of curl than libtesseract's.
        .systemLibrary(name: "CTesseract"),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(name: "CQPDF", pkgConfig: "libqpdf", providers: [.apt(["libqpdf-dev"])]),
        // Linked by the executable only (see the header): it replaces library functions
        // process-wide, which no library product may do to the program that uses it.
        .target(
            name: "CTesseractHooks",
            linkerSettings: [
                .linkedLibrary("dl"),
                .unsafeFlags(hookedSymbols.flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] }),
            ]
        ),

        // input → geometry → preparation → recognition → output → batch or server → command line
        .target(
            name: "ImageInput",
            dependencies: ["CTesseract", "CTurboJPEG", "CPoppler", "CQPDF", "ScanCore", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: staticRuntimeCompile),
        .target(
            name: "ScanCore", dependencies: [.product(name: "HeapModule", package: "swift-collections")],
            swiftSettings: kernelTuning + staticRuntimeCompile),
        .target(name: "PagePreparation", dependencies: ["CTesseract", "ImageInput", "ScanCore"], swiftSettings: staticRuntimeCompile),
        .target(
            name: "TextRecognition", dependencies: ["CTesseract", "ImageInput", "PagePreparation", "ScanCore"],
            swiftSettings: staticRuntimeCompile),
        .target(name: "ScanOutput", dependencies: ["TextRecognition", "ImageInput", "ScanCore", "CQPDF"], swiftSettings: staticRuntimeCompile),
        .target(
            name: "ScanBatch",
            dependencies: [
                "ImageInput", "TextRecognition", "ScanOutput", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: staticRuntimeCompile),
        // The recognizer over HTTP: the same stages as the command line, one engine pool.
        .target(
            name: "ScanServer",
            dependencies: [
                "ImageInput", "PagePreparation", "ScanCore", "TextRecognition", "ScanOutput",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("openapi.yaml")],
            swiftSettings: staticRuntimeCompile),
        .target(
            name: "ScanCLI",
            dependencies: [
                "ImageInput", "PagePreparation", "ScanCore", "TextRecognition", "ScanOutput", "ScanBatch", "ScanServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: staticRuntimeCompile),
        .executableTarget(
            name: "scantext", dependencies: ["ScanCLI", "TextRecognition", "CTesseractHooks"],
            swiftSettings: kernelTuningName + staticRuntimeCompile, linkerSettings: staticRuntimeLink),
        .executableTarget(
            name: "scantext-bench-geometry", dependencies: ["ScanCore", "ImageInput"],
            swiftSettings: staticRuntimeCompile, linkerSettings: staticRuntimeLink),

        // Synthetic photos with exact corners and text scoring, for the tests (in no product).
        .target(name: "ScanTestSupport", dependencies: ["ScanCore"]),
        .testTarget(name: "ScanCoreTests", dependencies: ["ScanCore", "ImageInput", "ScanTestSupport"]),
        .testTarget(name: "PagePreparationTests", dependencies: ["PagePreparation", "ImageInput", "ScanCore", "ScanTestSupport"]),
        .testTarget(
            name: "ImageInputTests",
            dependencies: ["ImageInput", "CTesseract", "ScanCore", "ScanTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(
            name: "TextRecognitionTests",
            dependencies: ["TextRecognition", "ImageInput", "PagePreparation", "ScanCore", "ScanTestSupport", "CTesseractHooks"]),
        .testTarget(name: "ScanBatchTests", dependencies: ["ScanBatch", "ScanOutput", "TextRecognition", "ScanTestSupport"]),
        .testTarget(
            name: "ScanCLITests",
            dependencies: [
                "ScanCLI", "ScanBatch", "ImageInput", "PagePreparation", "ScanCore", "TextRecognition", "ScanTestSupport", "scantext", "CPoppler",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
