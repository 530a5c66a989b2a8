#!/usr/bin/env bash
# Startup benchmark (run by hand): time from process start to the console's first frame, for the
# app-image with its AppCDS archive and without it (a copy whose launcher drops the archive).
#   packaging/bench-startup.sh [APP_IMAGE=target/dist/keyline] [RUNS=5]
# Needs Xvfb (apt-get install xvfb) unless DISPLAY is set. Prints the median of RUNS runs:
#   BENCH startup.first_frame_ms <value> ms   (with archive, then without; runs alternate)
#   BENCH startup.cpu_ms <value> ms           (CPU time: less sensitive to a busy machine)
# BENCH_JAVA_OPTIONS adds JVM options to every run (e.g. to try -XX:TieredStopAtLevel=1).
# The console prints the time of its first frame when started with -Dkeyline.startupProbe=true
# (hidden flag) and closes right after it; the harness takes the time before it starts the process.
set -euo pipefail
app="$(cd "${1:-target/dist/keyline}" && pwd)"
runs="${2:-5}"
work="$(mktemp -d)"
cleanup() { [ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
if [ -z "${DISPLAY:-}" ]; then
  Xvfb :97 -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 & xvfb=$!
  export DISPLAY=:97
  sleep 1
fi
cp -r "$(dirname "$0")/../resources/jobs" "$work/jobs"
export KEYLINE_STATE="$work/state" KEYLINE_JOBS="$work/jobs"
"$app/bin/keyline" init > /dev/null # create the state once
# the same app-image without the archive
cp -a "$app" "$work/no-cds"
sed -i '/SharedArchiveFile/d' "$work/no-cds/lib/app/keyline.cfg"

measure() { # $1 = app-image; prints "wall_ms cpu_ms" (cpu: user + sys of the whole run)
  local t0 t1 out cpu
  TIMEFORMAT='%3U %3S'
  t0=$(date +%s%3N)
  { time out="$(JAVA_TOOL_OPTIONS="-Dkeyline.startupProbe=true ${BENCH_JAVA_OPTIONS:-}" "$1/bin/keyline" 2>/dev/null)"; } 2> "$work/time"
  t1=$(sed -n 's/.*first_frame_epoch_ms=\([0-9]*\).*/\1/p' <<<"$out")
  [ -n "$t1" ] || { echo "no first frame: $out" >&2; exit 1; }
  cpu=$(awk '{printf "%d", ($1 + $2) * 1000}' "$work/time")
  echo "$(( t1 - t0 )) $cpu"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }

measure "$app" > /dev/null; measure "$work/no-cds" > /dev/null # warm the page cache
for i in $(seq "$runs"); do measure "$app"; measure "$work/no-cds" >&3; done > "$work/with" 3> "$work/without"
for v in with without; do
  echo "runs $v archive (wall cpu): $(awk '{printf "%s/%s ", $1, $2}' "$work/$v")"
done
label() { [ "$1" = with ] && echo "with AppCDS archive" || echo "without archive"; }
for v in with without; do
  echo "BENCH startup.first_frame_ms $(cut -d' ' -f1 "$work/$v" | median) ms ($(label $v))"
done
for v in with without; do
  echo "BENCH startup.cpu_ms $(cut -d' ' -f2 "$work/$v" | median) ms ($(label $v); user+sys of a run to the first frame and exit)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
