#!/usr/bin/env bash
# Make Debian's caddy (the HTTPS proxy of deploy/Caddyfile) and systemd-analyze (which
# checks deploy/*.service) available for tests/test_deploy.py, installing their packages
# when missing. Like .ci/postgres.sh it only installs: the test starts its own Caddy, and
# the package must not start (or fail to start) a caddy service of its own here.
set -euo pipefail
have() { command -v caddy >/dev/null && command -v systemd-analyze >/dev/null; }
if have; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
# systemd-analyze is in the systemd package on Debian 12
$SUDO apt-get install -y -q --no-install-recommends caddy systemd
have || { echo "error: caddy or systemd-analyze still missing after the install" >&2; exit 1; }
