#!/usr/bin/env bash
# n8n's community-package checks, run on the tarball this repo would publish.
#
#   scripts/scan-package.sh              build, pack, check
#   scripts/scan-package.sh --no-build   pack the dist/ already built (e.g. right after `npm test`)
#
# 1. `npm pack --dry-run --json` may list only package.json, README, LICENSE and dist/.
# 2. dist/ may hold no compiled file whose TypeScript source is gone (tsc never cleans dist/).
# 3. The lint part of `@n8n/scan-community-package` (pinned dev dependency), through its own
#    exported `analyzePackage` and ESLint config (`buildScanConfig`), exactly as
#    `analyzePackageByName` calls it after the provenance step:
#      - tarball leg: the unpacked tarball, patterns ['**/*.js', 'package.json'];
#      - source leg: this checkout, patterns SOURCE_FILE_PATTERNS (package.json, nodes/, credentials/)
#        — the scanner lints the source commit named by the npm provenance attestation; before
#        publishing, that commit is this working tree.
#    Skipped: the provenance check and the downloads (they need a published version).
# Prints the tarball size and the time taken. Exits 1 on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_START=$(date +%s%N)

build=1
for arg in "$@"; do
	case "$arg" in
		--no-build) build=0 ;;
		*) echo "usage: $0 [--no-build]" >&2; exit 2 ;;
	esac
done

SCANNER="$ROOT/node_modules/@n8n/scan-community-package/scanner/scanner.mjs"
if [[ ! -f "$SCANNER" ]]; then
	echo "❌ @n8n/scan-community-package is not installed (npm ci installs the pinned dev dependency)" >&2
	exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/scan-package.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
findings=0
finding() { echo "❌ $*"; findings=$((findings + 1)); }

if [[ $build -eq 1 ]]; then
	echo "Building…"
	npm run --silent build >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; echo "❌ build failed"; exit 1; }
fi
[[ -d dist ]] || { echo "❌ dist/ is missing: run npm run build (or drop --no-build)"; exit 1; }

# 1. What npm would publish.
npm pack --dry-run --json 2>/dev/null >"$WORK/dry-run.json"
if ! node - "$WORK/dry-run.json" <<'EOF'
const [entry] = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
const allowed = (p) => p === 'package.json' || /^(README|LICENSE)(\.md|\.txt)?$/i.test(p) || p.startsWith('dist/');
const paths = entry.files.map((f) => f.path);
const extra = paths.filter((p) => !allowed(p));
for (const required of ['package.json', 'README.md', 'LICENSE']) {
	if (!paths.includes(required)) console.log(`❌ the package lacks ${required}`);
}
if (extra.length) console.log(`❌ npm pack would publish files outside dist/, README, LICENSE, package.json: ${extra.join(', ')}`);
console.log(`${paths.length} files in the dry run (${paths.filter((p) => p.startsWith('dist/')).length} under dist/)`);
process.exit(extra.length || !['package.json', 'README.md', 'LICENSE'].every((r) => paths.includes(r)) ? 1 : 0);
EOF
then findings=$((findings + 1)); fi

# 2. Compiled files whose source is gone would still be published.
stale=$(cd dist && find . -name '*.js' | sed -e 's|^\./||' -e 's|\.js$||' | while read -r f; do
	[[ -f "$ROOT/$f.ts" ]] || echo "dist/$f.js"
done)
[[ -z "$stale" ]] || finding "dist/ holds compiled files without a TypeScript source (stale build output): $stale"

# 3. The tarball itself.
npm pack --pack-destination "$WORK" --json 2>/dev/null >"$WORK/pack.json"
tarball="$WORK/$(node -p "require('$WORK/pack.json')[0].filename")"
size=$(stat -c %s "$tarball")
unpacked=$(node -p "require('$WORK/pack.json')[0].unpackedSize")
echo "Tarball $(basename "$tarball"): $size bytes ($(( (size + 1023) / 1024 )) KiB), $unpacked bytes unpacked"
mkdir "$WORK/package"
tar -xzf "$tarball" -C "$WORK/package" --strip-components=1

if ! node --input-type=module - "$SCANNER" "$WORK/package" "$ROOT" <<'EOF'
import { pathToFileURL } from 'node:url';
const [scanner, packageDir, sourceDir] = process.argv.slice(2);
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(pathToFileURL(scanner).href);
let passed = true;
for (const [leg, dir, patterns] of [
	['tarball', packageDir, ['**/*.js', 'package.json']],
	['source', sourceDir, SOURCE_FILE_PATTERNS],
]) {
	const result = await analyzePackage(dir, patterns);
	console.log(`${result.passed ? '✅' : '❌'} scan-community-package lint, ${leg} leg${result.message ? `: ${result.message}` : ''}`);
	if (result.details) console.log(result.details);
	passed &&= result.passed;
}
process.exit(passed ? 0 : 1);
EOF
then findings=$((findings + 1)); fi

elapsed_ms=$(( ($(date +%s%N) - SECONDS_START) / 1000000 ))
if [[ $findings -gt 0 ]]; then
	echo "❌ package scan: $findings check(s) failed (${elapsed_ms} ms)"
	exit 1
fi
echo "✅ package scan passed (${elapsed_ms} ms)"
