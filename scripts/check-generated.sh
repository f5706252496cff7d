#!/usr/bin/env bash
# Regenerates into a temporary directory and fails on any difference from the committed generated/ tree.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bash scripts/generate.sh "$tmp"
if ! diff -ru generated "$tmp/generated"; then
  echo "generated/ is out of date with spec/openapi.yaml: run 'npm run generate' and commit the result." >&2
  exit 1
fi
echo "generated/ matches spec/openapi.yaml"
