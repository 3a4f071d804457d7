#!/usr/bin/env bash
# Installs the Debian packages swarmtrack needs, only those missing, quietly. Safe to run repeatedly.
set -euo pipefail

packages=(
    cmake ninja-build g++ pkg-config git
    libopencv-dev libjpeg-dev libglfw3-dev libimgui-dev libgl-dev
    libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libgtest-dev
    xvfb xauth libgl1-mesa-dri
    clang-14 libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "swarmtrack: installing missing packages: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
