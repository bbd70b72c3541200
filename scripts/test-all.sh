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
  bash -c "$cmd"
  passed+=("$current ($((SECONDS - started)) s)")
done
current=''
