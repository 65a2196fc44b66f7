#!/usr/bin/env bash
# A Swift package that depends on PanelGauge and PanelScene by version, as
# another program would: this tree's committed HEAD is cloned into a scratch git repository and
# tagged with packaging/VERSION; a small package requires
# `.package(url: "file://...", from: VERSION)`, builds (release, as an
# application would), runs the code of the DocC article "A first gauge" and
# writes its PNG, which must hold the gauge's colours over the background; then
# moves the gauge in a PanelScene scene by its damage alone, which must give the
# full redraw's pixels. SwiftPM refuses such a dependency when a target it
# builds has unsafe flags, so this fails if PanelGauge or PanelScene gains one.
#
# Usage: bash Tests/tools/depend-by-version.sh   (needs git and swift; no network)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VERSION=$(cat "$ROOT/packaging/VERSION")
W=$(mktemp -d /tmp/depend-by-version.XXXXXX)
trap 'rm -rf "$W"' EXIT
t0=$SECONDS

git clone -q --no-hardlinks "$ROOT" "$W/paneld"
git -C "$W/paneld" -c user.name=test -c user.email=test@localhost tag -a "$VERSION" -m "$VERSION"

mkdir -p "$W/app/Sources/app"
cat >"$W/app/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "app",
    dependencies: [.package(url: "file://$W/paneld", from: "$VERSION")],
    targets: [
        .executableTarget(
            name: "app",
            dependencies: [
                .product(name: "PanelGauge", package: "paneld"), .product(name: "PanelScene", package: "paneld"),
            ])
    ]
)
EOF
# The code of the DocC article "A first gauge" (its first block, which
# DocArticleTests also runs), then the PNG written and its colours counted.
{
    printf '#if canImport(Glibc)\n    import Glibc\n#endif\n'
    # The PNG goes where the script says instead of the article's /tmp/cpu.png.
    awk '/^```swift$/ {inside = 1; n++; next} /^```$/ {inside = 0; next} inside && n == 1' \
        "$ROOT/Sources/PanelGauge/PanelGauge.docc/Articles/FirstGauge.md" |
        sed 's|to: "/tmp/cpu.png")|to: CommandLine.arguments[1])|'
} >"$W/app/Sources/app/main.swift"
grep -q "PNG.write(image.surface, to: CommandLine.arguments\[1\])" "$W/app/Sources/app/main.swift" ||
    { echo "FAIL depend-by-version: no code block writing the PNG in the FirstGauge article"; exit 1; }
cat >>"$W/app/Sources/app/main.swift" <<'EOF'
// The gauge at 73 % is orange (threshold 60): count the pixels of that hue.
var orange = 0
for y in 0..<120 {
    let row = image.surface.row(y).assumingMemoryBound(to: UInt32.self)
    for x in 0..<160 {
        let p = row[x]
        let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
        if r > 200 && g > 100 && g < 200 && b < 80 { orange += 1 }
    }
}
print("orange pixels: \(orange)")

// The gauge in a scene, moved from 73 to 20 by its damage alone, equals a full redraw at 20.
import PanelScene
let frame = IntRect(x: 0, y: 0, width: 160, height: 120)
let scene = GaugeScene(width: 160, height: 120, items: [SceneItem("cpu", cpu, in: frame)], background: .black)
let whole = GaugeScene(
    width: 160, height: 120, items: [SceneItem("cpu", cpu, in: frame)], background: .black, cachesPictures: false)
let (before, after) = (SceneState(values: ["cpu": 73]), SceneState(values: ["cpu": 20]))
let moved = Image(width: 160, height: 120), redrawn = Image(width: 160, height: 120)
scene.drawAll(moved.surface, state: before)
let damage = scene.damage(from: before, to: after)
scene.draw(moved.surface, rects: damage, state: after)
whole.drawAll(redrawn.surface, state: after)
let same = (0..<120).allSatisfy { y in
    (0..<160).allSatisfy { moved.surface.pixel(x: $0, y: y) == redrawn.surface.pixel(x: $0, y: y) }
}
print("scene damage: \(damage.count) rectangle(s), same as a full redraw: \(same)")
EOF

cd "$W/app"
if ! swift build -c release >"$W/build.log" 2>&1; then
    tail -20 "$W/build.log"
    echo "FAIL depend-by-version: a package requiring PanelGauge from $VERSION does not build"
    exit 1
fi
grep -q "Computed file://$W/paneld at $VERSION\|Computed .*paneld at $VERSION" "$W/build.log" ||
    grep -q "\"version\" : \"$VERSION\"" Package.resolved ||
    { cat Package.resolved; echo "FAIL depend-by-version: not resolved at version $VERSION"; exit 1; }
out=$(.build/release/app "$W/gauge.png")
echo "$out"
n=$(sed -n 's/orange pixels: //p' <<<"$out")
head -c 8 "$W/gauge.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || { echo "FAIL depend-by-version: no PNG written"; exit 1; }
if [ "${n:-0}" -lt 100 ]; then
    echo "FAIL depend-by-version: the gauge was not drawn ($n orange pixels)"
    exit 1
fi
grep -q "same as a full redraw: true" <<<"$out" ||
    { echo "FAIL depend-by-version: PanelScene's damage-only update differs from a full redraw"; exit 1; }
echo "PASS depend-by-version: resolved PanelGauge and PanelScene $VERSION by version, built release, drew the gauge ($n orange pixels) and moved it by its damage in $((SECONDS - t0)) s"
