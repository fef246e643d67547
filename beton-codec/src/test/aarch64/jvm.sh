#!/usr/bin/env bash
# Makes an aarch64 Java 17 runnable on this x86-64 machine, for the linux-aarch64 library's tests, and prints
# its java command (a wrapper that starts Debian's arm64 OpenJDK under qemu-user):
#
#   export BETON_AARCH64_JAVA=$(beton-codec/src/test/aarch64/jvm.sh)
#   ./mvnw verify      # beton-codec's and loader-runtime's tests then also run in that JVM (profile linux-aarch64-tests)
#
# Needs qemu-user (Debian: qemu-user or qemu-user-static) and the arm64 package lists, which root adds once:
#   dpkg --add-architecture arm64 && apt-get update
# The packages (the JRE and the libraries it loads) are fetched with apt-get download and unpacked with
# dpkg-deb into a directory of their own, nothing is installed: under
# ${BETON_NATIVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spark-beton}/aarch64-jvm, kept for the next run.
set -euo pipefail

readonly PACKAGES=(openjdk-17-jre-headless libc6 libgcc-s1 libstdc++6 zlib1g libjpeg62-turbo liblcms2-2)

die() {
  echo "jvm.sh: cannot make an aarch64 JVM: $*" >&2
  exit 1
}

cache=${BETON_NATIVE_CACHE:-${XDG_CACHE_HOME:-${HOME:?set HOME or BETON_NATIVE_CACHE}/.cache}/spark-beton}
dir=$cache/aarch64-jvm
java=$dir/jvm/bin/java # surefire wants a path ending in bin/java

qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
[ -n "$qemu" ] || die "no qemu-aarch64; install it: apt-get install qemu-user"
if [ -x "$java" ] && "$java" -version >/dev/null 2>&1; then
  echo "$java"
  exit 0
fi

command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || die "needs apt-get and dpkg-deb (Debian)"
dpkg --print-foreign-architectures | grep -qx arm64 ||
  die "arm64 is not among dpkg's architectures; as root: dpkg --add-architecture arm64 && apt-get update"

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.aarch64-jvm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/debs" "$tmp/root" "$tmp/jvm/bin"
chmod 755 "$tmp" && chmod 777 "$tmp/debs" # apt-get download fetches as its own user, _apt
(cd "$tmp/debs" && apt-get download -q "${PACKAGES[@]/%/:arm64}" >&2) ||
  die "apt-get download ${PACKAGES[*]/%/:arm64} failed (after dpkg --add-architecture arm64, run apt-get update)"
for deb in "$tmp"/debs/*.deb; do
  dpkg-deb -x "$deb" "$tmp/root"
done
jdk=$(find "$tmp/root/usr/lib/jvm" -maxdepth 1 -name 'java-17-openjdk-arm64' -type d | head -1)
[ -n "$jdk" ] || die "openjdk-17-jre-headless:arm64 holds no usr/lib/jvm/java-17-openjdk-arm64"
rm -rf "$tmp/debs"
rm -rf "$dir"
mv -T "$tmp" "$dir"
trap - EXIT
cat >"$java" <<WRAPPER
#!/bin/sh
# Debian's arm64 OpenJDK 17 under qemu-user, its libraries from $dir/root (made by jvm.sh)
exec "$qemu" -L "$dir/root" "$dir/root/usr/lib/jvm/java-17-openjdk-arm64/bin/java" "\$@"
WRAPPER
chmod +x "$java"
"$java" -version >/dev/null 2>&1 || die "$java -version fails"
echo "$java"
