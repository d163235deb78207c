#!/usr/bin/env bash
# The whole test run, in order: typecheck, lint, unit and property tests (with shared/ coverage),
# integration tests against real engines, build, Playwright journeys in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

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

step typecheck;            npm run --silent typecheck
step lint;                 npm run --silent lint
step "unit and property";  npm run --silent test:unit
step integration;          npm run --silent test:integration
step build;                npm run --silent build -- --logLevel warn
step "end-to-end (Chromium)"; npm run --silent test:e2e
