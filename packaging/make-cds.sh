#!/usr/bin/env bash
# Adds an AppCDS archive to an app-image: a training run records the classes Keyline loads, the
# launcher then maps them from lib/app/keyline.jsa instead of loading and verifying them again.
# Training: the console up to its first frame (under Xvfb when `xvfb-run` exists), else `keyline jobs`.
# The archive is dynamic (on top of the runtime's base archive, jlink --generate-cds-archive) and is
# bound to the app-image's path: an app-image moved elsewhere starts without it (run this again there).
set -euo pipefail
app="$(cd "$1" && pwd)"
jsa="$app/lib/app/keyline.jsa"
cfg="$app/lib/app/keyline.cfg"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$(dirname "$0")/../resources/jobs" "$work/jobs"
sed -i '/SharedArchiveFile/d' "$cfg"
rm -f "$jsa"
export KEYLINE_STATE="$work/state" KEYLINE_JOBS="$work/jobs"
# warm the state first (schema migration is a one-time path, not worth archiving)
"$app/bin/keyline" jobs > /dev/null
if command -v xvfb-run >/dev/null; then
  JAVA_TOOL_OPTIONS="-XX:ArchiveClassesAtExit=$jsa -Dkeyline.startupProbe=true" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$app/bin/keyline" 2>&1 | grep -v -e "Picked up JAVA_TOOL_OPTIONS" -e "\[warning\]\[cds" || true
else
  echo "make-cds: xvfb-run not found: training on 'keyline jobs' only (console classes load unshared)" >&2
  JAVA_TOOL_OPTIONS="-XX:ArchiveClassesAtExit=$jsa" "$app/bin/keyline" jobs 2>&1 \
    | grep -v "Picked up JAVA_TOOL_OPTIONS" > /dev/null || true
fi
[ -s "$jsa" ] || { echo "make-cds: no archive was written" >&2; exit 1; }
# the launcher's java options: [JavaOptions] section, one java-options= line each
sed -i 's|^\[JavaOptions\]$|[JavaOptions]\njava-options=-XX:SharedArchiveFile=$APPDIR/keyline.jsa|' "$cfg"
grep -q SharedArchiveFile "$cfg"
echo "make-cds: $(du -h "$jsa" | cut -f1) $jsa"
