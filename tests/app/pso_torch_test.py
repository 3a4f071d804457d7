#!/usr/bin/env python3
"""The PyTorch PSO peer (app/bench/peers/pso_torch.py).

Always: bad arguments and a missing PyTorch or CUDA are one line on stderr with the documented exit code.
Where the interpreter imports torch: the swarm's maths on the CPU, eagerly (no compile, no graph), against the
engine's rules: the global best is the best personal best, positions stay in the bounds, velocities within the
clamp, and the swarm reaches the known optima (sphere 0, the cubic's 900,000 at x = 100). And the iteration is one
graph with no data-dependent Python value (an index taken out of a tensor broke torch.compile under PyTorch 2.11):
PyTorch 2 compiles it on the CPU with fullgraph=True (the eager backend: dynamo's tracing, no code generation);
PyTorch 1.13 traces it with torch.jit.trace, whose graph must hold no tensor-to-int conversion.
Usage: pso_torch_test.py PATH/TO/pso_torch.py
"""
import importlib.util
import subprocess
import sys

script = sys.argv[1]
failures = []


def run(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=600)


def one_line(name, p, code):
    lines = p.stderr.strip().splitlines()
    if p.returncode != code or len(lines) != 1 or not lines[0].startswith("pso_torch: "):
        failures.append(f"{name}: exit {p.returncode} (wanted {code}), stderr {p.stderr!r}")
    else:
        print(f"ok   {name}")


for name, args in [("particles 0", ["--particles", "0"]), ("unknown function", ["--function", "rosenbrock"]),
                   ("negative vmax", ["--vmax", "-1"]), ("nan w", ["--w", "nan"]), ("unknown option", ["--bogus"])]:
    one_line(name, run(*args), 2)

try:
    import torch
except ImportError:
    torch = None

tiny = ["--function", "sphere", "--particles", "16", "--dims", "2", "--iterations", "20", "--runs", "1"]
if torch is None:
    one_line("no torch", run(*tiny), 3)
elif not torch.cuda.is_available():
    one_line("no CUDA", run(*tiny), 3)
else:  # a GPU: the real thing, compiled and graphed
    p = run(*tiny)
    import json
    try:
        j = json.loads(p.stdout.strip().splitlines()[-1])
        assert p.returncode == 0 and j["ms"] > 0 and j["iterations"] == 20 and j["best"] >= 0, j
        print("ok   a run on the GPU")
    except Exception as e:  # noqa: BLE001 (any failure is reported as one)
        failures.append(f"GPU run: {e}; exit {p.returncode}, stderr {p.stderr!r}")

if torch is not None:
    spec = importlib.util.spec_from_file_location("pso_torch", script)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    cases = [
        (["--function", "sphere", "--particles", "64", "--dims", "5", "--iterations", "300"], 0.0, 1e-6),
        (["--function", "sphere", "--particles", "64", "--dims", "5", "--iterations", "300", "--precision", "fp64",
          "--vmax", "0"], 0.0, 1e-6),
        (["--function", "cubic", "--particles", "32", "--dims", "1", "--iterations", "200", "--w", "1", "--c1", "2",
          "--c2", "2", "--vmax", "1"], -900000.0, 0.0),
    ]
    for argv, optimum, tol in cases:
        a = m.parse_args(argv)
        sw = m.Swarm(torch, a, device="cpu")
        sw.reset(1)
        ok = True
        for _ in range(a.iterations):
            sw.step()
            ok &= float(sw.gf) == float(sw.pf.min())
            ok &= bool(torch.all(sw.x >= sw.lo)) and bool(torch.all(sw.x <= sw.hi))
            if a.vmax > 0:
                ok &= bool(torch.all(sw.v.abs() <= sw.vlim * (1 + 1e-6)))
        name = " ".join(argv[:2] + argv[-2:])
        if not ok or abs(float(sw.gf) - optimum) > tol:
            failures.append(f"maths, {name}: best {float(sw.gf)} (wanted {optimum} within {tol}); rules held: {ok}")
        else:
            print(f"ok   maths, {name}: best {float(sw.gf):.6g}")

    a = m.parse_args(["--function", "sphere", "--particles", "16", "--dims", "3"])
    sw = m.Swarm(torch, a, device="cpu")
    sw.reset(1)
    if hasattr(torch, "compile"):
        try:
            step = torch.compile(sw.step, backend="eager", fullgraph=True, dynamic=False)
            for _ in range(3):
                step()
            assert float(sw.gf) == float(sw.pf.min()), (float(sw.gf), float(sw.pf.min()))
            print("ok   one graph: torch.compile(fullgraph=True) traces the iteration")
        except Exception as e:  # noqa: BLE001 (the compiler's error is the finding)
            failures.append(f"torch.compile(fullgraph=True) of the iteration: {type(e).__name__}: "
                            f"{str(e).strip().splitlines()[0] if str(e).strip() else ''}")
    else:
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            graph = str(torch.jit.trace(lambda: (sw.step(), sw.gf)[1], (), check_trace=False).graph)
        bad = [op for op in ("aten::Int", "aten::item", "aten::ScalarImplicit", "aten::IntImplicit") if op in graph]
        bad += [str(w.message).splitlines()[0] for w in caught if "Python" in str(w.message)]
        if bad:
            failures.append(f"the iteration turns a tensor into a Python value: {bad}")
        else:
            print("ok   one graph: torch.jit.trace of the iteration has no tensor-to-int conversion")
else:
    print("maths checks not run: this interpreter has no torch")

for f in failures:
    print(f"FAIL {f}")
print("pso_torch test passed" if not failures else "pso_torch test failed")
sys.exit(1 if failures else 0)
