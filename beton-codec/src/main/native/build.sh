#!/usr/bin/env bash
# Builds the JNI library libbetoncodec-<version>.so with libjpeg-turbo linked in statically, so that the
# library needs only glibc at run time, once per platform. Run by beton-codec/pom.xml (exec-maven-plugin,
# compile phase); `./mvnw -Pno-native ...` builds without it.
#
#   build.sh OUTPUT_DIR LIBRARY JAVA_HOME C_SOURCE_DIR HEADER_DIR PLATFORMS
#
# Writes OUTPUT_DIR/<platform>/LIBRARY for each of the comma-separated PLATFORMS: linux-x86_64 (this host)
# and linux-aarch64 (Graviton, Grace; cross-compiled with Debian's aarch64-linux-gnu toolchain, libjpeg-turbo
# with its NEON code). HEADER_DIR receives the libjpeg-turbo headers the host's library was built with, for
# test-only C code (src/test/c) that includes betoncodec.h.
#
# Steps:
#  1. Checks the host (Linux x86-64) and the tools of every platform; names every missing one with its
#     Debian package.
#  2. Fetches Debian bookworm's libjpeg-turbo source package (1:2.1.5-2) from the Debian pool, each file
#     pinned by SHA-256, unpacks it and applies Debian's patches in the order of debian/patches/series, as
#     `dpkg-source -x` does.
#  3. Builds libjpeg.a per platform with cmake: static only, position-independent (so it can go into a .so),
#     with its SIMD code (nasm on x86-64, NEON intrinsics on aarch64); REQUIRE_SIMD makes a build that cannot
#     build the SIMD code fail instead of producing a slow library.
#  4. Compiles src/main/c/*.c and links them against that libjpeg.a. -fvisibility=hidden and
#     --exclude-libs,ALL leave only our Java_* entry points exported. The JNI headers are the host JDK's:
#     jni.h and Linux's jni_md.h are the same on every Linux architecture.
#
# Steps 2 and 3 are cached under $BETON_NATIVE_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/spark-beton):
# downloads by file name (re-checked against the pinned sums on every use), libjpeg.a by a key of the
# source version, the cmake flags, the target and the compiler and nasm versions. `mvn clean` keeps the cache; deleting the
# directory rebuilds everything. Without network access, put the two source files into
# $BETON_NATIVE_CACHE/downloads by hand. $BETON_DEBIAN_MIRROR replaces the Debian mirror.
set -euo pipefail

readonly LJT_VERSION=2.1.5
readonly DEB_REVISION=2
readonly LJT_ORIG=libjpeg-turbo_${LJT_VERSION}.orig.tar.gz
readonly LJT_ORIG_SHA256=254f3642b04e309fee775123133c6464181addc150499561020312ec61c1bf7c
readonly LJT_DEBIAN=libjpeg-turbo_${LJT_VERSION}-${DEB_REVISION}.debian.tar.xz
readonly LJT_DEBIAN_SHA256=cdb2433c2f7101345c1ffa14efb943787c675b86354691a32490845fe4bc9237
readonly POOL_PATH=pool/main/libj/libjpeg-turbo
# The snapshot keeps the files after the pool drops them (when bookworm's successor is archived).
readonly MIRRORS=("${BETON_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  "http://snapshot.debian.org/archive/debian/20250520T000000Z")
readonly CMAKE_FLAGS=(-DCMAKE_BUILD_TYPE=Release -DENABLE_SHARED=OFF -DENABLE_STATIC=ON
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DWITH_SIMD=ON -DREQUIRE_SIMD=ON -DWITH_TURBOJPEG=OFF -DWITH_JAVA=OFF)
# gcc flags of our own C files; -ffp-contract=off: a fused multiply-add would round differently from the
# Java twin of the resize
readonly CFLAGS=(-shared -fPIC -O2 -ffp-contract=off -Wall -Werror -fvisibility=hidden)

log() { echo "beton-codec native: $*" >&2; }

die() {
  {
    echo
    echo "beton-codec: cannot build the native JPEG codec (libbetoncodec): $1"
    shift
    for line in "$@"; do echo "  $line"; done
    echo "  Or build without native code: ./mvnw -Pno-native ... (every JPEG then goes through the"
    echo "  pure-Java codec, about 3x slower; the library logs a warning saying so)."
    echo
  } >&2
  exit 1
}

[ $# -eq 6 ] || die "usage: build.sh OUTPUT_DIR LIBRARY JAVA_HOME C_SOURCE_DIR HEADER_DIR PLATFORMS (got $# arguments)"
out_dir=$1
library=$2
java_home=$3
c_dir=$4
header_dir=$5
platforms_list=$6
IFS=, read -r -a platforms <<<"$platforms_list"
[ ${#platforms[@]} -gt 0 ] || die "no platform to build for (PLATFORMS is empty)."
for platform in "${platforms[@]}"; do
  case $platform in
    linux-x86_64 | linux-aarch64) ;;
    *) die "cannot build for platform '$platform': linux-x86_64 and linux-aarch64 only." ;;
  esac
done
# the tests load the host's library, and the test-only C code needs its headers
[[ ",$platforms_list," == *,linux-x86_64,* ]] || die "PLATFORMS ($platforms_list) must include linux-x86_64, the host."

# The C compiler of a platform; the host's gcc builds linux-x86_64.
compiler() {
  case $1 in
    linux-x86_64) echo gcc ;;
    linux-aarch64) echo aarch64-linux-gnu-gcc ;;
  esac
}
if [ -n "${BETON_NATIVE_CACHE:-}" ]; then
  cache=$BETON_NATIVE_CACHE
