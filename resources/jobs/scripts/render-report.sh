#!/bin/sh
# Renders reports/DATE.md from out/DATE.csv. Writing the same file again is harmless (idempotent).
# The outputs of step "collect" come from the environment (Keyline never puts them in arguments).
set -eu
day="$1"; rows="$KEYLINE_OUTPUT_COLLECT_ROWS"; total="$KEYLINE_OUTPUT_COLLECT_TOTAL"
mkdir -p reports
tmp="reports/.$day.md.tmp"
{
  echo "# Sales report $day"
  echo
  echo "Rows: $rows  "
  echo "Total: $total"
  echo
  echo "| item | amount |"
  echo "|---|---|"
  awk -F, '{ printf "| %s | %s |\n", $2, $3 }' "out/$day.csv"
} > "$tmp"
mv "$tmp" "reports/$day.md"
printf '{"outputs": {"report": "reports/%s.md"}, "message": "report written: %s rows, total %s"}\n' "$day" "$rows" "$total"
