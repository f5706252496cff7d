#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the browser test (test/browser/): prints the browser's path on stdout
# and exits 0 when it is there or could be installed; exits 3 with the reason on stderr when it cannot be (no
# apt-get, not root, or the install failed), in which case the test skips itself with that reason.
#
#   MERIDIAN_CHROMIUM=/path/to/chromium   use that browser instead of /usr/bin/chromium
#
# A test tool's own browser download (`npx playwright install`) cannot work on these machines; Debian's package
# can (docs/toolchain.md, "Browsers"), so that is what is installed.
set -euo pipefail

browser="${MERIDIAN_CHROMIUM:-/usr/bin/chromium}"
say() { printf 'ensure-chromium: %s\n' "$*" >&2; }

if [[ -x "$browser" ]]; then
  echo "$browser"
  exit 0
fi
if [[ -n "${MERIDIAN_CHROMIUM:-}" ]]; then
  say "MERIDIAN_CHROMIUM=$browser is not an executable"
  exit 3
fi
if ! command -v apt-get >/dev/null 2>&1; then
  say "Chromium is not installed at $browser and apt-get is not available to install it"
  exit 3
fi
if [[ $EUID -ne 0 ]]; then
  say "Chromium is not installed at $browser; installing it needs root (apt-get install chromium)"
  exit 3
fi
log="$(mktemp "${TMPDIR:-/tmp}/meridian-chromium-apt-XXXXXX.log")"
say "installing Debian's chromium with apt-get (log: $log)"
if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } \
    </dev/null >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  say "apt-get install chromium failed"
  exit 3
fi
if [[ ! -x "$browser" ]]; then
  say "apt-get installed chromium but $browser is missing"
  exit 3
fi
version="$("$browser" --version 2>/dev/null || true)"
say "installed: ${version%%$'\n'*}"
echo "$browser"
