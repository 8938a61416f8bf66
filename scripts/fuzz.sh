#!/bin/sh
# Build the libFuzzer harnesses of tests/fuzz with clang in build/fuzz and run
# each one for ${FUZZ_SECONDS:-60} seconds on a copy of its committed seed
# corpus.  Fails on the first crash, leak, UB report or timeout; the input
# that triggered it is left in build/fuzz/artifacts/<harness>/.
#
#   ./scripts/fuzz.sh                      # every harness, 60 s each
#   FUZZ_SECONDS=600 ./scripts/fuzz.sh fuzz_number fuzz_sb_csv
#   build/fuzz/tests/fuzz/fuzz_number FILE # replay one input
#
# Without clang (and its libFuzzer runtime) the harnesses cannot be built:
# the script then says so and exits 0 (scripts/install-deps.sh installs both).
set -e
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
SECONDS_EACH=${FUZZ_SECONDS:-60}
JOBS=${JOBS:-2}
BUILD=build/fuzz
HARNESSES="fuzz_graphml fuzz_gml fuzz_schedule_check fuzz_number fuzz_sb_csv fuzz_redist_matrix fuzz_matrix"
[ $# -gt 0 ] && HARNESSES="$*"

CC_FUZZ=${CC_FUZZ:-clang}
CXX_FUZZ=${CXX_FUZZ:-clang++}
if ! command -v "$CC_FUZZ" >/dev/null 2>&1; then
    echo "fuzz.sh: $CC_FUZZ not found, libFuzzer harnesses not built (run ./scripts/install-deps.sh)"
    exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$probe/p.c"
if ! "$CC_FUZZ" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1; then
    echo "fuzz.sh: $CC_FUZZ cannot link -fsanitize=fuzzer (libclang-rt-dev missing?), harnesses not built"
    exit 0
fi

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$CC_FUZZ" \
    -DCMAKE_CXX_COMPILER="$CXX_FUZZ" -DSSCHED_FUZZ=ON -DSSCHED_BUILD_TESTS=OFF >/dev/null
# shellcheck disable=SC2086
cmake --build "$BUILD" -j"$JOBS" --target $HARNESSES

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
for h in $HARNESSES; do
    seeds=tests/fuzz/corpus/$h
    [ -d "$seeds" ] || { echo "fuzz.sh: no seed corpus $seeds"; exit 1; }
    # New inputs go to a scratch corpus; the committed seeds stay untouched.
    work=$BUILD/corpus/$h
    art=$BUILD/artifacts/$h
    mkdir -p "$work" "$art"
    dict=
    [ -f "tests/fuzz/$h.dict" ] && dict="-dict=tests/fuzz/$h.dict"
    echo "== $h: ${SECONDS_EACH} s (seeds: $(ls "$seeds" | wc -l))"
    # shellcheck disable=SC2086
    if "$BUILD/tests/fuzz/$h" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$art/" $dict \
        "$work" "$seeds" >"$BUILD/$h.log" 2>&1; then
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$BUILD/$h.log" || true
        grep -E 'cov: [0-9]+' "$BUILD/$h.log" | tail -n 1 || true
    else
        status=1
        echo "fuzz.sh: $h FAILED (log $BUILD/$h.log, input in $art/):"
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$BUILD/$h.log" | head -n 20 || true
    fi
done
exit $status
