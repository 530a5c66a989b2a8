#!/bin/sh
# Packs the daily reports of an ISO week (YYYY-Www) into archive/WEEK.tar.gz.
set -eu
week="$1"
mkdir -p archive reports
files=""
# The seven dates of the ISO week, from its Monday.
year=${week%-W*}; wk=${week#*-W}
jan4=$(date -u -d "$year-01-04" +%s)
dow=$(date -u -d "$year-01-04" +%u)
wk=${wk#0}
monday=$((jan4 - (dow - 1) * 86400 + (wk - 1) * 7 * 86400))
for i in 0 1 2 3 4 5 6; do
  d=$(date -u -d "@$((monday + i * 86400))" +%Y-%m-%d)
  [ -f "reports/$d.md" ] && files="$files $d.md"
done
tmp="archive/.$week.tar.gz.tmp"
if [ -n "$files" ]; then
  (cd reports && tar -czf "../$tmp" $files)
else
  tar -czf "$tmp" -T /dev/null
fi
mv "$tmp" "archive/$week.tar.gz"
count=$(echo $files | wc -w | tr -d ' ')
printf '{"outputs": {"archive": "archive/%s.tar.gz", "files": "%s"}, "message": "archived %s daily reports"}\n' "$week" "$count" "$count"
