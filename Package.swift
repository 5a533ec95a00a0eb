// swift-tools-version:6.0
import Foundation
import PackageDescription

// The geometry and pixel kernels are optimised even in debug builds, so `swift test`
// (a debug build) exercises them at a realistic speed. Root-package unsafe flags are fine.
//
// On x86-64 they are also compiled for x86-64-v3 (AVX2, FMA, BMI2: every x86 PC and server
// CPU since about 2015), which makes the warp 1.5x and the grey conversion 4x faster. The
// command line checks the CPU before it runs any of that code. SCANTEXT_PORTABLE=1 at build
// time compiles them for the plain x86-64 baseline instead.
#if arch(x86_64)
let wideVectors = ProcessInfo.processInfo.environment["SCANTEXT_PORTABLE"] == nil
#else
let wideVectors = false
#endif
let kernelTarget: [SwiftSetting] = wideVectors
    ? [.unsafeFlags(["-target-cpu", "haswell"]), .define("SCANCORE_X86_64_V3")] : []
let optimizedKernels: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))] + kernelTarget
/// For code built for the baseline that must know what the kernels need.
let kernelTargetName: [SwiftSetting] = wideVectors ? [.define("SCANCORE_X86_64_V3")] : []

/// Release builds of the command line carry their own copy of the Swift runtime and Foundation
/// (`-static-stdlib`, which SwiftPM's `--static-swift-stdlib` also passes, here made the
/// default): the binary runs where Swift is not installed and starts in 13 ms instead of 20
/// (see the README). Every module the executable links is compiled for it too, so that their
/// autolinked libraries are the static ones. lld links it: GNU ld and gold print a warning for
/// a `mktemp` reference inside the static Foundation, which scantext never calls. Debug
/// builds (and so `swift test`) link the shared runtime as usual; so does a release build with
/// SCANTEXT_SHARED_RUNTIME=1, which release-mode tests need (Swift Testing has no static
/// library, and the CLI tests link the executable's code).
#if os(Linux)
let staticRuntime = ProcessInfo.processInfo.environment["SCANTEXT_SHARED_RUNTIME"] == nil
#else
let staticRuntime = false
#endif
let selfContainedRuntime: [LinkerSetting] =
    staticRuntime ? [.unsafeFlags(["-static-stdlib", "-use-ld=lld"], .when(configuration: .release))] : []
let staticStdlibCompile: [SwiftSetting] = staticRuntime ? [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))] : []

/// The library functions CTesseractHooks defines in place of libpng's and libgomp's.
let hookedSymbols = [
    "png_set_compression_level",
    "GOMP_parallel", "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait",
]

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
        // Not through pkg-config: tesseract.pc adds -larchive -lcurl, which libtesseract needs
        // but scantext does not call. Linked directly, they are loaded at every start on top
        // of what libtesseract loads, and -lcurl can name another build of curl than
        // libtesseract's (libcurl-nss, with seven NSS libraries). The module map links
        // tesseract, lept and gomp; the headers are in /usr/include.
        .systemLibrary(name: "CTesseract"),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        // Hooks that spare Tesseract work which changes nothing in its results (see the
        // header). Executables export no symbols by default; these must be in the dynamic
        // symbol table for Tesseract's and Leptonica's calls to reach them.
        .target(
            name: "CTesseractHooks",
            linkerSettings: [
                .linkedLibrary("dl"),
                .unsafeFlags(hookedSymbols.flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] }),
            ]
        ),
        .target(name: "ScanCore", swiftSettings: optimizedKernels + staticStdlibCompile),
        .target(name: "TextRecognition", dependencies: ["CTesseract", "CTurboJPEG", "CTesseractHooks", "ScanCore"], swiftSettings: staticStdlibCompile),
        .target(
            name: "ScanCLI",
            dependencies: [
                "CTesseract", "ScanCore", "TextRecognition",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: kernelTargetName + staticStdlibCompile
        ),
        .executableTarget(name: "scantext", dependencies: ["ScanCLI"], swiftSettings: staticStdlibCompile, linkerSettings: selfContainedRuntime),
        .executableTarget(
            name: "scantext-bench-geometry", dependencies: ["ScanCore", "TextRecognition"],
            swiftSettings: staticStdlibCompile, linkerSettings: selfContainedRuntime),
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
