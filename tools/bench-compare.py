#!/usr/bin/env python3
"""Times the benchmarks of two commits in turns, on the same machine in the same sitting, and
prints each benchmark's ratio (the second commit's time over the first's).

    python3 tools/bench-compare.py BASE HEAD [--crate springmesh-core] [--bench solver]
                                   [--filter explicit/128] [--rounds 5] [--seconds 3]
                                   [--side-by-side]

Each commit is checked out in a worktree of its own under target/bench-compare/ and its
benchmark built there, into one target folder for both (the dependencies built once; later
runs reuse it all). Then, `--rounds` times, each commit's benchmark binary runs the `--filter`ed
benchmarks for `--seconds` of measurement each, one commit after the other, so that a machine
whose speed drifts over minutes (turbo, other work) drifts for both. The figure of each
benchmark is the median over the rounds of criterion's middle estimate; a ratio above 1 is a
regression of HEAD. Machine speed changes by more than most regressions from one minute to
the next: timed apart, two runs of one commit differ by 10–30% here; in turns, by a few %.

With `--side-by-side` the two commits' benchmarks run at the same time instead, each on a core
of its own (`taskset`), the cores swapped each round, and the figure is the median over the
rounds of each round's ratio: both builds then see the same minute of the machine. On the
two-core machine where the speed swung by up to 35% from one minute to the next, this was the
only way that gave two commits the same ratio twice (0.93–0.97 where in turns gave 0.9–1.1).
The two run the same benchmarks in the same order, so each runs beside its counterpart as long
as the commits' benchmarks take about as long; a `--filter` that picks few keeps them in step.

docs/architecture.md ("Performance") says which benchmarks guard what.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

UNITS = {"ps": 1e-12, "ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def sh(args, cwd=ROOT, **kw):
    return subprocess.run(args, cwd=cwd, check=True, text=True, **kw)


def worktree(commit):
    """A worktree of `commit` (its full hash) under target/bench-compare/."""
    sha = sh(["git", "rev-parse", "--verify", commit + "^{commit}"], capture_output=True).stdout.strip()
    path = os.path.join(ROOT, "target", "bench-compare", sha[:12])
    if not os.path.isdir(path):
        sh(["git", "worktree", "add", "--detach", path, sha], capture_output=True)
    return sha, path


def build(path, crate, bench):
    """Builds the benchmark `bench` of `crate` in the worktree `path`; its executable. The
    worktrees share one target folder: the dependencies are built once, each commit's crates
    (other paths) beside each other."""
    target = os.path.join(ROOT, "target", "bench-compare", "target")
    done = sh(
        ["cargo", "bench", "-p", crate, "--bench", bench, "--no-run", "--message-format=json"],
        cwd=path,
        capture_output=True,
        env={**os.environ, "CARGO_TARGET_DIR": target},
    )
    for line in done.stdout.splitlines():
        message = json.loads(line)
        target = message.get("target", {})
        if message.get("reason") == "compiler-artifact" and target.get("name") == bench and message.get("executable"):
            return message["executable"]
    sys.exit(f"no executable for the bench {bench} of {crate} in {path}")


def start(executable, path, filter, seconds, core=None):
    """Starts one run of `executable` (on `core` alone when given)."""
    pinned = ["taskset", "-c", str(core)] if core is not None else []
    args = [executable, "--bench", filter, "--noplot", "--warm-up-time", "1", "--measurement-time", str(seconds)]
    return subprocess.Popen(pinned + args, cwd=path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def times(process):
    """Each benchmark's middle time estimate (s) from the run `process`."""
    out, _ = process.communicate()
    if process.returncode != 0:
        sys.exit(f"a benchmark run failed ({process.args})")
    found, name = {}, None
    for line in out.splitlines():
        m = re.match(r"^(\S.*?)\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
        if m:
            found[m.group(1).strip()] = float(m.group(2)) * UNITS[m.group(3)]
            continue
        m = re.match(r"^\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
        if m and name:
            found[name] = float(m.group(1)) * UNITS[m.group(2)]
            continue
        if line and not line[0].isspace() and "time:" not in line and not line.startswith(("Benchmarking", "Found", "Gnuplot", "WARNING")):
            name = line.strip()
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("head")
    parser.add_argument("--crate", default="springmesh-core")
    parser.add_argument("--bench", default="solver")
    parser.add_argument("--filter", default="")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--side-by-side", action="store_true", help="run the two at once, a core each")
    args = parser.parse_args()
    commits = []
    for commit in (args.base, args.head):
        sha, path = worktree(commit)
        print(f"building {args.crate} --bench {args.bench} at {sha[:12]}", file=sys.stderr)
        commits.append((commit, path, build(path, args.crate, args.bench)))
    samples = [dict() for _ in commits]
    ratios = {}
    for r in range(args.rounds):
        if args.side_by_side:
            cores = (0, 1) if r % 2 == 0 else (1, 0)
            running = [start(e, path, args.filter, args.seconds, core) for (_, path, e), core in zip(commits, cores)]
            found = [times(p) for p in running]
            for name in set(found[0]) & set(found[1]):
                ratios.setdefault(name, []).append(found[1][name] / found[0][name])
        else:
            found = [times(start(e, path, args.filter, args.seconds)) for _, path, e in commits]
        for k, each in enumerate(found):
            for name, t in each.items():
                samples[k].setdefault(name, []).append(t)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    base, head = samples
    print(f"{'benchmark':40} {args.base[:12]:>12} {args.head[:12]:>12}  ratio")
    for name in sorted(set(base) & set(head)):
        b, h = statistics.median(base[name]), statistics.median(head[name])
        if args.side_by_side:
            each = ratios[name]
            spread = f"  (rounds {min(each):.3f}–{max(each):.3f})"
            print(f"{name:40} {b * 1e6:10.2f}µs {h * 1e6:10.2f}µs  {statistics.median(each):.3f}{spread}")
        else:
            print(f"{name:40} {b * 1e6:10.2f}µs {h * 1e6:10.2f}µs  {h / b:.3f}")

if __name__ == "__main__":
    main()
