#!/usr/bin/env bash
# The one test command (README: `npm test`). Type-check, lint, then every test file, listed explicitly:
# Node 20's `node --test` does not discover .ts files by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npx tsc -p tsconfig.json --noEmit
echo "== lint"; npx eslint --max-warnings 0 .
mapfile -t files < <(find protocol net sql replica client sim cli bench operator test -name '*.test.ts' -not -path '*/node_modules/*' 2>/dev/null | sort)
if [ "${#files[@]}" -eq 0 ]; then echo "no test files found" >&2; exit 1; fi
echo "== ${#files[@]} test files"
exec node --import tsx --test --test-concurrency=2 "${files[@]}"
