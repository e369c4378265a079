#!/usr/bin/env bash
# Make Debian's Chromium (/usr/bin/chromium) available for the browser tests
# (tests/test_browser_*.py drive it through Playwright with executable_path),
# installing Debian's chromium package when it is missing. Playwright's own browser
# downloads are never used (never run `playwright install`). Installs only.
set -euo pipefail
have() {
  [ -x /usr/bin/chromium ]
}
if have; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# fonts-liberation: metric-compatible fonts, so text in pages and screenshots is legible
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-liberation
have || { echo "error: chromium installed but /usr/bin/chromium not found" >&2; exit 1; }
