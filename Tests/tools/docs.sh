#!/usr/bin/env bash
# Builds PanelGauge's documentation (the DocC catalog Sources/PanelGauge/PanelGauge.docc
# and the doc comments) with the toolchain's docc, warnings as errors: a broken
# symbol link, an undocumented parameter or a malformed comment fails. Then counts
# the public symbols without a doc comment (printed, not yet a failure).
#
# Usage: bash Tests/tools/docs.sh [OUTPUT-DIR]   (default .build/docs/PanelGauge.doccarchive)
# No swift-docc-plugin: the symbol graph comes from the compiler (-emit-symbol-graph).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${1:-$ROOT/.build/docs/PanelGauge.doccarchive}
SG=$(mktemp -d /tmp/paneld-symbols.XXXXXX)
trap 'rm -rf "$SG"' EXIT
cd "$ROOT"
swift build --target PanelGauge -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$SG" >/dev/null
rm -rf "$OUT"
mkdir -p "$(dirname "$OUT")"
docc convert Sources/PanelGauge/PanelGauge.docc --additional-symbol-graph-dir "$SG" \
    --fallback-display-name PanelGauge --fallback-bundle-identifier PanelGauge \
    --warnings-as-errors --output-path "$OUT"
python3 - "$SG/PanelGauge.symbols.json" <<'PY'
import json, sys
symbols = json.load(open(sys.argv[1]))["symbols"]
public = [s for s in symbols if s["accessLevel"] in ("public", "open")]
bare = [s for s in public if not s.get("docComment")]
print(f"docs: {len(public) - len(bare)} of {len(public)} public symbols documented ({len(bare)} without a doc comment)")
PY
echo "docs: $OUT"