elif [ -n "${XDG_CACHE_HOME:-}" ] || [ -n "${HOME:-}" ]; then
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/spark-beton
else
  die "neither HOME nor BETON_NATIVE_CACHE is set: set BETON_NATIVE_CACHE to a directory for the download cache."
fi
downloads=$cache/downloads

check_host_and_tools() {
  local os arch
  os=$(uname -s)
  arch=$(uname -m)
  if [ "$os" != Linux ] || [ "$arch" != x86_64 ]; then
    die "it is built on Linux x86-64 only, and this is $os $arch." \
      "A jar built on Linux x86-64 runs natively on linux-x86_64 and linux-aarch64, on the Java path elsewhere."
  fi
  local missing=() packages=() tool package cc
  # tool:Debian package
  for pair in gcc:gcc cmake:cmake make:make nasm:nasm patch:patch tar:tar gzip:gzip xz:xz-utils \
    sha256sum:coreutils; do
    tool=${pair%%:*}
    package=${pair#*:}
    if ! command -v "$tool" >/dev/null 2>&1; then
      missing+=("$tool")
      packages+=("$package")
    fi
  done
  if command -v gcc >/dev/null 2>&1 && ! echo '#include <stdio.h>' | gcc -E -x c - >/dev/null 2>&1; then
    missing+=("the C library headers")
    packages+=(libc6-dev)
  fi
  if [[ ",$platforms_list," == *,linux-aarch64,* ]]; then
    cc=$(compiler linux-aarch64)
    if ! command -v "$cc" >/dev/null 2>&1; then
      missing+=("$cc (the linux-aarch64 cross compiler)")
      packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
    elif ! echo 'int main(void) { return 0; }' | "$cc" -x c - -o /dev/null >/dev/null 2>&1; then
      missing+=("the arm64 C library for $cc")
      packages+=(libc6-dev-arm64-cross)
    fi
  fi
  if ! command -v curl >/dev/null 2>&1 && ! command -v wget >/dev/null 2>&1 && ! sources_cached; then
    missing+=("curl (or wget)")
    packages+=(curl)
  fi
  [ -f "$java_home/include/jni.h" ] || die "no JNI headers at $java_home/include/jni.h: build with a JDK 17, not a JRE."
  if [ ${#missing[@]} -gt 0 ]; then
    local IFS=' '
    die "missing ${missing[*]}." "Install (Debian/Ubuntu): apt-get install ${packages[*]}" \
      "Or build for this machine's platform only: ./mvnw -Dnative.platforms=linux-x86_64 ... (the jar then" \
      "runs on the Java path on linux-aarch64 and says so)."
  fi
}

sha256_ok() { # file expected-sum
  [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]
}

sources_cached() {
  sha256_ok "$downloads/$LJT_ORIG" "$LJT_ORIG_SHA256" && sha256_ok "$downloads/$LJT_DEBIAN" "$LJT_DEBIAN_SHA256"
}

fetch() { # file expected-sum: leaves a verified copy at $downloads/file
  local file=$1 sum=$2 tmp url
  sha256_ok "$downloads/$file" "$sum" && return 0
  mkdir -p "$downloads"
  tmp=$(mktemp "$downloads/.$file.XXXXXX")
  for mirror in "${MIRRORS[@]}"; do
    url=$mirror/$POOL_PATH/$file
    log "downloading $url"
    if command -v curl >/dev/null 2>&1; then
      curl -fsSL --retry 2 --connect-timeout 20 -o "$tmp" "$url" || continue
    else
      wget -q -T 20 -O "$tmp" "$url" || continue
    fi
    if sha256_ok "$tmp" "$sum"; then
      mv -f "$tmp" "$downloads/$file" # atomic: a concurrent build sees the old file or the whole new one
      return 0
    fi
    log "$url: SHA-256 is $(sha256sum "$tmp" | cut -d' ' -f1), expected $sum; trying the next mirror"
  done
  rm -f "$tmp"
  die "could not download $file with SHA-256 $sum from ${MIRRORS[*]}." \
    "Without network access, put $LJT_ORIG and $LJT_DEBIAN (Debian's libjpeg-turbo $LJT_VERSION-$DEB_REVISION" \
    "source package) into $downloads."
}

unpack() { # dir: Debian's source tree, patched
  local dir=$1 name level rest
  mkdir -p "$dir"
  tar -xzf "$downloads/$LJT_ORIG" -C "$dir" --strip-components=1
  tar -xJf "$downloads/$LJT_DEBIAN" -C "$dir"
  # debian/patches/series: one patch per line, optionally followed by -pN; '#' starts a comment
  while read -r name level rest; do
    case $name in '' | '#'*) continue ;; esac
    case $level in -p*) ;; *) level=-p1 ;; esac
    patch -s -d "$dir" "$level" -N -i "debian/patches/$name" || die "Debian patch $name does not apply."
  done <"$dir/debian/patches/series"
}

