#!/usr/bin/env bash
# Runs the date-sensitive suites with every clock of the run pinned to instants that break naive
# date code (decisions-server.md §69): the servers and the CLI read SWITCHBOARD_TEST_CLOCK
# (server/clock.ts, refused unless NODE_ENV=test), the test processes move their Date there
# (scripts/pinned-clock-setup.ts, e2e/support/test-clock.ts), and each browser context installs
# Playwright's clock at the same instant. Time then runs on at the real rate from that instant.
#
#   bash scripts/pinned-clocks.sh                 every instant below
#   bash scripts/pinned-clocks.sh saturday leap-day
#
# It runs against the current build (npm run build, which npm test does first).
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC NODE_ENV=test

declare -A INSTANTS=(
  # Late on a Saturday in UTC, already Sunday in Berlin and Tokyo.
  [saturday]=2027-01-02T22:30:00Z
  [sunday]=2027-01-03T12:00:00Z
  # 01:00 UTC: Berlin goes from 02:00 CET to 03:00 CEST, five minutes into the run.
  [berlin-dst]=2027-03-28T00:55:00Z
  # 06:00 UTC: New York goes from 02:00 EDT back to 01:00 EST, five minutes into the run.
  [new-york-dst]=2027-11-07T05:55:00Z
  # The year turns a minute into the run.
  [new-year]=2026-12-31T23:59:00Z
  [leap-day]=2028-02-29T12:00:00Z
)
ALL=(saturday sunday berlin-dst new-york-dst new-year leap-day)

# The suites whose answers depend on the date: scheduling and tasks (windows, working days, zones,
# deadlines), mic grants and their expiry, history retention, the time formatter.
UNIT=(
  shared/oacop
  shared/aor/decide-candidate.test.ts shared/aor/grant-check shared/aor/mic-grants shared/aor/stored-grants
  shared/aor/time shared/aor/presence
  web/features/scheduling web/features/tasks web/lib/time-words.test.ts web/lib/oacop
)
INTEGRATION=(
  server/oacop
  server/gateway/gateway.test.ts
  server/rooms/history-retention.test.ts
  server/store/sqlite/sqlite-store.test.ts
  server/clock.test.ts
)
JOURNEYS=(e2e/pinned-clock.spec.ts e2e/scheduling.spec.ts e2e/tasks.spec.ts)

for name in "${@:-${ALL[@]}}"; do
  instant="${INSTANTS[$name]:-}"
  [ -n "$instant" ] || { echo "unknown instant \"$name\"; known: ${ALL[*]}" >&2; exit 2; }
  # The instant stands for this real moment: every process of the run agrees on the time.
  export SWITCHBOARD_TEST_CLOCK="$instant@$(date +%s%3N)"
  printf '\n\033[1m== pinned at %s (%s) ==\033[0m\n' "$instant" "$name"
  # One Vitest run for both projects: its workers take unit and integration files alike.
  npx vitest run --project unit --project integration "${UNIT[@]}" "${INTEGRATION[@]}"
  npx playwright test "${JOURNEYS[@]}"
done
