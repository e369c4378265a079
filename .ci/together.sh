#!/usr/bin/env bash
# Usage: bash .ci/together.sh 'FIRST && COMMANDS' 'SECOND && COMMANDS'
#
# Run two command lines at the same time and fail if either fails. The test command
# (README, "Tests") uses it to run the pure-Python pass (then mypy and ruff) beside the
# compiled build and its pass: each pass keeps one core busy and leaves the other mostly
# idle (its servers, PostgreSQL and Chromium wait on it more than they work), so side by
# side on a 2-core machine they take about the time of the longer one instead of the
# sum. They share nothing that could make them flaky: each pytest session starts its
# own PostgreSQL cluster, judge servers, SMTP servers and Ray instance on free ports,
# names its databases after its own process id, and writes under its own temporary
# directory (the screenshots in tests/artifacts/ are written, never read back).
#
# The first line's output is shown as it comes; the second's is kept in a file and
# shown in one piece when the first has ended, so the two never interleave and the
# last lines printed are the second line's (its pytest summary).
set -uo pipefail
if [ "$#" -ne 2 ]; then
  echo "usage: bash .ci/together.sh 'FIRST COMMANDS' 'SECOND COMMANDS'" >&2
  exit 2
fi
log=$(mktemp "${TMPDIR:-/tmp}/standoff-together.XXXXXX")
first="" second=""
# interrupted: stop both lines (each is its own process group, thanks to set -m)
cleanup() {
  for pid in $first $second; do
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done
  rm -f "$log"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
set -m
bash -c "$2" >"$log" 2>&1 </dev/null &
second=$!
bash -c "$1" </dev/null &
first=$!
set +m
wait "$first"
first_status=$?
first=""
wait "$second"
second_status=$?
second=""
echo "---- output of: $2"
cat "$log"
if [ "$first_status" -ne 0 ] || [ "$second_status" -ne 0 ]; then
  echo "together.sh: first exited $first_status, second exited $second_status" >&2
  exit 1
fi
