# shellcheck shell=bash
# Shared by the SMPI benchmarks (sourced, not run).
#
#   bench_ssched ROOT          SSCHED := $SSCHED or ROOT/build/release/ssched,
#                              built (Release) if absent
#   bench_smpi_program ROOT W SRC OUT
#                              SRC compiled with smpicc into OUT, linked with
#                              ssched-exec-smpi's envelope shim (so that B
#                              bytes take exactly l + B/bw under the exact
#                              configuration, bench/smpi_exact.sh); the shim
#                              object is built once per work folder W
bench_ssched() {
    SSCHED=${SSCHED:-$1/build/release/ssched}
    if [ ! -x "$SSCHED" ]; then
        cmake -S "$1" -B "$1/build/release" -DCMAKE_BUILD_TYPE=Release >/dev/null
        cmake --build "$1/build/release" -j2 --target ssched_cli >/dev/null
    fi
}

bench_smpi_program() {
    command -v smpicc >/dev/null || { echo "smpicc not found (SimGrid)" >&2; exit 1; }
    [ -f "$2/env.o" ] ||
        g++ -std=c++17 -O2 -fPIC -c "$1/src/mpi/smpi_envelope.cpp" -o "$2/env.o"
    smpicc -O2 "$3" "$2/env.o" -o "$4" -lsimgrid -lstdc++ >"$2/cc.log" 2>&1 ||
        { cat "$2/cc.log" >&2; exit 1; }
}
