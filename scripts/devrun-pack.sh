#!/usr/bin/env bash
# Packs binaries plus the shared libraries the GPU machine lacks (spdlog, fmt, gomp, OpenCV core/imgproc…)
# into a folder that the device tool can carry. Usage: scripts/devrun-pack.sh DEST BINARY...
set -euo pipefail
dest="$1"
shift
mkdir -p "$dest"
for bin in "$@"; do
    cp -f "$bin" "$dest/"
    # The libraries the GPU machine lacks: it has the C/C++ runtimes and CUDA, but no OpenCV (the tracker's
    # verifier brings ml; the tracker's tests objdetect and, through it, dnn with protobuf) nor spdlog/fmt/gomp.
    ldd "$bin" | awk '/=> \//{print $3}' | grep -E 'spdlog|fmt|gomp|opencv|protobuf|tbb|gtest|jpeg|png|tiff|webp|openjp|IlmImf|Imath|OpenEXR|gdal|dc1394|lapack|blas|gfortran|quadmath|z\.so|gtk|GLX|GLdispatch|X11|xcb|Xau|Xdmcp|libbsd|libmd' \
        | while read -r lib; do cp -fL "$lib" "$dest/"; done
done
du -sh "$dest"
