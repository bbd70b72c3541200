#!/usr/bin/env bash
# Checks the system packages the test suite needs and installs the missing ones where it can
# (Debian as root); anywhere else it says exactly what is missing and stops. Never skips silently.
#   chromium        -> /usr/bin/chromium (Playwright end-to-end tests)
#   fonts-noto-cjk  -> Japanese glyphs in screenshots (otherwise they render as boxes)
#   postgresql      -> initdb and pg_ctl for the PostgreSQL run of the server tests
set -euo pipefail

has_chromium() { [[ -x /usr/bin/chromium ]]; }

has_japanese_fonts() {
  if command -v fc-list >/dev/null 2>&1 && [[ -n "$(fc-list :lang=ja 2>/dev/null | head -n 1)" ]]; then
    return 0
  fi
  command -v dpkg-query >/dev/null 2>&1 &&
    [[ "$(dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null)" == 'install ok installed' ]]
}

has_postgres() {
  local bin
  for bin in /usr/lib/postgresql/*/bin; do
    if [[ -x "$bin/initdb" && -x "$bin/pg_ctl" ]]; then return 0; fi
  done
  # Outside Debian (e.g. Fedora, Homebrew) the server binaries are on PATH; with-postgres.sh uses them.
  command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1
}

missing_packages() {
  local missing=()
  has_chromium || missing+=(chromium)
  has_japanese_fonts || missing+=(fonts-noto-cjk)
  has_postgres || missing+=(postgresql)
  echo "${missing[*]:-}"
}

describe() {
  case "$1" in
    chromium) echo '  - chromium: /usr/bin/chromium not found (used by the Playwright end-to-end tests)' ;;
    fonts-noto-cjk) echo '  - fonts-noto-cjk: no Japanese font (fc-list :lang=ja is empty); screenshots would show boxes' ;;
    postgresql) echo '  - postgresql: no initdb and pg_ctl in /usr/lib/postgresql/*/bin or PATH (PostgreSQL run of the server tests)' ;;
  esac
}

read -r -a missing <<<"$(missing_packages)"
if ((${#missing[@]} == 0)); then
  echo 'system dependencies: chromium, fonts-noto-cjk, postgresql present'
  exit 0
fi

{
  echo 'system dependencies missing:'
  for pkg in "${missing[@]}"; do describe "$pkg"; done
} >&2

if [[ -f /etc/debian_version && "$(id -u)" == 0 ]]; then
  echo "installing: ${missing[*]}"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  read -r -a still <<<"$(missing_packages)"
  if ((${#still[@]} > 0)); then
    echo "still missing after apt-get install: ${still[*]}" >&2
    exit 1
  fi
  echo 'system dependencies installed'
  exit 0
fi

{
  echo
  if [[ -f /etc/debian_version ]]; then
    echo 'Not running as root, so nothing was installed. Install them with:'
    echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  else
    echo 'Not a Debian system, so nothing was installed. Install the equivalents with your package manager:'
    echo "  Debian/Ubuntu names: ${missing[*]}"
    echo '  chromium must be at /usr/bin/chromium; PostgreSQL server binaries under /usr/lib/postgresql/<version>/bin'
  fi
} >&2
exit 1
