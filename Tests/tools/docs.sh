#!/usr/bin/env bash
# Builds the libraries' documentation, PanelGauge's, PanelScene's and PanelDisplay's (their DocC
# catalogs Sources/NAME/NAME.docc and the doc comments), with the toolchain's docc,
# warnings as errors: a broken symbol link, an undocumented parameter or a malformed
# comment fails. Then lists each library's public symbols without a doc comment, and
# its top-level symbols that no topic of the landing page lists; any such symbol
# fails the script (exit 1) after every library is built.
#
# Usage: bash Tests/tools/docs.sh [OUTPUT-DIR]   (default .build/docs; NAME.doccarchive in it)
# No swift-docc-plugin: the symbol graphs come from the compiler (-emit-symbol-graph).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${1:-$ROOT/.build/docs}
SG=$(mktemp -d /tmp/paneld-symbols.XXXXXX)
trap 'rm -rf "$SG"' EXIT
cd "$ROOT"
status=0
for module in PanelGauge PanelScene PanelDisplay; do
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
    # Symbols without a doc comment fail the check. Excluded: symbols whose location is
    # not a file in this package's Sources (or that have no location), which are the ones
    # the compiler synthesizes or inherits from other modules, e.g. Equatable's `!=`,
    # Hashable's `hash(into:)` or the standard library protocols' default implementations.
    python3 - "$one" "$module" "$ROOT/Sources/" <<'PY' || status=1
import glob, json, os, sys
from urllib.parse import unquote, urlparse
directory, module, sources = sys.argv[1], sys.argv[2], sys.argv[3]
seen, public, bare = set(), [], []
for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
    for s in json.load(open(path))["symbols"]:
        if s["accessLevel"] not in ("public", "open"):
            continue
        uri = s.get("location", {}).get("uri", "")
        file = unquote(urlparse(uri).path) if uri else ""
        if not file.startswith(sources):
            continue
        key = s["identifier"]["precise"]
        if key in seen:
            continue
        seen.add(key)
        public.append(s)
        if not s.get("docComment"):
            bare.append((os.path.relpath(file, sources), s["location"]["position"]["line"] + 1,
                         s["kind"]["displayName"], ".".join(s["pathComponents"])))
print(f"docs {module}: {len(public) - len(bare)} of {len(public)} public symbols documented ({len(bare)} without a doc comment)")
for file, line, kind, name in sorted(bare):
    print(f"  {file}:{line}: {kind} {name}")
# Curation: every top-level symbol (a type, a protocol, a global function or
# constant) is listed under a topic of the landing page, so none falls into
# DocC's automatic "Structures"/"Functions" groups.
landing = open(os.path.join(sources, module, module + ".docc", module + ".md")).read()
topics = landing.split("## Topics", 1)[1] if "## Topics" in landing else ""
top = sorted({s["pathComponents"][0] for s in public if len(s["pathComponents"]) == 1})
loose = [name for name in top if "``" + name + "``" not in topics and "``" + name + "/" not in topics]
print(f"docs {module}: {len(top) - len(loose)} of {len(top)} top-level symbols curated in {module}.md's topics")
for name in loose:
    print(f"  not in a topic: {name}")
sys.exit(1 if bare or loose else 0)
PY
    echo "docs: $OUT/$module.doccarchive"
done
exit $status
