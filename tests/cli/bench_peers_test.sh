#!/usr/bin/env bash
# `bench --suite peers` without a GPU peer to hand: the CPU references run, what is skipped says why, the PyTorch
# peer's command line and result line go through a stand-in interpreter, and bad input gives one line.
# Usage: bench_peers_test.sh PATH/TO/swarmtrack[-bench] SOURCE_DIR
set -uo pipefail
bin="$1"
src="$2"
source "$(dirname "$0")/../cli_checks.sh"
want() { # name, file, fixed string
    grep -qF -- "$3" "$2" || { echo "FAIL $1: $2 lacks '$3':"; cat "$2"; fail=1; }
}
gpu=no
"$bin" bench --list-strategies | grep -qE '^\| gpu-fused +\| yes' && gpu=yes

# --backend cpu: every workload's CPU reference, the GPU rows and the peer skipped with a reason.
check "cpu only" 0 "$bin" bench --suite peers --quick --backend cpu --runs 1 --json "$tmp/cpu.json"
[ "$(grep -c '| cpu-serial ' "$tmp/out")" = 6 ] || { echo "FAIL not six cpu-serial rows:"; cat "$tmp/out"; fail=1; }
want "cpu only" "$tmp/out" "GPU strategies skipped: --backend cpu"
want "cpu only" "$tmp/out" "PyTorch peer skipped: --backend cpu"
want "cpu only" "$tmp/out" "# swarmtrack bench --suite peers"
want "cpu only json" "$tmp/cpu.json" '"suite": "peers"'

# A stand-in interpreter: imports torch, and answers the script's command line with a result line of 4 ms.
cat >"$tmp/fake-python" <<'EOF'
#!/usr/bin/env bash
if [ "$1" = "-c" ]; then exit 0; fi
echo "$*" >>"$(dirname "$0")/calls"
echo "some warning a compiler printed" >&2
echo '{"peer": "pytorch-pso", "ms": 4.0, "best": 900000.0, "torch": "9.9-fake", "device": "Fake GPU"}'
EOF
chmod +x "$tmp/fake-python"
check "stand-in peer" 0 "$bin" bench --suite peers --quick --runs 1 --peer-python "$tmp/fake-python" --json "$tmp/fake.json"
[ "$(wc -l <"$tmp/calls")" = 6 ] || { echo "FAIL the peer ran $(wc -l <"$tmp/calls") times, not once per workload"; fail=1; }
# The shipped script from the build tree, the workload's own parameters (cuPSO's for the cubic, fp64 synchronous).
want "peer command" "$tmp/calls" "$src/app/bench/peers/pso_torch.py --function cubic --particles 32 --dims 1 --iterations 2000 --runs 1 --precision fp64 --w 1 --c1 2 --c2 2 --vmax 1 --seed 1"
want "peer command" "$tmp/calls" "--function sphere --particles 500 --dims 50 --iterations 50 --runs 1 --precision fp32 --w 0.7298 --c1 1.4961800000000001 --c2 1.4961800000000001 --vmax 0.5 --seed 1"
want "peer row" "$tmp/out" "torch 9.9-fake"
# Every row carries the peer's time over its own: 4 ms over the cpu-serial row's ms.
python3 - "$tmp/fake.json" <<'EOF' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
assert len(j["pytorch"]) == 6, j["pytorch"]
rows = [r for r in j["rows"] if r["runner"] == "cpu-serial"]
assert len(rows) == 6, rows
for r in rows:
    want = 4.0 / float(r["ms"])
    got = float(r["PyTorch / this"])
    assert abs(got - want) <= 0.01 * want, (r, want)
peers = [r for r in j["rows"] if r["runner"] == "pytorch-pso"]
assert len(peers) == 6 and all(r["ms"] == "4" and r["PyTorch / this"] == "1" for r in peers), peers
print("ok   ratios")
EOF

# A peer that finds no GPU is asked once, then skipped with its own one-line reason.
cat >"$tmp/nogpu-python" <<'EOF'
#!/usr/bin/env bash
if [ "$1" = "-c" ]; then exit 0; fi
echo "$*" >>"$(dirname "$0")/nogpu-calls"
echo "pso_torch: no CUDA device is visible to PyTorch 9.9 (built for CUDA None); run on a GPU machine" >&2
exit 3
EOF
chmod +x "$tmp/nogpu-python"
check "peer without a GPU" 0 "$bin" bench --suite peers --quick --runs 1 --peer-python "$tmp/nogpu-python"
[ "$(wc -l <"$tmp/nogpu-calls")" = 1 ] || { echo "FAIL a peer without a GPU was asked again"; fail=1; }
want "peer without a GPU" "$tmp/out" "PyTorch peer skipped from here on: pso_torch: no CUDA device is visible"

# An interpreter without torch: skipped, with the interpreter named.
check "no torch" 0 "$bin" bench --suite peers --quick --runs 1 --peer-python "$tmp/no-such-python"
want "no torch" "$tmp/out" "PyTorch peer skipped: $tmp/no-such-python -c 'import torch' failed"

# Bad input: one line naming the option, non-zero exit, nothing run.
check "missing --peer-script" 2 "$bin" bench --suite peers --quick --peer-script "$tmp/nope.py"
one_line_error "missing --peer-script"
want "missing --peer-script" "$tmp/err" "--peer-script: $tmp/nope.py: no such file"
check "--runs 0" 2 "$bin" bench --suite peers --quick --runs 0
one_line_error "--runs 0"
check "unknown suite names peers" 2 "$bin" bench --suite peer
want "unknown suite" "$tmp/err" "functions, seeds, peers,"
if [ "$gpu" = no ]; then
    check "--backend cuda without a GPU" 3 "$bin" bench --suite peers --quick --backend cuda
    one_line_error "--backend cuda without a GPU"
fi
[ "$fail" = 0 ] && echo "bench peers test passed"
exit "$fail"
