#!/usr/bin/env bash
# Packs binaries plus the shared libraries the GPU machine lacks (spdlog, fmt, gomp, OpenCV core/imgproc…)
# into a folder that the device tool can carry. Usage: scripts/devrun-pack.sh DEST BINARY...
set -euo pipefail
dest="$1"
shift
mkdir -p "$dest"
for bin in "$@"; do
    cp -f "$bin" "$dest/"
    # Everything the binary loads except the C and C++ runtimes and the driver, which the GPU machine has: its
    # OpenCV (imgcodecs pulls in gdal, gdcm, openexr, ...) is not there at all.
    ldd "$bin" | awk '/=> \//{print $3}' \
        | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s|libcuda|libnvidia[^/]*)\.so' \
        | while read -r lib; do cp -fL "$lib" "$dest/"; done
done
du -sh "$dest"
