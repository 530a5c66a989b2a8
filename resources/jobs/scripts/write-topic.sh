#!/bin/sh
# Writes the day's article to out/article-DATE.md and prints the Keyline report line:
# {"outputs": {"text": "..."}} on the last stdout line (the article's text, for the step that publishes it).
# Replace the body with your own writer; keep the last line.
set -eu
day="$1"
mkdir -p out
printf 'Good morning. This is the article of %s.\n\nWritten at 09:00 by a script.\n' "$day" > "out/article-$day.md"
echo "wrote out/article-$day.md"
awk 'BEGIN { printf "{\"outputs\": {\"text\": \"" }
     { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }
     END { print "\"}}" }' "out/article-$day.md"
