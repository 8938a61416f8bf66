#!/bin/sh
# The main job on a shipped example: install missing packages, build, and
# plan a series of scatters on a generated Tiers-like platform.
set -e
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j2 >/dev/null
PLATFORM=examples/tiers-small.graphml
SOURCE=$(grep -o 'node id="h[^"]*"' "$PLATFORM" | head -1 | sed 's/node id="//; s/"//')
TARGETS=$(grep -o 'node id="h[^"]*"' "$PLATFORM" | tail -n +2 | sed 's/node id="//; s/"//' | paste -sd, -)
set -x
./build/release/ssched solve "$PLATFORM" --problem scatter --source "$SOURCE" --targets "$TARGETS"
