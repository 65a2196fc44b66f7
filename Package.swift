// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "paneld",
    products: [
        .library(name: "PanelGauge", targets: ["PanelGauge"]),
        .executable(name: "paneld", targets: ["paneld"]),
        .executable(name: "panelgauge-bench", targets: ["panelgauge-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // C libraries stay at the edge: one system-library target each, with a shim header.
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),

        // Pure-Swift rasterizer and gauges; never imports libdrm.
        .target(
            name: "PanelGauge",
            dependencies: ["CZlib", "CFreeType"],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "paneld",
            dependencies: [
                "PanelGauge", "CDRM",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "panelgauge-bench", dependencies: ["PanelGauge"]),
        .testTarget(
            name: "PanelGaugeTests", dependencies: ["PanelGauge"],
            exclude: ["References"]
        ),
        .testTarget(name: "paneldTests", dependencies: ["paneld"]),
    ]
)
