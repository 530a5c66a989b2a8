#!/bin/sh
# Writes articles/DAY.md for the daily-article demo job. Writing it again is harmless.
set -eu
day="$1"
week=$(date -u -d "$day" +%G-W%V 2>/dev/null || date -u -j -f %Y-%m-%d "$day" +%G-W%V 2>/dev/null || echo "")
mkdir -p articles
tmp="articles/.$day.md.tmp"
{
  echo "---"
  echo "date: $day"
  echo "week: $week"
  echo "---"
  echo "# Notes for $day"
  echo
  echo "Today's article, written by the demo's write step and published by its publish step."
} > "$tmp"
mv "$tmp" "articles/$day.md"
printf '{"outputs": {"file": "articles/%s.md", "week": "%s"}, "message": "article written"}\n' "$day" "$week"
