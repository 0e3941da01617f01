#!/usr/bin/env bash
# Regenerates the static protobuf codec from protocol/pesto.proto (checked in; run after editing it).
set -euo pipefail
cd "$(dirname "$0")/.."
npx pbjs -t static-module -w es6 --no-create --no-verify --no-convert --no-delimited --force-number -o protocol/gen/pesto.js protocol/pesto.proto
npx pbts -o protocol/gen/pesto.d.ts protocol/gen/pesto.js