# The cmake flags that select a platform's compiler: none for the host; a cross build for aarch64.
cmake_target_flags() {
  case $1 in
    linux-aarch64)
      echo -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCMAKE_C_COMPILER="$(compiler "$1")" ;;
  esac
}

# Prints the directory holding a platform's lib/libjpeg.a and include/*.h, building it when the cache has none.
static_libjpeg() {
  local platform=$1 cc key dir
  cc=$(compiler "$platform")
  local target_flags
  read -r -a target_flags <<<"$(cmake_target_flags "$platform")"
  key=$(printf '%s\n' "$LJT_VERSION-$DEB_REVISION" "$LJT_DEBIAN_SHA256" "${CMAKE_FLAGS[*]}" "${target_flags[*]}" \
    "$("$cc" -dumpfullversion -dumpmachine)" "$(nasm -v)" | sha256sum | cut -c1-16)
  dir=$cache/libjpeg-turbo-$LJT_VERSION-$DEB_REVISION-$platform-$key
  if [ -f "$dir/lib/libjpeg.a" ]; then
    log "libjpeg-turbo $LJT_VERSION-$DEB_REVISION for $platform (static, PIC, SIMD) from $dir"
    echo "$dir"
    return 0
  fi
  fetch "$LJT_ORIG" "$LJT_ORIG_SHA256"
  fetch "$LJT_DEBIAN" "$LJT_DEBIAN_SHA256"
  tmp=$(mktemp -d "$cache/.libjpeg-turbo-build.XXXXXX") # not local: the EXIT trap reads it
  trap 'rm -rf "$tmp"' EXIT # this function runs in its own subshell: the trap is its own
  log "building libjpeg-turbo $LJT_VERSION-$DEB_REVISION for $platform (static, PIC, SIMD) in $tmp"
  unpack "$tmp/src"
  cmake -S "$tmp/src" -B "$tmp/build" "${CMAKE_FLAGS[@]}" "${target_flags[@]}" >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log" >&2; die "cmake could not configure libjpeg-turbo (log above)."; }
  cmake --build "$tmp/build" --target jpeg-static -j "$(nproc 2>/dev/null || echo 2)" >"$tmp/make.log" 2>&1 ||
    { cat "$tmp/make.log" >&2; die "libjpeg-turbo did not build (log above)."; }
  mkdir -p "$tmp/out/lib" "$tmp/out/include"
  cp "$tmp/build/libjpeg.a" "$tmp/out/lib/"
  cp "$tmp/build/jconfig.h" "$tmp/src/jpeglib.h" "$tmp/src/jmorecfg.h" "$tmp/src/jerror.h" "$tmp/out/include/"
  # atomic: when a concurrent build got there first, its copy (built from the same key) is kept
  mv -T "$tmp/out" "$dir" 2>/dev/null || [ -f "$dir/lib/libjpeg.a" ] || die "cannot write $dir."
  echo "$dir"
}

check_host_and_tools
mkdir -p "$cache" || die "cannot create the cache directory $cache: set BETON_NATIVE_CACHE to a writable one."
# a platform an earlier build made and this one does not leaves no library behind in the jar
for stale in "$out_dir"/linux-*/; do
  [ -d "$stale" ] || continue
  [[ ",$platforms_list," == *,"$(basename "$stale")",* ]] || rm -rf "$stale"
done
for platform in "${platforms[@]}"; do
  libjpeg=$(static_libjpeg "$platform")
  out=$out_dir/$platform/$library
  mkdir -p "$(dirname "$out")"
  "$(compiler "$platform")" "${CFLAGS[@]}" -I"$libjpeg/include" -I"$java_home/include" -I"$java_home/include/linux" \
    "$c_dir"/*.c -o "$out.tmp" "$libjpeg/lib/libjpeg.a" -lm \
    -Wl,--exclude-libs,ALL -Wl,--no-undefined -Wl,-z,noexecstack -Wl,-z,relro -Wl,-z,now
  mv -f "$out.tmp" "$out"
  if [ "$platform" = linux-x86_64 ]; then
    mkdir -p "$header_dir"
    cp "$libjpeg"/include/*.h "$header_dir/"
  fi
  log "built $out"
  if [ "$platform" = linux-aarch64 ] && [ -z "${BETON_AARCH64_JAVA:-}" ]; then
    log "linux-aarch64 is not tested in this build: its tests run in an aarch64 JVM under qemu-user where" \
      "BETON_AARCH64_JAVA names one (export BETON_AARCH64_JAVA=\$(beton-codec/src/test/aarch64/jvm.sh); CI does)"
  fi
done
