#!/bin/sh
# The whole test suite, as CI runs it: install missing packages, build with
# -Werror and run every CUnit suite, then rebuild under AddressSanitizer +
# UndefinedBehaviorSanitizer and run the suite once more.
set -e
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
JOBS=${JOBS:-2}
cmake -S . -B build/werror -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSCHED_WERROR=ON >/dev/null
cmake --build build/werror -j"$JOBS"
ctest --test-dir build/werror --output-on-failure -j"$JOBS"
cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DSSCHED_WERROR=ON -DSSCHED_SANITIZE=ON >/dev/null
cmake --build build/sanitize -j"$JOBS"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/sanitize --output-on-failure -j"$JOBS"
