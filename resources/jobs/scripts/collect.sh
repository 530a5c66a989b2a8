#!/bin/sh
# Collects one day's rows from data/sales.csv (date,item,amount) into out/DATE.csv.
# Prints the Keyline report line: {"outputs": {...}} on the last stdout line.
set -eu
day="$1"
mkdir -p out
grep "^$day," data/sales.csv > "out/$day.csv" || true
rows=$(wc -l < "out/$day.csv" | tr -d ' ')
total=$(awk -F, '{ s += $3 } END { printf "%.2f", s }' "out/$day.csv")
echo "collected $rows rows for $day"
printf '{"outputs": {"rows": "%s", "total": "%s", "file": "out/%s.csv"}}\n' "$rows" "$total" "$day"
