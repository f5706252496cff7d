#!/usr/bin/env bash
# `npm run lint`: every static check of the hand-written code (the `lint:*` scripts of package.json), each run even
# when an earlier one fails, then one line naming the ones that failed.
# - biome: format and lint rules (biome.json).
# - duplication: jscpd over the scope in .jscpd.json, failing above its `threshold` (percent of duplicated lines).
# - imports: dependency-cruiser with the rules of .dependency-cruiser.cjs (no cycles, no upward imports, Knex only
#   in repositories and migrations, server code imported only by tests and tools).
# - comments: scripts/check-comments.ts (paths named in comments exist; no history in comments).
# - length: scripts/check-file-length.ts (no hand-written file over 400 lines).
# The last two tolerate the known offenders listed in scripts/lint-baseline.txt, a list that may only shrink.
set -euo pipefail
cd "$(dirname "$0")/.."
failed=()
check() {
  local name="$1"
  shift
  printf '==> %s\n' "$name"
  if ! "$@"; then failed+=("$name"); fi
}
duplication() {
  local out
  if out="$(npm run -s lint:duplication -- --no-colors --no-tips 2>&1)"; then
    # Only the totals when the threshold holds; the whole list of clones when it does not. The totals row reads
    # "Total: files lines tokens clones duplicated-lines (percent) duplicated-tokens (percent)".
    local _ files lines _tokens clones duplicated percent rest
    read -r _ files lines _tokens clones duplicated percent rest <<<"$(grep 'Total:' <<<"$out" | tr -s ' │' ' ')"
    echo "duplication: ok, $duplicated of $lines lines duplicated $percent in $clones clones over $files files" \
      "(threshold in .jscpd.json)"
  else
    echo "$out"
    echo "duplication: above the threshold of .jscpd.json: remove the clones listed above" \
      "(a shared helper in test/support/ or a function both callers use), never raise the threshold." >&2
    return 1
  fi
}
imports() {
  npm run -s lint:imports -- --output-type err || {
    echo "imports: an import breaks a rule of .dependency-cruiser.cjs (each rule's comment says why it exists)." >&2
    return 1
  }
}
check biome npm run -s lint:biome
check duplication duplication
check imports imports
check comments npm run -s lint:comments
check length npm run -s lint:length
if [ "${#failed[@]}" -gt 0 ]; then
  echo "lint failed: ${failed[*]}" >&2
  exit 1
fi
echo "lint: all checks passed"
