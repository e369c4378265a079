#!/usr/bin/env bash
# Make PostgreSQL's server programs (initdb, pg_ctl) available for the judge's tests,
# installing Debian's postgresql package when they are missing. The tests start their
# own throwaway cluster (tests/pg.py); this script only installs, it starts nothing.
set -euo pipefail
have() {
  compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || command -v pg_ctl >/dev/null
}
if have; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# policy-rc.d: the package must not start (or fail to start) its own cluster here
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
$SUDO apt-get install -y -q --no-install-recommends postgresql
have || { echo "error: postgresql installed but pg_ctl not found" >&2; exit 1; }
