#!/bin/sh
# libjpeg-turbo's own figure for the benchmark table: tjbench (Debian libjpeg-turbo-progs) full decode to RGB
# with the fast IDCT, one thread, over the first N photos of a directory; prints images/s as
# N / sum(pixels_i / (Mpixels/s)_i). Usage: tjbench.sh DIR [N] [scale, e.g. 1/2]
set -eu
dir=$1; n=${2:-20}; scale=${3:-1/1}
ls "$dir" | grep -i '\.jpe\?g$' | head -n "$n" | while read -r f; do
  tjbench "$dir/$f" -fastdct -rgb -nowrite -quiet -benchtime 0.5 -warmup 0.2 -scale "$scale" 2>/dev/null \
    | awk '$1=="RGB" {print $5*$6, $NF}'
done | awk -v scale="$scale" '{ t += $1 / ($2 * 1e6); n++ }
  END { printf "tjbench %s fast-IDCT decode, %d photos: %.0f images/s\n", scale, n, n / t }'
