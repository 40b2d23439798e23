#!/usr/bin/env bash
# npm run quickstart: installs what is missing, builds, and starts web + worker on the embedded
# database (or DATABASE_URL). A second run reuses the data in .data/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system.sh
bash scripts/ensure-node-modules.sh
export PATH="$PWD/node_modules/.bin:$PATH"
bash scripts/ensure-build.sh
# The compiled start (dist/server, made by ensure-build.sh): web and worker run compiled too.
exec node dist/server/start.js
