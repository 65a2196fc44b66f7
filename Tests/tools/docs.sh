#!/usr/bin/env bash
# Builds the libraries' documentation, PanelGauge's and PanelDisplay's (their DocC
# catalogs Sources/NAME/NAME.docc and the doc comments), with the toolchain's docc,
# warnings as errors: a broken symbol link, an undocumented parameter or a malformed
# comment fails. Then counts each library's public symbols without a doc comment
# (printed, not a failure).
#
# Usage: bash Tests/tools/docs.sh [OUTPUT-DIR]   (default .build/docs; NAME.doccarchive in it)
# No swift-docc-plugin: the symbol graphs come from the compiler (-emit-symbol-graph).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${1:-$ROOT/.build/docs}
SG=$(mktemp -d /tmp/paneld-symbols.XXXXXX)
trap 'rm -rf "$SG"' EXIT
cd "$ROOT"
for module in PanelGauge PanelDisplay; do
    all=$SG/all-$module && one=$SG/$module && mkdir -p "$all" "$one"
    swift build --target "$module" -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$all" >/dev/null
    # The module's own graphs (its extensions of other modules' types included), not its dependencies'.
    cp "$all/$module".symbols.json "$one/"
    for f in "$all/$module"@*.symbols.json; do [ -e "$f" ] && cp "$f" "$one/"; done
    rm -rf "$OUT/$module.doccarchive"
    mkdir -p "$OUT"
    docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$one" \
        --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
        --warnings-as-errors --output-path "$OUT/$module.doccarchive"
    python3 - "$one/$module.symbols.json" "$module" <<'PY'
import json, sys
symbols = json.load(open(sys.argv[1]))["symbols"]
public = [s for s in symbols if s["accessLevel"] in ("public", "open")]
bare = [s for s in public if not s.get("docComment")]
print(f"docs {sys.argv[2]}: {len(public) - len(bare)} of {len(public)} public symbols documented ({len(bare)} without a doc comment)")
PY
    echo "docs: $OUT/$module.doccarchive"
done
