#!/bin/sh
# The worker's browser launcher (lib/render-engine/containment.ts). Playwright runs this script in
# place of Chromium and passes its arguments; the script hands Chromium an environment holding
# nothing of Folio's, gives it the temporary profile Playwright made, and, when the worker may
# switch users, becomes the unprivileged render user first. Its own inputs come from the environment
# Playwright was given: FOLIO_CHROMIUM (the browser); FOLIO_CHROMIUM_UID and _GID (the profile's
# owner) with FOLIO_CHROMIUM_LAUNCH, the user switch that lib/processes/launch.ts builds for every
# contained process (`asUserPrefix`), word-split here: its arguments hold no space.
set -eu
profile=
for arg in "$@"; do
  case $arg in --user-data-dir=*) profile=${arg#--user-data-dir=} ;; esac
done
[ -n "$profile" ] || { echo "run-chromium.sh: no --user-data-dir argument" >&2; exit 2; }
browser=$FOLIO_CHROMIUM
uid=${FOLIO_CHROMIUM_UID:-}
gid=${FOLIO_CHROMIUM_GID:-}
launch=${FOLIO_CHROMIUM_LAUNCH:-}
# why refused: a user to switch to without the switch would run Chromium as the worker's user.
[ -z "$uid" ] || [ -n "$launch" ] || { echo "run-chromium.sh: FOLIO_CHROMIUM_UID without FOLIO_CHROMIUM_LAUNCH" >&2; exit 2; }
# why HOME and TMPDIR are the profile: whatever Chromium writes (caches, fontconfig, shared memory
# files under --disable-dev-shm-usage) stays in the folder Playwright deletes when the browser closes.
set -- /usr/bin/env -i HOME="$profile" TMPDIR="$profile" XDG_CONFIG_HOME="$profile" XDG_CACHE_HOME="$profile" \
  PATH=/usr/bin:/bin LANG=C.UTF-8 "$browser" "$@"
if [ -n "$uid" ]; then
  chown "$uid:$gid" "$profile"
  if [ -n "${FOLIO_CHROMIUM_REMOVE_PROFILE:-}" ]; then
    # why: a worker that is not root (the container's service user) may not remove what the browser
    # user writes into the profile, so a shell of the browser user's runs Chromium and then removes
    # the profile itself; Playwright's own removal afterwards finds nothing left.
    set -- /usr/bin/env -i PATH=/usr/bin:/bin /bin/sh -c '"$@"; status=$?; rm -rf -- "$0"; exit "$status"' "$profile" "$@"
  fi
  # The switch: no capability kept, no_new_privs set, so the browser user cannot regain root's
  # rights through a setuid program; Chromium's namespace sandbox works under no_new_privs. No
  # network namespace and no seccomp filter of Folio's: Chromium fetches callers' URLs through the
  # worker's route, and its own sandbox filters its renderers. why set -f: the split must not glob.
  set -f
  # shellcheck disable=SC2086
  exec $launch "$@"
fi
exec "$@"
