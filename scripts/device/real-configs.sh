#!/usr/bin/env bash
# Runs on the GPU machine over a carried pack (scripts/devrun-pack.sh DEST build/app/swarmtrack-bench
# build/tests/tracker_gpu_tests; tar -cJf) and a part of the dev set (DATA_DIR: images/ and labels.csv; the whole set
# is over the device tool's 64 MB, so it travels in parts, one call each): the real suite on the GPU backend with
# the defaults and with each settings file named, on the frames as decoded and blurred by 1 px then re-saved at
# quality 92; predictions kept, so the parts are scored together afterwards (`swarmtrack eval --labels`). With
# `tests` first: the tracker GPU suite and memcheck on the CPU/GPU agreement tests.
# Usage (repository root there): scripts/device/real-configs.sh PACK DATA_DIR [tests] [CONFIG.json...]
set -uo pipefail
pack="$1"
data="$(cd "$2" && pwd)"
shift 2
source "$(dirname "$0")/check-lib.sh"
mode=""
if [ "${1:-}" = tests ]; then
    mode=tests
    shift
fi
configs=("")
for c in "$@"; do configs+=("$(cd "$(dirname "$c")" && pwd)/$(basename "$c")"); done
check_setup "$pack" real-configs
export SWARMTRACK_ASSETS="$OLDPWD/assets"
if [ "$mode" = tests ]; then
    LIMIT=400 step tracker_gpu ./tracker_gpu_tests --gtest_brief=1
    step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 ./tracker_gpu_tests \
        --gtest_filter='*Agree*' --gtest_brief=1
fi
for c in "${configs[@]}"; do
    name="defaults"
    args=()
    if [ -n "$c" ]; then
        name="$(basename "$c" .json)"
        args=(--config "$c")
    fi
    for degrade in decoded blurred; do
        extra=()
        [ "$degrade" = blurred ] && extra=(--blur 1 --resave-quality 92)
        step "real_${name}_${degrade}" ./swarmtrack-bench bench --suite real --data "$data" --backend cuda \
            "${args[@]}" "${extra[@]}" --predictions "$final/pred_${name}_${degrade}.jsonl"
        grep -hE '^\| (any sign|NVIDIA)' "$out/real_${name}_${degrade}.log"
    done
done
tar -C "$out" -czf "$final/real-configs-logs.tgz" .
