#!/bin/sh
# Writes the day's article to out/article-DATE.md and prints the Keyline report line:
# {"outputs": {"title": "...", "text": "..."}} on the last stdout line (the article's title, and its Markdown without
# the title line, for the step that publishes it). The article is drafts/DATE.md when someone wrote it (its first
# line "# Title"), else a short note of the day. Replace the body with your own writer; keep the last line.
set -eu
day="$1"
mkdir -p out
file="out/article-$day.md"
if [ -f "drafts/$day.md" ]; then
  cat "drafts/$day.md" > "$file"
else
  printf '# Daily notes %s\n\nWhat happened on %s.\n\nWritten by Keyline.\n' "$day" "$day" > "$file"
fi
echo "wrote $file"
awk 'function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); return s }
     NR == 1 { title = $0; sub(/^#[ \t]*/, "", title); next }
     NR == 2 && $0 == "" { next }
     { text = text (n++ ? "\\n" : "") esc($0) }
     END { printf "{\"outputs\": {\"title\": \"%s\", \"text\": \"%s\"}}\n", esc(title), text }' "$file"
