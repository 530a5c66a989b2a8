#!/bin/sh
# Packs a week's exported design files, designs/WEEK/ (WEEK is YYYY-Www), into archive/WEEK.tar.gz.
# The archive is made aside and renamed, so a run killed while packing leaves no half archive.
set -eu
week="$1"
mkdir -p archive "designs/$week"
tmp="archive/.$week.tar.gz.tmp"
(cd designs && tar -cf - "$week") | gzip -n > "$tmp"
mv "$tmp" "archive/$week.tar.gz"
bytes=$(wc -c < "archive/$week.tar.gz" | tr -d ' ')
count=$(find "designs/$week" -type f | wc -l | tr -d ' ')
printf '{"outputs": {"archive": "archive/%s.tar.gz", "year": "%s", "bytes": "%s"}, "message": "packed %s design files"}\n' \
  "$week" "${week%-W*}" "$bytes" "$count"
