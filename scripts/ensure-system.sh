#!/usr/bin/env bash
# Installs the Debian packages Folio needs when they are missing: the headless shell (the worker's
# browser) and full Chromium (the benchmark's second baseline, the console's end-to-end journeys),
# fonts for rendering (Noto CJK so Chinese, Japanese and Korean render out of the box), fontconfig's
# fc-list (the worker reads the system fonts' coverage for font_glyphs_missing), PostgreSQL server
# binaries for the embedded database, poppler-utils to rasterise image renders, perl-base (it loads the
# seccomp filter of the template sandbox and the helpers, lib/processes/seccomp.ts: Debian marks it
# essential, so it is there already and named for the image's sake); and, as root, creates the
# unprivileged user the worker's browser, pdftoppm, the template sandbox and the helpers run as.
# Usage: scripts/ensure-system.sh [--test]
set -euo pipefail

want=(chromium-headless-shell chromium fontconfig fonts-dejavu-core fonts-liberation fonts-noto-core fonts-noto-cjk poppler-utils perl-base)

ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || want+=(postgresql)

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if [ ${#missing[@]} -gt 0 ]; then
    command -v sudo >/dev/null || { echo "Missing packages: ${missing[*]}; install them as root." >&2; exit 1; }
  fi
  sudo="sudo"
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing system packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The render user (RENDER_USER, formerly CHROMIUM_USER; default folio-render): a worker running as root starts Chromium
# and the other contained processes as this user, with no home, no shell and no group of anyone else's
# (docs/architecture.md, Threat model).
if [ "$(id -u)" -eq 0 ]; then
  browser_user="${RENDER_USER:-${CHROMIUM_USER:-folio-render}}"
  id -u "$browser_user" >/dev/null 2>&1 ||
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$browser_user"
fi
