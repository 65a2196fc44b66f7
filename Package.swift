// swift-tools-version:6.0
import PackageDescription

/// The release this tree is (also in packaging/VERSION, which a test compares).
let version = "0.9.0"
/// The commit it was built from, `+dirty` with uncommitted changes: the environment's
/// PANELD_GIT_REVISION when set (a build where git cannot see the tree, such as
/// packaging/build-aarch64.sh's chroot, gets it from the host), else git's; "unknown"
/// outside git. SwiftPM evaluates this file again only when it changes, so an
/// incremental `swift build` may keep an older revision; the package scripts build with
/// a fresh manifest and build description (and check what the binary says).
let gitRevision =
    Context.environment["PANELD_GIT_REVISION"].flatMap { revision in
        // It becomes a C string literal: letters, digits and + . - only.
        revision.isEmpty || !revision.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
            ? nil : revision
    }
    ?? Context.gitInformation.map {
        String($0.currentCommit.prefix(12)) + ($0.hasUncommittedChanges ? "+dirty" : "")
    }
    ?? "unknown"

let package = Package(
    name: "paneld",
    products: [
        .library(name: "PanelGauge", targets: ["PanelGauge"]),
        .library(name: "PanelScene", targets: ["PanelScene"]),
        .library(name: "PanelDisplay", targets: ["PanelDisplay"]),
        .executable(name: "paneld", targets: ["paneld"]),
        .executable(name: "paneld-bench", targets: ["paneld-bench"]),
        .executable(name: "panelgauge-bench", targets: ["panelgauge-bench"]),
        // libFuzzer's entry point over PaneldCore's fuzz targets, linked with libFuzzer's
        // main by Tests/tools/fuzz.sh (not installed).
        .library(name: "paneld-fuzz", type: .dynamic, targets: ["PaneldFuzz"]),
    ],
    targets: [
        // C libraries stay at the edge: one system-library target each, with a shim header.
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),

        // Pure-Swift rasterizer and gauges; never imports libdrm. No unsafe flags, so
        // other packages can depend on it by version (Tests/tools/depend-by-version.sh):
        // the hot loops use wrapping arithmetic (&+, &-, &*) and keep mutable state
        // behind pointers instead of relying on -Ounchecked.
        .target(
            name: "PanelGauge",
            dependencies: ["CZlib", "CFreeType"]
        ),
        // Gauges placed on a screen, repainted only where a change touches them: the
        // retained scene, its pictures of static layers, the repaint plan and its
        // executor. Pure Swift over PanelGauge, no unsafe flags.
        .target(name: "PanelScene", dependencies: ["PanelGauge"]),
        // A Surface on a panel: DRM/KMS dumb buffers with page flips, legacy fbdev, or
        // PNG files; damage and rotation. No unsafe flags, like PanelGauge.
        .target(
            name: "PanelDisplay",
            dependencies: ["PanelGauge", "CDRM"]
        ),
        // Scripted DRM and fbdev devices (the syscall seams' fakes) for the tests of
        // PanelDisplay and of the daemon; not a product.
        .target(name: "PanelDisplayFakes", dependencies: ["PanelGauge", "PanelDisplay"]),
        // libmosquitto, opened at run time only when a layout configures MQTT (its
        // header comes from libmosquitto-dev; the library is not linked).
        .target(name: "CMosquitto"),
        // `paneld --version`: the version and revision above, as C string constants.
        .target(
            name: "PaneldBuildInfo",
            cSettings: [
                .define("PANELD_VERSION", to: "\"\(version)\""),
                .define("PANELD_GIT_REVISION", to: "\"\(gitRevision)\""),
            ]
        ),
        // The daemon's core: layout, protocol, inputs, renderer, loop, and the command-line
        // parser of its executables. A target, not a product: what the executables use is
        // `package` access, an interface inside this package rather than an API (PanelGauge
        // and PanelDisplay are the libraries for other programs). No unsafe flags.
        .target(
            name: "PaneldCore",
            dependencies: ["PanelGauge", "PanelScene", "PanelDisplay", "CMosquitto", "PaneldBuildInfo"]
        ),
        // The daemon's command line (run, render, send, reload, drm-info) over PaneldCore.
        .executableTarget(
            name: "paneld",
            dependencies: ["PaneldCore", "PanelGauge", "PanelDisplay"],
            exclude: ["Link"],
            // Release links for a small resident set (docs/performance.md, "Idle and memory";
            // install builds add --static-swift-stdlib): lld with packed relative
            // relocations (RELR: no 0.9 MB .rela.dyn to read and apply at start), and with
            // --static-swift-stdlib the toolchain's -lstdc++ resolved to libstdc++.a
            // (Sources/paneld/Link holds a linker script that shadows libstdc++.so;
            // a dynamic build links no -lstdc++ itself, so it is unaffected), and
            // PaneldCore's symbols kept out of the dynamic symbol table (Link/paneld.exports).
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xclang-linker", "-L\(Context.packageDirectory)/Sources/paneld/Link",
                        "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/paneld/Link/paneld.exports",
                    ],
                    .when(configuration: .release))
            ]
        ),
        .executableTarget(name: "panelgauge-bench", dependencies: ["PanelGauge"]),
        // The daemon's figures in docs/performance.md (damage-only repaint, socket-to-flip
        // latency), measured on PaneldCore's loop and renderer; not installed.
        .executableTarget(name: "paneld-bench", dependencies: ["PaneldCore", "PanelGauge", "PanelDisplay"]),
        // The display library's example (its DocC article shows this file; the x86_64
        // e2e runs it on bochs and compares the scanout with its own --png frame).
        .executableTarget(name: "gauge-on-screen", dependencies: ["PanelGauge", "PanelScene", "PanelDisplay"]),
        .target(name: "PaneldFuzz", dependencies: ["PaneldCore"]),
        .testTarget(
            name: "PanelGaugeTests", dependencies: ["PanelGauge"],
            exclude: ["References"]
        ),
        .testTarget(name: "PanelSceneTests", dependencies: ["PanelScene", "PanelGauge"]),
        .testTarget(
            name: "PanelDisplayTests", dependencies: ["PanelDisplay", "PanelDisplayFakes", "PanelGauge", "CDRM"]),
        .testTarget(
            name: "paneldTests",
            dependencies: ["PaneldCore", "paneld", "paneld-bench", "PanelGauge", "PanelDisplay", "PanelDisplayFakes"]),
    ]
)
