#!/bin/bash
# Package.Deb: builds the Debian package from the build tree with CPack and checks it as a user
# of Debian 12 would meet it, without installing anything into this machine's /usr: unpacked into
# a scratch root (dpkg -x), its file list, the programs run from there, the dependencies resolved
# against Debian 12's package lists (apt-get -s), the .desktop files validated, the systemd user
# unit verified, no build-tree path inside. Usage: check-deb.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1
source=$2
fail=0
say() { printf '%s\n' "$*"; }
bad() { say "FAILED: $*"; fail=1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$build" || exit 1
rm -f msgcode-desktop-host_*.deb
if ! cpack -G DEB -D CPACK_INSTALL_PREFIX=/usr -B "$scratch/out" >"$scratch/cpack.log" 2>&1; then
    cat "$scratch/cpack.log"; bad "cpack"; exit 1
fi
deb=$(ls "$scratch"/out/msgcode-desktop-host_*.deb | head -n1)
say "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"
root="$scratch/root"
dpkg -x "$deb" "$root" || bad "dpkg -x"

for file in usr/bin/msgcode-desktop-host usr/bin/msgcode-desktopctl usr/bin/msgcode-desktop-mcp \
    usr/share/applications/com.msgcode.desktop.host.desktop \
    etc/xdg/autostart/com.msgcode.desktop.host.desktop \
    usr/share/icons/hicolor/scalable/apps/com.msgcode.desktop.host.svg \
    usr/share/icons/hicolor/scalable/status/com.msgcode.desktop.host-green.svg \
    usr/share/icons/hicolor/scalable/status/com.msgcode.desktop.host-yellow.svg \
    usr/share/icons/hicolor/scalable/status/com.msgcode.desktop.host-red.svg \
    usr/lib/systemd/user/msgcode-desktop-host.service \
    usr/share/man/man1/msgcode-desktop-host.1 usr/share/man/man1/msgcode-desktopctl.1; do
    [ -s "$root/$file" ] && say "ok: /$file" || bad "missing /$file"
done
unexpected=$(cd "$root" && find . -type f | grep -v -E '^\./(usr/bin|usr/share/(applications|icons|man)|usr/lib/systemd/user|etc/xdg/autostart)/' || true)
[ -z "$unexpected" ] || bad "files outside the expected places: $unexpected"

# The programs, run from the scratch root.
version=$(QT_QPA_PLATFORM=offscreen "$root/usr/bin/msgcode-desktop-host" --version 2>&1) || bad "host --version"
say "host --version: $version"
[[ "$version" == *"0.1.0"* ]] || bad "host --version says $version"
help=$("$root/usr/bin/msgcode-desktopctl" --help 2>&1) || bad "desktopctl --help"
[[ "$help" == *"evidence"* && "$help" == *"remote"* ]] || bad "desktopctl --help lacks its commands"
# The manual pages say what --help says: every option of --help is in the page.
for option in $("$root/usr/bin/msgcode-desktopctl" --help | grep -o -E '^\s+--[a-z-]+' | tr -d ' '); do
    grep -q -- "$(printf '%s' "$option" | sed 's/-/\\\\-/g')" "$root/usr/share/man/man1/msgcode-desktopctl.1" ||
        bad "msgcode-desktopctl(1) lacks $option"
done
man -l "$root/usr/share/man/man1/msgcode-desktop-host.1" >/dev/null 2>&1 || bad "msgcode-desktop-host(1) does not format"

# No path of the build tree inside the binaries.
for bin in "$root"/usr/bin/*; do
    if grep -q -a -F "$build" "$bin" || grep -q -a -F "$source" "$bin"; then bad "$(basename "$bin") holds a build-tree path"; fi
    if readelf -d "$bin" | grep -q -E 'RPATH|RUNPATH'; then bad "$(basename "$bin") has an RPATH"; fi
done

# Dependencies: apt resolves an install of the package (simulated) against this machine's package
# lists — Debian 12's, as scripts/setup leaves them; the run says which release they are.
grep -h '^VERSION=' /etc/os-release || true
if apt-get -s -o Debug::NoLocking=1 install "$deb" >"$scratch/apt.log" 2>&1; then
    say "apt-get -s install: the dependencies resolve"
else
    cat "$scratch/apt.log"; bad "apt-get -s install"
fi

desktop-file-validate "$root/usr/share/applications/com.msgcode.desktop.host.desktop" || bad "desktop-file-validate (applications)"
desktop-file-validate "$root/etc/xdg/autostart/com.msgcode.desktop.host.desktop" || bad "desktop-file-validate (autostart)"
# The unit, verified with its ExecStart pointed at the unpacked program (it is not installed here).
mkdir -p "$scratch/unit"
sed "s|/usr/bin/msgcode-desktop-host|$root/usr/bin/msgcode-desktop-host|" \
    "$root/usr/lib/systemd/user/msgcode-desktop-host.service" >"$scratch/unit/msgcode-desktop-host.service"
verify=$(systemd-analyze verify --man=no "$scratch/unit/msgcode-desktop-host.service" 2>&1)
if [ -n "$verify" ]; then say "$verify"; bad "systemd-analyze verify"; else say "systemd-analyze verify: clean"; fi

[ "$fail" = 0 ] && say "the package is good" || say "the package has problems"
exit "$fail"
