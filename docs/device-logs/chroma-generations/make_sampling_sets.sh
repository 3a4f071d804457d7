#!/usr/bin/env bash
# Copies of a set of JPEG frames re-saved by libjpeg-turbo's cjpeg at a quality, with the chroma subsampled again
# (4:2:0, -sample 2x2, as OpenCV's imwrite and video codecs do) or kept at full resolution (4:4:4, -sample 1x1),
# to tell what a second generation of chroma subsampling costs from what the quantisation costs.
# Usage: make_sampling_sets.sh SRC_DIR OUT_ROOT QUALITY... (SRC_DIR holds images/*.jpg and labels.csv; needs
# libjpeg-turbo-progs).
set -euo pipefail
src="$1" out="$2"
shift 2
for q in "$@"; do
    for s in 2x2 1x1; do
        d="$out/q${q}_${s}"
        mkdir -p "$d/images"
        cp "$src/labels.csv" "$d/"
        for f in "$src"/images/*.jpg; do
            djpeg -pnm "$f" | cjpeg -quality "$q" -sample "$s" > "$d/images/$(basename "$f")"
        done
    done
done
