#!/usr/bin/env bash
# The bench/selftest command line: good runs produce their files; bad input gives one line, non-zero exit,
# and no file. Usage: bench_cli_test.sh PATH/TO/swarmtrack
set -uo pipefail
bin="$1"
source "$(dirname "$0")/../cli_checks.sh"

check "bench runs and writes json+csv" 0 "$bin" bench --strategy cpu-serial --function sphere --particles 8 --dims 3 --iters 20 --runs 1 --json "$tmp/b.json" --csv "$tmp/b.csv"
grep -q '"strategy": "cpu-serial"' "$tmp/b.json" || { echo "FAIL json content"; fail=1; }
[ "$(wc -l <"$tmp/b.csv")" = 2 ] || { echo "FAIL csv rows"; fail=1; }
ls "$tmp" | grep -q 'tmp-' && { echo "FAIL temporary file left behind"; fail=1; }

# Every engine parameter of the run is recorded: JSON "parameters" and CSV columns.
check "bench with PSO coefficients" 0 "$bin" bench --strategy cpu-serial --function sphere --particles 8 --dims 3 --iters 20 --runs 1 --w 0.9 --c1 2 --c2 1.5 --vmax 0.2 --json "$tmp/p.json" --csv "$tmp/p.csv"
for kv in '"w": "0.9"' '"c1": "2"' '"c2": "1.5"' '"vmax": "0.2"' '"velocity_clamp": "per-dimension"' '"seed": "1"'; do
    grep -q "$kv" "$tmp/p.json" || { echo "FAIL json parameters lack $kv"; fail=1; }
done
head -1 "$tmp/p.csv" | grep -q ",w,c1,c2,velocity_clamp,vmax," || { echo "FAIL csv lacks the parameter columns"; fail=1; }
check "--velocity-clamp off with --vmax" 2 "$bin" bench --strategy cpu-serial --function sphere --iters 5 --runs 1 --velocity-clamp off --vmax 0.3
one_line_error "--velocity-clamp off with --vmax"
check "--w out of range" 2 "$bin" bench --strategy cpu-serial --function sphere --iters 5 --runs 1 --w 5
one_line_error "--w out of range"
grep -q -- "--w: must be in \[-1, 2\] (got 5)" "$tmp/err" || { echo "FAIL --w error"; cat "$tmp/err"; fail=1; }

check "list strategies" 0 "$bin" bench --list-strategies
grep -q "gpu-fused" "$tmp/out" || { echo "FAIL list lacks gpu-fused"; fail=1; }

check "unknown strategy" 2 "$bin" bench --strategy gpu-magic
one_line_error "unknown strategy"
grep -q "strategy" "$tmp/err" || { echo "FAIL error does not name --strategy"; fail=1; }

check "unknown function" 2 "$bin" bench --function nope
one_line_error "unknown function"

# A small search keeps this seconds long under the sanitizers too; the suite's path is the same.
echo '{"particles": 8, "generations": 5}' >"$tmp/small.json"
check "scenes suite, quick, one scene, cpu" 0 "$bin" bench --suite scenes --quick --scene easy --backend cpu --config "$tmp/small.json" --json "$tmp/s.json"
grep -q '"scene": "easy"' "$tmp/s.json" || { echo "FAIL scenes json lacks the scene row"; fail=1; }
grep -q "recall" "$tmp/out" || { echo "FAIL scenes table lacks recall"; fail=1; }
check "scenes suite, unknown scene" 2 "$bin" bench --suite scenes --scene nope
one_line_error "unknown scene"
grep -q -- "--scene" "$tmp/err" || { echo "FAIL error does not name --scene"; fail=1; }
check "scenes suite, missing config" 2 "$bin" bench --suite scenes --config "$tmp/none.json"
one_line_error "missing config"

check "bad particles" 2 "$bin" bench --strategy cpu-serial --function sphere --particles 0 --iters 5 --runs 1
one_line_error "bad particles"
grep -q "particles" "$tmp/err" || { echo "FAIL error does not name --particles"; fail=1; }

check "non-numeric iterations" 2 "$bin" bench --iters many
check "unwritable json" 2 "$bin" bench --strategy cpu-serial --function sphere --iters 5 --runs 1 --json /nonexistent-dir/x.json
one_line_error "unwritable json"
[ -e /nonexistent-dir/x.json ] && fail=1

check "fixed-dimension function with other dims" 2 "$bin" bench --strategy cpu-serial --function easom --dims 5 --iters 5 --runs 1
one_line_error "fixed-dimension function"

check "selftest cpu" 0 "$bin" selftest --backend cpu --strategy cpu-serial
grep -q "selftest: .* passed, 0 failed" "$tmp/out" || { echo "FAIL selftest summary"; fail=1; }

check "bad backend" 2 "$bin" selftest --backend opencl
one_line_error "bad backend"

if ! "$bin" bench --list-strategies | grep -q "gpu-reduction *| yes"; then
    check "cuda backend without a GPU" 3 "$bin" selftest --backend cuda
    one_line_error "cuda backend without a GPU"
fi

exit $fail
