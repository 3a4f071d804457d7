#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang-14 + ASan/UBSan, no CUDA) in build-sanitize/ and runs each
# for SECONDS (default 120). New interesting inputs go to build-sanitize/fuzz-work/<target>/ (copy the
# useful ones into fuzz/corpus/<target>/); crashes are written to build-sanitize/fuzz-artifacts/ and make
# the script fail. Every crash becomes a regression input in fuzz/corpus/<target>/ plus a fix.
#   scripts/fuzz.sh            # 2 minutes per target
#   scripts/fuzz.sh 600        # 10 minutes per target
#   FUZZ_TARGETS="camera jsonl" scripts/fuzz.sh 30
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-120}"
san="${SWARMTRACK_SANITIZE_DIR:-$root/build-sanitize}"
targets="${FUZZ_TARGETS:-settings sign_model camera jsonl labels engine_args}"

"$root/scripts/deps.sh"
if [ ! -f "$san/build.ninja" ] || ! grep -q "SWARMTRACK_FUZZ:BOOL=ON" "$san/CMakeCache.txt"; then
    CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$san" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSWARMTRACK_CUDA=OFF -DSWARMTRACK_SANITIZE=address,undefined -DSWARMTRACK_FUZZ=ON >/dev/null
fi
cmake --build "$san" --target fuzz_all -- -j"$(nproc)"

mkdir -p "$san/fuzz-artifacts"
status=0
for t in $targets; do
    work="$san/fuzz-work/$t"
    mkdir -p "$work"
    echo "swarmtrack: fuzzing $t for ${seconds}s" >&2
    # The first folder receives new inputs; the committed corpus is only read.
    if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$san/fuzz/fuzz_$t" "$work" "$root/fuzz/corpus/$t" -max_total_time="$seconds" -max_len=8192 \
        -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$san/fuzz-artifacts/$t-" -print_final_stats=1 \
        >"$san/fuzz-artifacts/$t.log" 2>&1; then
        echo "swarmtrack: fuzz_$t found a problem: see $san/fuzz-artifacts/$t.log" >&2
        tail -n 30 "$san/fuzz-artifacts/$t.log" >&2
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" "$san/fuzz-artifacts/$t.log" | tr '\n' ' ' >&2
        echo >&2
    fi
done
exit $status
