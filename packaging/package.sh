#!/usr/bin/env bash
# Builds target/dist/keyline/ (a Linux app-image) and target/dist/keyline_*.deb.
# Called by `mvn -B -Ppackage -DskipTests package` with the project's version after the jars are built and copied:
#   target/keyline-thin.jar   the app
#   target/app-lib/           its dependencies without JavaFX (class path)
#   target/jfx/               javafx-{base,graphics,controls,media,web}-*-linux.jar (module path for jlink)
# Steps: jlink a runtime (JDK + JavaFX modules) -> jpackage the app jars onto it -> AppCDS
# training run -> .deb (only when fakeroot and dpkg-deb are installed).
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
bin="$JAVA_HOME/bin"
[ -x "$bin/jpackage" ] || bin="$(dirname "$JAVA_HOME")/bin" # ${java.home} of a JDK 8-style layout
t=target
start=$(date +%s)
# the pom's version is the package's: 0.1.0-SNAPSHOT packages as 0.1.0 (jpackage takes numbers and dots only)
version="${1:?usage: package.sh VERSION, as in the pom (e.g. 0.1.0-SNAPSHOT)}"
app_version="${version%%-*}"
[[ "$app_version" =~ ^[0-9]+(\.[0-9]+){0,3}$ ]] \
  || { echo "[package] version $version does not start with numbers and dots (e.g. 1.2.0)" >&2; exit 1; }

rm -rf "$t/runtime" "$t/dist" "$t/jpackage-input"
mkdir -p "$t/dist" "$t/jpackage-input"
cp "$t/keyline-thin.jar" "$t"/app-lib/*.jar "$t/jpackage-input/"

echo "[package] jlink runtime"
"$bin/jlink" @packaging/jpackage/jlink.args --module-path "$t/jfx" --output "$t/runtime"
# JavaFX's native libraries next to the JDK's (jlink.args leaves them out of the modules file): JavaFX loads them
# from the runtime's lib/ instead of extracting them from the modules into ~/.openjfx/cache on first use
for jar in "$t"/jfx/javafx-*-linux.jar; do
  libs=$("$bin/jar" tf "$jar" | grep -E '^[^/]+\.so$' || true) # at the jar's root; javafx-base has none
  abs="$(readlink -f "$jar")"
  [ -z "$libs" ] || (cd "$t/runtime/lib" && "$bin/jar" xf "$abs" $libs)
done
[ -f "$t/runtime/lib/libglass.so" ] && [ -f "$t/runtime/lib/libjfxwebkit.so" ] \
  || { echo "[package] JavaFX's native libraries are missing from the runtime" >&2; exit 1; }

echo "[package] jpackage app-image"
"$bin/jpackage" --type app-image @packaging/jpackage/app-image.args --app-version "$app_version" \
  --runtime-image "$t/runtime" --input "$t/jpackage-input" --dest "$t/dist" \
  --icon packaging/icons/keyline-256.png
app="$t/dist/keyline"
cp packaging/keyline.desktop "$app/lib/keyline.desktop"
cp -r packaging/systemd packaging/crontab.txt "$app/lib/"
# for the .deb's postinst: icons for the menu, the AppCDS script and jobs to train it on
mkdir -p "$app/lib/icons" "$app/lib/examples"
cp packaging/icons/keyline-*.png "$app/lib/icons/"
cp packaging/make-cds.sh "$app/lib/make-cds.sh"
cp -r resources/jobs "$app/lib/examples/jobs"

echo "[package] AppCDS archive"
packaging/make-cds.sh "$app"

echo "[package] smoke test: bin/keyline jobs"
smoke="$(mktemp -d)"
"$app/bin/keyline" --state "$smoke/state" --jobs resources/jobs init
"$app/bin/keyline" --state "$smoke/state" --jobs resources/jobs jobs
# the demo (its sandbox site needs jdk.httpserver in the runtime), on any free port
echo "[package] smoke test: bin/keyline demo"
"$app/bin/keyline" --state "$smoke/demo-state" --jobs "$smoke/demo-jobs" demo --port 0 > "$smoke/demo.txt" \
  || { cat "$smoke/demo.txt" >&2; echo "[package] bin/keyline demo failed" >&2; exit 1; }
grep -q 'Demo workspace created' "$smoke/demo.txt" || { cat "$smoke/demo.txt" >&2; exit 1; }
rm -rf "$smoke"

if command -v fakeroot >/dev/null && command -v dpkg-deb >/dev/null; then
  echo "[package] jpackage deb"
  # packaging/deb: our own postinst/prerm (menu entry only where there is a menu; AppCDS for /opt/keyline)
  "$bin/jpackage" --type deb @packaging/jpackage/deb.args --app-version "$app_version" --app-image "$app" --dest "$t/dist" \
    --icon packaging/icons/keyline-256.png --resource-dir packaging/deb
else
  echo "[package] no .deb: jpackage --type deb needs fakeroot and dpkg-deb (apt-get install fakeroot dpkg-dev)" >&2
fi
echo "[package] done in $(( $(date +%s) - start )) s: $(du -sh "$app" | cut -f1) app-image"
ls -l "$t/dist"
