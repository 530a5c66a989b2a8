#!/usr/bin/env bash
# Adds an AppCDS archive to an app-image: a training run records the classes Keyline loads, the
# launcher then maps them from lib/app/keyline.jsa instead of loading and verifying them again.
# Training: the console up to its first frame (under Xvfb when `xvfb-run` exists and KEYLINE_CDS_CLI_ONLY
# is not set), else `keyline jobs` on the example jobs.
# The archive is dynamic (on top of the runtime's base archive, jlink --generate-cds-archive) and is
# bound to the app-image's path and its jars: an app-image moved elsewhere starts without it. The .deb's
# postinst runs this script again on /opt/keyline (lib/make-cds.sh in the app-image).
set -euo pipefail
app="$(cd "$1" && pwd)"
jsa="$app/lib/app/keyline.jsa"
cfg="$app/lib/app/keyline.cfg"
here="$(cd "$(dirname "$0")" && pwd)"
if [ -d "$app/lib/examples/jobs" ]; then
  examples="$app/lib/examples/jobs"
else
  examples="$here/../resources/jobs"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$examples" "$work/jobs"
sed -i '/SharedArchiveFile/d' "$cfg"
rm -f "$jsa"
export KEYLINE_STATE="$work/state" KEYLINE_JOBS="$work/jobs"
unset JAVA_TOOL_OPTIONS
# create the state first (schema migration is a one-time path, not worth archiving)
"$app/bin/keyline" init > /dev/null
if [ -z "${KEYLINE_CDS_CLI_ONLY:-}" ] && command -v xvfb-run >/dev/null; then
  JAVA_TOOL_OPTIONS="-XX:ArchiveClassesAtExit=$jsa -Dkeyline.startupProbe=true" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$app/bin/keyline" 2>&1 | grep -v -e "Picked up JAVA_TOOL_OPTIONS" -e "\[warning\]\[cds" || true
else
  [ -n "${KEYLINE_CDS_CLI_ONLY:-}" ] || echo "make-cds: xvfb-run not found: training on 'keyline jobs' only (console classes load unshared)" >&2
  JAVA_TOOL_OPTIONS="-XX:ArchiveClassesAtExit=$jsa" "$app/bin/keyline" jobs 2>&1 \
    | grep -v "Picked up JAVA_TOOL_OPTIONS" > /dev/null || true
fi
[ -s "$jsa" ] || { echo "make-cds: no archive was written" >&2; exit 1; }
chmod 644 "$jsa"
# the launcher's java options: [JavaOptions] section, one java-options= line each
sed -i 's|^\[JavaOptions\]$|[JavaOptions]\njava-options=-XX:SharedArchiveFile=$APPDIR/keyline.jsa|' "$cfg"
grep -q SharedArchiveFile "$cfg"
# the archive must be usable where it is: a start with it prints nothing on stderr
check="$("$app/bin/keyline" jobs 2>&1 > /dev/null || true)"
if [ -n "$check" ]; then
  echo "make-cds: the app prints on stderr with the archive: $check" >&2
  sed -i '/SharedArchiveFile/d' "$cfg"
  rm -f "$jsa"
  exit 1
fi
echo "make-cds: $(du -h "$jsa" | cut -f1) $jsa"
