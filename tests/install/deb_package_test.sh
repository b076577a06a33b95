#!/usr/bin/env bash
# `cpack -G DEB` from the build makes profdiff_<version>_<arch>.deb whose Depends names the Debian
# runtime libraries the binary links (dpkg-shlibdeps) and whose files are the installed ones.
# Skips (77) where dpkg-deb or dpkg-shlibdeps is absent (not Debian, or dpkg-dev not installed).
#   tests/install/deb_package_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"; build="$2"
command -v dpkg-deb > /dev/null && command -v dpkg-shlibdeps > /dev/null ||
  { echo "skip: dpkg-deb/dpkg-shlibdeps absent (apt-get install dpkg-dev)"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp" > "$tmp/cpack.log" 2>&1 || fail "cpack: $(cat "$tmp/cpack.log")"
version="$(sed -n 's/^project(profdiff VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")"
deb="$tmp/profdiff_${version}_$(dpkg --print-architecture).deb"
[[ -f "$deb" ]] || fail "no $deb ($(ls "$tmp"))"

[[ "$(dpkg-deb -f "$deb" Package)" == profdiff ]] || fail "package name"
[[ "$(dpkg-deb -f "$deb" Version)" == "$version" ]] || fail "version"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
# The libraries the binary links dynamically, by their Debian package (so names, not versions).
for lib in libc6 libstdc++6 libxlsxwriter zlib1g libfmt; do
  [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
# Nothing the binary does not link (a build-only package would be a packaging bug).
for dev in -dev libgtest cmake python3; do
  [[ "$depends" != *"$dev"* ]] || fail "Depends names a build-time package ($dev): $depends"
done

files="$(dpkg-deb -c "$deb" | awk '{print $6}')"
for f in ./usr/bin/profdiff ./usr/share/man/man1/profdiff.1.gz ./usr/share/bash-completion/completions/profdiff \
         ./usr/share/doc/profdiff/README.md ./usr/share/doc/profdiff/docs/json-schema.md; do
  grep -qxF "$f" <<< "$files" || fail "the package lacks $f"
done
stray="$(grep -vE '^\./usr/(bin/profdiff|share/(man|bash-completion|doc)(/|$)|bin/$|share/$|$)' <<< "$files" || true)"
[[ -z "$stray" ]] || fail "unexpected files in the package: $stray"

# The packaged binary runs (extracted, not installed: the test must not need root).
dpkg-deb -x "$deb" "$tmp/root"
"$tmp/root/usr/bin/profdiff" --version | grep -q "^profdiff $version" || fail "packaged --version"
echo "built $(basename "$deb"): Depends and file list checked"
