#!/usr/bin/env bash
# Configures and builds profdiff in ./build (Release with debug info, warnings as errors).
# Usage: scripts/build.sh [build-dir] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-build}"
shift || true
JOBS="${JOBS:-2}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DPROFDIFF_WERROR=ON "$@" >/dev/null
ninja -C "$BUILD_DIR" -j "$JOBS"
