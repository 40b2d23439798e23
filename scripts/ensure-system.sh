#!/usr/bin/env bash
# Installs the Debian packages Folio needs when they are missing: Chromium and fonts for rendering,
# PostgreSQL server binaries for the embedded database, poppler-utils to rasterise image renders
# Usage: scripts/ensure-system.sh [--test]
set -euo pipefail

want=(chromium fonts-dejavu-core fonts-liberation fonts-noto-core poppler-utils)

ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || want+=(postgresql)

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "Missing packages: ${missing[*]}; install them as root." >&2; exit 1; }
  sudo="sudo"
fi
echo "Installing system packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
