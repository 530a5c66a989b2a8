#!/bin/sh
# Writes the day's journal page (wikitext) to out/journal-DATE.wiki and prints the Keyline report line:
# {"outputs": {"text": "..."}} on the last stdout line (the page's text, for the step that saves it).
# Replace the body with your own writer; keep the last line.
set -eu
day="$1"
mkdir -p out
printf '== Journal %s ==\n\nWhat happened today, written at 21:30 by a script.\n\n[[Category:Journal]]\n' "$day" > "out/journal-$day.wiki"
echo "wrote out/journal-$day.wiki"
awk 'BEGIN { printf "{\"outputs\": {\"text\": \"" }
     { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }
     END { print "\"}}" }' "out/journal-$day.wiki"
