#!/usr/bin/env bash
# What `npm test` runs (after `npm ci`): every check in order, stopping at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

steps=(
  'system dependencies|bash scripts/ensure-system-deps.sh'
  'lint|npm run lint'
  'typecheck|npm run typecheck'
  'unit tests (contract, robot-sim, web)|npm run test:unit'
  'server tests on SQLite|npm run test:server'
  'server tests on PostgreSQL|npm run test:server:pg'
  'build web app|npm run build:web'
  'end-to-end tests|npm run test:e2e'
)

passed=()
current=''
started_all=$SECONDS
step_log="$(mktemp "${TMPDIR:-/tmp}/test-all-step.XXXXXX")"

# What went wrong in the failed step, in a few lines at the very end (just before the verdict): the end
# of a long log, all a CI page may keep, then still names the failed tests and any unhandled error with
# its first stack lines, which vitest and Playwright print far above their own summaries.
digest() {
  [[ -s "$step_log" ]] || return 0
  local lines
  lines="$(sed -e 's/\x1b\[[0-9;]*m//g' "$step_log" |
    grep -E -A3 '^ *(FAIL|×|✘) |^ +[0-9]+\) |Unhandled (Rejection|Error|Exception)|Uncaught Exception|^ *(Error|[A-Za-z]*Error): ' |
    grep -v -E '^ *(--)?$' | head -n 18)" || true
  [[ -n "$lines" ]] || return 0
  echo "  ---- what failed in $current ----"
  echo "$lines"
}

summary() {
  local rc=$?
  echo
  echo '==================== summary ===================='
  local p
  for p in "${passed[@]}"; do echo "  ok    $p"; done
  if ((rc != 0)) && [[ -n "$current" ]]; then
    echo "  FAIL  $current (exit $rc)"
    local seen=1 step
    for step in "${steps[@]}"; do
      if ((seen == 0)); then echo "  skip  ${step%%|*}"; fi
      [[ "${step%%|*}" == "$current" ]] && seen=0
    done
  fi
  echo "  total $((SECONDS - started_all)) s"
  if ((rc != 0)) && [[ -n "$current" ]]; then digest; fi
  rm -f "$step_log"
  if ((rc == 0)); then echo 'ALL CHECKS PASSED'; else echo 'CHECKS FAILED'; fi
  exit "$rc"
}
trap summary EXIT

for step in "${steps[@]}"; do
  current="${step%%|*}"
  cmd="${step#*|}"
  echo
  echo "==================== $current: $cmd ===================="
  started=$SECONDS
  bash -c "$cmd" 2>&1 | tee "$step_log"
  passed+=("$current ($((SECONDS - started)) s)")
done
current=''
