#!/usr/bin/env python3
"""A PyTorch PSO: the peer `swarmtrack bench --suite peers` measures the engine against.

The update is EvoX's PSO rule, v = w v + c1 r1 (pbest - x) + c2 r2 (gbest - x), x = x + v, with the engine's
settings: global best, synchronous update (every particle moves, then the swarm's best is the arg-min of the
personal bests, ties to the lower index), |v_d| <= vmax x the range of dimension d, positions clamped to the
bounds with the velocity kept, the start as the engine draws it (x uniform in the bounds, v uniform in
+-vmax x range). Functions and domains are the engine's (swarm/include/swarm/benchmark_functions.h): sphere on
[-5.12, 5.12]^D, minimised; cuPSO's Eq. 3 cubic on [-100, 100]^D, maximised.

It runs the way a PyTorch user would make it fast: one iteration is a torch.compile'd function (random numbers
drawn inside it, so inductor fuses them into the update), a CUDA graph replays `--graph-steps` iterations per
launch, and CUDA events time the iterations alone after a warm-up (compilation and capture excluded, as the
engine excludes its set-up). It prints one JSON line: the median of `--runs` runs.

Errors are one line on stderr: exit 2 for a bad argument, 3 when PyTorch, CUDA or torch.compile is missing,
1 when the run itself fails.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys
import traceback

FUNCTIONS = {
    # name: (lower, upper, maximise)
    "sphere": (-5.12, 5.12, False),
    "cubic": (-100.0, 100.0, True),
}


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        fail(2, f"{message} (see --help)")


def fail(code, message):
    print(f"pso_torch: {message}", file=sys.stderr)
    sys.exit(code)


def parse_args(argv):
    ap = OneLineParser(description="PyTorch PSO peer of swarmtrack's engine (one JSON line on stdout)")
    ap.add_argument("--function", choices=sorted(FUNCTIONS), default="sphere")
    ap.add_argument("--particles", type=int, default=5000)
    ap.add_argument("--dims", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5, help="timed runs; the median is reported")
    ap.add_argument("--precision", choices=["fp32", "fp64"], default="fp32")
    ap.add_argument("--w", type=float, default=0.7298, help="inertia (default: Clerc's constriction, as the engine)")
    ap.add_argument("--c1", type=float, default=1.49618)
    ap.add_argument("--c2", type=float, default=1.49618)
    ap.add_argument("--vmax", type=float, default=0.5, help="velocity clamp as a fraction of the range (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--graph-steps", type=int, default=100, help="iterations per CUDA graph replay")
    ap.add_argument("--no-compile", action="store_true", help="skip torch.compile (diagnosis only)")
    a = ap.parse_args(argv)
    for name in ("particles", "dims", "iterations", "runs", "graph_steps"):
        if getattr(a, name) < 1:
            fail(2, f"--{name.replace('_', '-')} must be at least 1 (got {getattr(a, name)})")
    for name in ("w", "c1", "c2", "vmax"):
        if not math.isfinite(getattr(a, name)):
            fail(2, f"--{name} must be a finite number")
    if a.vmax < 0:
        fail(2, f"--vmax must be >= 0 (0: no clamp; got {a.vmax})")
    return a


def import_torch():
    # Inductor compiles this iteration's few kernels faster in this process than through its pool of compile
    # workers, whose start would be paid once per workload (the suite runs the script once per workload).
    # Compilation is outside the timed region either way; set the variable to override.
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
    try:
        import torch  # noqa: PLC0415 (imported after the arguments, so bad arguments fail fast without it)
    except Exception as e:  # an ImportError, or a broken install raising anything else
        fail(3, f"PyTorch is not importable ({type(e).__name__}: {e}); install PyTorch 2.x with CUDA for python3")
    if not torch.cuda.is_available():
        fail(3, f"no CUDA device is visible to PyTorch {torch.__version__} (built for CUDA {torch.version.cuda}); "
                "run on a GPU machine")
    if not hasattr(torch, "compile"):
        fail(3, f"PyTorch {torch.__version__} has no torch.compile; PyTorch 2.0 or later is needed")
    return torch


def fitness(torch, name, x):
    """Minimise form: the cubic is maximised, so its negation is minimised."""
    if name == "sphere":
        return (x * x).sum(dim=1)
    return -(x * x * x - 0.8 * x * x - 1000.0 * x + 8000.0).sum(dim=1)


def best_of(torch, p, pf):
    """The swarm's best, (1, D), and its fitness, a 0-d tensor: the first arg-min of `pf` (ties to the lower index,
    as the engine's), selected with a tensor index. `p[i]` with a 0-d tensor `i` would turn `i` into a Python int,
    a data-dependent value that torch.compile cannot trace into one graph."""
    i = torch.argmin(pf).reshape(1)
    return torch.index_select(p, 0, i), torch.index_select(pf, 0, i).reshape(())


class Swarm:
    """The swarm's state in static tensors, updated in place so that a CUDA graph can replay the iterations."""

    def __init__(self, torch, a, device="cuda"):
        self.torch = torch
        self.a = a
        self.dtype = torch.float32 if a.precision == "fp32" else torch.float64
        dev = torch.device(device)
        lo, hi, _ = FUNCTIONS[a.function]
        self.lo, self.hi = lo, hi
        rng = hi - lo
        self.vlim = a.vmax * rng if a.vmax > 0 else math.inf
        self.vstart = a.vmax * rng if a.vmax > 0 else 0.5 * rng
        shape = (a.particles, a.dims)
        self.x = torch.empty(shape, dtype=self.dtype, device=dev)
        self.v = torch.empty_like(self.x)
        self.p = torch.empty_like(self.x)
        self.pf = torch.empty(a.particles, dtype=self.dtype, device=dev)
        self.gx = torch.empty((1, a.dims), dtype=self.dtype, device=dev)
        self.gf = torch.empty((), dtype=self.dtype, device=dev)

    def reset(self, seed):
        torch, a = self.torch, self.a
        torch.manual_seed(seed)
        self.x.uniform_(self.lo, self.hi)
        self.v.uniform_(-self.vstart, self.vstart)
        self.p.copy_(self.x)
        self.pf.copy_(fitness(torch, a.function, self.x))
        gx, gf = best_of(torch, self.p, self.pf)
        self.gx.copy_(gx)
        self.gf.copy_(gf)

    def step(self):
        """One synchronous iteration (the function torch.compile traces)."""
        torch, a = self.torch, self.a
        x, v, p, pf, gx = self.x, self.v, self.p, self.pf, self.gx
        r1 = torch.rand_like(x)
        r2 = torch.rand_like(x)
        nv = a.w * v + a.c1 * r1 * (p - x) + a.c2 * r2 * (gx - x)
        if math.isfinite(self.vlim):
            nv = nv.clamp(-self.vlim, self.vlim)
        nx = (x + nv).clamp(self.lo, self.hi)
        f = fitness(torch, a.function, nx)
        better = f < pf
        np_ = torch.where(better.unsqueeze(1), nx, p)
        npf = torch.where(better, f, pf)
        ngx, ngf = best_of(torch, np_, npf)
        x.copy_(nx)
        v.copy_(nv)
        p.copy_(np_)
        pf.copy_(npf)
        gx.copy_(ngx)
        self.gf.copy_(ngf)


