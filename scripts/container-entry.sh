#!/bin/sh
# The container's entry (Dockerfile: tini runs exactly this script). Usage:
#   container-entry.sh [start|web|worker]
# start (the default) is `docker run -p 3000:3000 -v folio-data:/data`'s whole set-up: the same
# command `npm run quickstart` ends with (lib/cli/start.ts, compiled), which on the first start creates what is
# missing under DATA_DIR (the embedded cluster and its password, migrations, the secret key, the
# workspace, its owner and the quick-start key; the owner's password is printed once), then runs web
# and worker and stops all of them on SIGTERM. web and worker run one process each against
# DATABASE_URL, for compose.yaml's scale-out.
#
# Started as root (the image's default), it makes DATA_DIR the service user's and drops to that user
# before anything else runs, keeping only CAP_SETUID, CAP_SETGID, CAP_CHOWN and CAP_KILL: with them,
# and only them, web and worker start (and end) the browser, pdftoppm and the template sandbox as the render user
# (RENDER_USER), which cannot read DATA_DIR (docs/architecture.md, "One container"). Started as
# another user (`docker run --user`), it runs the command as that user, without the separate render
# user (the worker says so at start).
#
# Settings of its own: DATA_DIR (default /data) and FOLIO_SERVICE_USER (default folio).
set -eu

app=$(cd "$(dirname "$0")/.." && pwd)
role=${1:-start}
# The programs compiled by the image's build (scripts/build-server.mjs): no TypeScript loader at run time.
case $role in
  start) entry=dist/server/start.js ;;
  web) entry=dist/server/web.js ;;
  worker) entry=dist/server/worker.js ;;
  *) echo "container-entry.sh: unknown role '$role' (start, web or worker)" >&2; exit 2 ;;
esac

DATA_DIR=${DATA_DIR:-/data}
export DATA_DIR
cd "$app"
set -- node "$entry"

if [ "$(id -u)" -ne 0 ]; then
  exec "$@"
fi

service_user=${FOLIO_SERVICE_USER:-folio}
if ! id -u "$service_user" >/dev/null 2>&1; then
  echo "container-entry.sh: the service user $service_user does not exist" >&2
  exit 1
fi
mkdir -p "$DATA_DIR"
# why only when the owner differs: a volume made by Docker from the image is the service user's
# already, and walking every stored file at each start would be slow; a host folder mounted there
# (owned by some host user) or a restored backup is taken over once.
if [ "$(stat -c %U "$DATA_DIR")" != "$service_user" ]; then
  # why -h: a symbolic link in a restored folder must not hand its target (say /etc/shadow) over.
  chown -hR "$(id -u "$service_user"):$(id -g "$service_user")" "$DATA_DIR"
fi
chmod 0700 "$DATA_DIR"

# why these four capabilities, ambient so they survive exec into node: CAP_SETUID and CAP_SETGID
# let setpriv start the browser, pdftoppm, the template sandbox and the helpers as RENDER_USER, CAP_CHOWN gives
# them their temporary folder and takes it back, CAP_KILL ends them (a helper's time limit, a hung
# browser). The bounding set keeps nothing else, so no program, setuid or not, can regain root's
# other rights, and no_new_privs holds for the whole tree.
caps=-all,+setuid,+setgid,+chown,+kill
exec setpriv --reuid="$(id -u "$service_user")" --regid="$(id -g "$service_user")" --init-groups \
  --inh-caps="$caps" --ambient-caps="$caps" --bounding-set="$caps" --no-new-privs -- "$@"
