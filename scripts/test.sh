#!/usr/bin/env bash
# The one test command (README: `npm test`). Type-check, lint, then every test file, listed explicitly:
# Node 20's `node --test` does not discover .ts files by itself. The files run from esbuild bundles
# (scripts/bundle-tests.ts): through tsx each test process spent about 0.5-1 s of CPU loading its
# modules (decision 0075). Failures still point at the .ts sources, through the source maps.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npx tsc -p tsconfig.json --noEmit
echo "== lint"; npx eslint --max-warnings 0 .
# The longest files start first, so that none of them is left running alone on one of the two lanes at
# the end (the corpus over a cluster alone takes 3-4.5 minutes; decision 0075).
first=(test/sql/slt-cluster.test.ts test/gateway/cluster.test.ts test/integration/storage-gc.test.ts)
mapfile -t rest < <(find protocol net sql replica client sim cli bench operator test -name '*.test.ts' -not -path '*/node_modules/*' 2>/dev/null | sort | grep -vxF -f <(printf '%s\n' "${first[@]}"))
files=("${first[@]}" "${rest[@]}")
if [ "${#files[@]}" -eq 0 ]; then echo "no test files found" >&2; exit 1; fi
echo "== ${#files[@]} test files"
out=node_modules/.cache/pesto/tests
node --import tsx scripts/bundle-tests.ts "$out" "${files[@]}"
bundled=("${files[@]/#/$out/}")
bundled=("${bundled[@]/%.ts/.mjs}")
exec node --enable-source-maps --test --test-concurrency=2 "${bundled[@]}"
