#!/usr/bin/env bash
# The whole test run: typecheck, lint and build side by side, then unit and property tests (with
# shared/ coverage) and integration tests against real engines while the lint goes on, Playwright
# journeys in Debian's Chromium, then the date-sensitive suites with the clocks pinned at a Saturday
# night and a daylight-saving night.
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC

# Each step's heading says how far into the run it starts, to see where the time goes.
step() { printf '\n\033[1m== %s (at %dm%02ds) ==\033[0m\n' "$1" $((SECONDS / 60)) $((SECONDS % 60)); }

# Installs a Debian package when running as root, or says what to install and stops.
need_package() { # <package> <what is missing>
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    step "installing Debian's $1"
    DEBIAN_FRONTEND=noninteractive apt-get install -y "$1" >/dev/null \
      || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y "$1" >/dev/null; }
  else
    echo "$2: install Debian's $1 package." >&2
    exit 1
  fi
}

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] || need_package chromium "Chromium is missing at $CHROMIUM (or set CHROMIUM_PATH)"

# The external-broker suites need Mosquitto 2 and its dynamic-security plugin, both in Debian's
# mosquitto package; they fail without it (server/test-support/private-mosquitto.ts).
MOSQUITTO="${MOSQUITTO_BIN:-$(command -v mosquitto || echo /usr/sbin/mosquitto)}"
[ -x "$MOSQUITTO" ] || need_package mosquitto "Mosquitto is missing at $MOSQUITTO (or set MOSQUITTO_BIN)"

# The Python example (examples/examples.test.ts) runs on Debian's paho-mqtt where PyPI cannot be
# reached, and is skipped, saying why, where neither can be had: so a failed install does not stop
# the run (the subshell keeps need_package's exit from ending it).
/usr/bin/python3 -c 'import paho.mqtt.client' 2>/dev/null \
  || (need_package python3-paho-mqtt "paho-mqtt is missing for /usr/bin/python3") \
  || echo "No python3-paho-mqtt: the Python example runs only if PyPI can be reached, else it is skipped." >&2

# The typecheck (TypeScript 7, which checks on several threads), ESLint (one core) and the build
# start side by side; the build writes only dist/, which neither reads. The tests wait for the
# typecheck and the build only: ESLint, the longest of the three, runs on beside the unit and
# integration tests (decisions-server.md §92), and the journeys start once it has passed. Each
# check is printed whole when it ends; a failed one stops the run.
logs="$(mktemp -d)"
declare -A jobs=()
# A run that stops early leaves no check running behind it (each is its own process group).
trap 'for pid in "${jobs[@]}"; do kill -- "-$pid" 2>/dev/null || true; done; rm -rf "$logs"' EXIT
start_job() { # <name> <command...>
  local name="$1"; shift
  setsid "$@" >"$logs/$name" 2>&1 &
  jobs[$name]=$!
}
finish_job() { # <name>: waits for it, prints it; a failure stops the run
  local name="$1" status=0
  wait "${jobs[$name]}" || status=$?
  unset "jobs[$name]"
  if [ "$status" = 0 ]; then step "$name"; else step "$name (failed)"; fi
  cat "$logs/$name"
  return "$status"
}
start_job lint npm run --silent lint
start_job typecheck npm run --silent typecheck
start_job build npm run --silent build -- --logLevel warn
failed=0
finish_job typecheck || failed=1
finish_job build || failed=1
[ "$failed" = 0 ] || exit 1

step "unit and property";  npm run --silent test:unit
step integration;          npm run --silent test:integration
finish_job lint
step "end-to-end (Chromium)"; npm run --silent test:e2e
# The date-sensitive suites again, every clock pinned at instants that break naive date code
# (decisions-server.md §69); scripts/pinned-clocks.sh with no argument runs all six.
bash scripts/pinned-clocks.sh saturday berlin-dst
step "all passed"
