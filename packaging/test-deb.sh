#!/usr/bin/env bash
# The .deb as a user installs it (run by .ci/run as root): apt-get install ./keyline_*.deb, then
# /opt/keyline/bin/keyline jobs must print nothing on stderr and use its AppCDS archive; install it
# again over itself (the upgrade path: old prerm, new postinst), remove it and check that nothing is left.
# Then the same on a system without desktop menu folders (a server, a container), which must not fail.
set -euo pipefail
deb="$(readlink -f "$1")"
menus=(/usr/share/applications /usr/share/icons/hicolor)

say() { echo "[test-deb] $*"; }
fail() { echo "[test-deb] FAILED: $*" >&2; exit 1; }

check_installed() {
  local home; home="$(mktemp -d)"
  [ -x /opt/keyline/bin/keyline ] || fail "/opt/keyline/bin/keyline is not installed"
  local err rc=0
  # commands run in the fresh user's home (a state in the folders above the test's own folder is not theirs)
  cd "$home"
  # a fresh user has no state: a command says where it looked and how to create one (exit 1), and creates none
  err="$(env -i HOME="$home" PATH=/usr/bin:/bin /opt/keyline/bin/keyline jobs 2>&1 > "$home/out.txt")" || rc=$?
  [ "$rc" = 1 ] || fail "keyline jobs without a state exited $rc"
  grep -q "keyline init" <<< "$err" || fail "keyline jobs without a state: $err"
  [ ! -e "$home/.local/share/keyline" ] || fail "keyline jobs created a state"
  rc=0
  err="$(env -i HOME="$home" PATH=/usr/bin:/bin /opt/keyline/bin/keyline init 2>&1 > "$home/out.txt")" || rc=$?
  [ -z "$err" ] && [ "$rc" = 0 ] || fail "keyline init exited $rc, stderr: $err"
  grep -q "$home/.local/share/keyline" "$home/out.txt" || fail "keyline init: $(cat "$home/out.txt")"
  # empty jobs folder (exit 1 says so on stdout); stderr must be empty
  rc=0
  err="$(env -i HOME="$home" PATH=/usr/bin:/bin /opt/keyline/bin/keyline jobs 2>&1 > "$home/out.txt")" || rc=$?
  [ -z "$err" ] || fail "keyline jobs printed on stderr: $err"
  [ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "keyline jobs exited $rc: $(cat "$home/out.txt")"
  grep -q "No valid jobs" "$home/out.txt" || fail "keyline jobs on an empty jobs folder: $(cat "$home/out.txt")"
  # the example jobs: exit 0, still nothing on stderr
  rc=0
  err="$(env -i HOME="$home" PATH=/usr/bin:/bin KEYLINE_JOBS=/opt/keyline/lib/examples/jobs \
        /opt/keyline/bin/keyline jobs 2>&1 > "$home/out.txt")" || rc=$?
  [ -z "$err" ] && [ "$rc" = 0 ] || fail "keyline jobs (examples) exited $rc, stderr: $err"
  grep -q daily-report "$home/out.txt" || fail "keyline jobs does not list the examples: $(cat "$home/out.txt")"
  # the AppCDS archive made for /opt/keyline is mapped (classes come from the dynamic archive, "top")
  [ -s /opt/keyline/lib/app/keyline.jsa ] || fail "no AppCDS archive in /opt/keyline/lib/app"
  env -i HOME="$home" PATH=/usr/bin:/bin JAVA_TOOL_OPTIONS="-Xlog:class+load=info:file=$home/classes.log" \
      /opt/keyline/bin/keyline jobs > /dev/null 2>&1 || true
  grep -q "shared objects file (top)" "$home/classes.log" || fail "the installed app does not use its AppCDS archive"
  cd /
  rm -rf "$home"
}

check_removed() {
  local status; status="$(dpkg-query -W -f='${db:Status-Status}' keyline 2> /dev/null || true)"
  [ "$status" != installed ] || fail "keyline is still installed"
  [ ! -e /opt/keyline ] || fail "/opt/keyline is left after removal: $(find /opt/keyline | head)"
  [ ! -e /usr/share/applications/keyline.desktop ] || fail "the menu entry is left after removal"
}

# without the recommended CJK fonts (about 100 MB): the app must work without them; the field is checked below
install_deb() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" > /tmp/keyline-apt.log 2>&1 \
    || { cat /tmp/keyline-apt.log; fail "apt-get install $deb"; }
}

remove_deb() {
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -q keyline > /tmp/keyline-apt.log 2>&1 \
    || { cat /tmp/keyline-apt.log; fail "apt-get remove keyline"; }
}

if [ "$(dpkg-query -W -f='${db:Status-Status}' keyline 2> /dev/null || true)" = installed ]; then
  say "removing a keyline package that was installed before"
  remove_deb
fi

# Chinese text needs a CJK font with bold and monospace faces; a user's apt installs it with the package
recommends="$(dpkg-deb -f "$deb" Recommends)"
grep -q "fonts-noto-cjk" <<< "$recommends" || fail "the .deb does not recommend a CJK font: '$recommends'"

say "install $(basename "$deb")"
install_deb
check_installed
if [ -d /usr/share/applications ]; then
  [ -f /usr/share/applications/keyline.desktop ] || fail "no menu entry although /usr/share/applications exists"
fi
say "install again over itself (upgrade path)"
DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" > /tmp/keyline-apt.log 2>&1 || { cat /tmp/keyline-apt.log; fail "dpkg -i (again)"; }
check_installed
say "remove"
remove_deb
check_removed

say "without desktop menu folders"
hidden=()
restore() {
  for d in "${hidden[@]}"; do
    if [ -e "$d" ]; then cp -a "$d.keyline-test-hidden/." "$d/" && rm -rf "$d.keyline-test-hidden"
    else mv "$d.keyline-test-hidden" "$d"; fi
  done
  hidden=()
}
trap restore EXIT
for d in "${menus[@]}"; do
  if [ -e "$d" ]; then mv "$d" "$d.keyline-test-hidden"; hidden+=("$d"); fi
done
install_deb
check_installed
[ ! -e /usr/share/applications/keyline.desktop ] || fail "a menu entry was made without a menu folder"
remove_deb
check_removed
restore
trap - EXIT
say "ok"
