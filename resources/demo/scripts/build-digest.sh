#!/bin/sh
# Writes digests/WEEK.md from the week's articles (articles/*.md whose front matter says "week: WEEK").
set -eu
week="$1"
mkdir -p digests
tmp="digests/.$week.md.tmp"
count=0
{
  echo "# Digest $week"
  echo
  for f in articles/*.md; do
    [ -f "$f" ] || continue
    if grep -qx "week: $week" "$f"; then
      echo "- $(basename "$f" .md)"
      count=$((count + 1))
    fi
  done
} > "$tmp"
mv "$tmp" "digests/$week.md"
printf '{"outputs": {"articles": "%s"}, "message": "digest of %s articles"}\n' "$count" "$count"
