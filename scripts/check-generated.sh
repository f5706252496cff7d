#!/usr/bin/env bash
# Regenerates into a temporary directory and fails on any difference from the committed generated trees
# (scripts/generated-trees.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bash scripts/generate.sh "$tmp"
status=0
while read -r tree; do
  case "$tree" in ''|'#'*) continue ;; esac
  if ! diff -ru -x __pycache__ "$tree" "$tmp/$tree"; then status=1; fi
done < scripts/generated-trees.txt
# Files outside the trees that follow the spec: the TypeScript SDK's package version.
npx --no-install tsx scripts/sdk-version.ts "$tmp/generated/openapi.yaml" --check || status=1
if [ "$status" != 0 ]; then
  echo "generated code is out of date with the contract in spec/: run 'npm run generate' and commit the result." >&2
  exit 1
fi
echo "generated code matches the contract in spec/ ($(grep -cv '^#' scripts/generated-trees.txt) trees)"
