#!/bin/sh
# Writes the week's report to out/report-WEEK.md and prints the Keyline report line:
# {"outputs": {"text": "...", "file": "out/report-WEEK.md"}} on the last stdout line (the report's Markdown, for the
# step that publishes it, and the file, which the job attaches to the release). The notes are notes/WEEK.md when
# someone wrote them. Replace the body with your own writer; keep the last line.
set -eu
week="$1"
mkdir -p out
file="out/report-$week.md"
{
  printf '# Weekly report %s\n\n' "$week"
  if [ -f "notes/$week.md" ]; then
    cat "notes/$week.md"
  else
    printf 'Nothing to report this week.\n'
  fi
  printf '\nWritten by Keyline.\n'
} > "$file"
echo "wrote $file"
awk -v file="$file" 'BEGIN { printf "{\"outputs\": {\"file\": \"%s\", \"text\": \"", file }
     { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }
     END { print "\"}}" }' "$file"
