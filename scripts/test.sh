#!/usr/bin/env bash
# The whole test run, in order: typecheck, lint, unit and property tests (with shared/ coverage),
# integration tests against real engines, build, Playwright journeys in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    step "installing Debian's Chromium"
    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null \
      || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null; }
  else
    echo "Chromium is missing at $CHROMIUM: install Debian's chromium package (or set CHROMIUM_PATH)." >&2
    exit 1
  fi
fi

step typecheck;            npm run --silent typecheck
step lint;                 npm run --silent lint
step "unit and property";  npm run --silent test:unit
step integration;          npm run --silent test:integration
step build;                npm run --silent build -- --logLevel warn
step "end-to-end (Chromium)"; npm run --silent test:e2e
