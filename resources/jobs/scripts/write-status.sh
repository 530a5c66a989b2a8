#!/bin/sh
# Writes the day's status to out/status-DATE.txt and its picture to out/status-DATE.png, and prints the Keyline
# report line: {"outputs": {"text": "..."}} on the last stdout line (the status's text, for the step that posts it).
# The words are texts/DATE.txt when someone wrote them, else a line of the day; the picture is images/DATE.png, else
# images/default.png. The last line of the status is the day's hashtag, #dailyYYYYMMDD: the job's probes find the
# day's status by it. Replace the body with your own writer; keep the hashtag and the last line.
set -eu
day="$1"
tag="daily$(printf '%s' "$day" | tr -d -)"
mkdir -p out
if [ -f "images/$day.png" ]; then
  cp "images/$day.png" "out/status-$day.png"
elif [ -f images/default.png ]; then
  cp images/default.png "out/status-$day.png"
else
  echo "no picture for $day: put images/$day.png or images/default.png beside the job" >&2
  exit 65
fi
if [ -f "texts/$day.txt" ]; then
  cat "texts/$day.txt" > "out/status-$day.txt"
else
  printf 'Good morning! The picture of %s.\n' "$day" > "out/status-$day.txt"
fi
printf '\n#%s\n' "$tag" >> "out/status-$day.txt"
echo "wrote out/status-$day.txt and out/status-$day.png"
awk 'BEGIN { printf "{\"outputs\": {\"text\": \"" }
     { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }
     END { print "\"}}" }' "out/status-$day.txt"
