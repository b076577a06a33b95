#!/usr/bin/env bash
# Builds everything (warnings are errors) and runs the whole test suite with ctest.
# Usage: scripts/test.sh [build-dir] [extra cmake args...]   (JOBS=2 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-build}"
shift || true
JOBS="${JOBS:-2}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DPROFDIFF_WERROR=ON "$@" >/dev/null
ninja -C "$BUILD_DIR" -j "$JOBS"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