def capture(torch, fn, steps, stream):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=stream):
        for _ in range(steps):
            fn()
    return g


def first_line(e, limit=300):
    text = str(e).strip()
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= limit else line[:limit - 3] + "..."


def where(e):
    """' at pso_torch.py:LINE in FUNCTION' for the innermost line of this script in the exception's traceback or in
    its message (torch.compile's errors name the user code they traced there), else ''."""
    me = os.path.basename(__file__)
    text = "".join(traceback.format_exception(type(e), e, e.__traceback__)) + "\n" + str(e)
    hits = re.findall(r'File "([^"]*)", line (\d+), in (\w+)', text)
    hits = [(line, fn) for path, line, fn in hits if os.path.basename(path) == me and fn != "main"]
    return f" at {me}:{hits[-1][0]} in {hits[-1][1]}" if hits else ""


def main(argv):
    a = parse_args(argv)
    torch = import_torch()
    try:
        sw = Swarm(torch, a)
        step = sw.step if a.no_compile else torch.compile(sw.step, fullgraph=True, dynamic=False)
        steps = min(a.graph_steps, a.iterations)
        full, tail = divmod(a.iterations, steps)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            sw.reset(a.seed)
            for _ in range(3):  # compiles, and warms the allocator before capture (PyTorch's graph recipe)
                step()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = capture(torch, step, steps, side)
        tail_graph = capture(torch, step, tail, side) if tail else None

        def run(seed):
            sw.reset(seed)
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda.synchronize()
            start.record()
            for _ in range(full):
                graph.replay()
            if tail_graph is not None:
                tail_graph.replay()
            stop.record()
            stop.synchronize()
            best = float(sw.gf.item())
            return start.elapsed_time(stop), -best if FUNCTIONS[a.function][2] else best

        sw.reset(a.seed)  # warm-up: a graph's first replay uploads it; one replay of each, not a whole run
        graph.replay()
        if tail_graph is not None:
            tail_graph.replay()
        torch.cuda.synchronize()
        results = [run(a.seed + k) for k in range(a.runs)]
    except Exception as e:  # compilation, capture or an out-of-memory: one line, not a traceback
        fail(1, f"run failed{where(e)} ({type(e).__name__}: {first_line(e)})")
    times = [t for t, _ in results]
    median = statistics.median(times)
    best = min(results, key=lambda r: abs(r[0] - median))[1]  # the run nearest the median
    print(json.dumps({
        "peer": "pytorch-pso",
        "workload": a.function,
        "particles": a.particles,
        "dims": a.dims,
        "iterations": a.iterations,
        "precision": a.precision,
        "w": a.w, "c1": a.c1, "c2": a.c2, "vmax": a.vmax,
        "ms": median,
        "ms_runs": times,
        "best": best,
        "compiled": not a.no_compile,
        "graph_steps": steps,
        "torch": torch.__version__,
        "device": torch.cuda.get_device_name(0),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
