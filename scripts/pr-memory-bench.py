#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Peak memory and wall time of `kforecast pr` over a synthetic 50 MB diff.

    scripts/pr-memory-bench.py --binary build/release/kforecast [--binary OTHER ...]
                               [--scale 1.0] [--nvrtc both|off|on] [--repo DIR] [--timeout S]

Generates a git repository shaped like real CUDA projects (scale 1.0: about 15,000 kernels and a
`git diff` of about 50 MB between its two commits): headers of macros, device helpers and
templates that every file includes; files of many kernels each (plain, templates with explicit
instantiations, kernels stamped out by macros, `// kforecast:` launch specs, host launchers),
from a few KB to one of 1.8 MB with 1,000 kernels and one of 3.4 MB; a head commit that rewrites
most kernels' bodies, changes a header macro, adds, removes and renames files. Then runs
`kforecast pr --no-bench --format json` with each binary given, with NVRTC absent
(KFORECAST_NVRTC_LIBRARY=/nonexistent) and/or present, each with a cold cache, and prints
kforecast's own peak RSS (the compiles run in child processes and are not counted) and wall time.
The target is under 1 GB (1024 MiB) peak.

The repository is the same for the same --scale (a fixed seed); --repo keeps it for another run.
"""

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@kforecast.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@kforecast.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}


def git(repo, *args):
    env = dict(os.environ, **GIT_ENV)
    return subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True, text=True).stdout


COMMON_HEADER = """\
// Shared helpers: macros, device functions and templates every kernel file includes.
#pragma once
#include <cstdint>

#define TILE {tile}
#define WARP 32
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define CHECK_BOUNDS(i, n) if ((i) >= (n)) return
#define FMA_STEP(acc, a, b) acc = fmaf((a), (b), (acc))

namespace common {{
__device__ __forceinline__ float warp_sum(float v) {{
  for (int offset = WARP / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}}

template <typename T>
__device__ __forceinline__ T clamp01(T x) {{
  return x < T(0) ? T(0) : (x > T(1) ? T(1) : x);
}}

template <typename T, int N>
struct Vec {{
  T v[N];
}};

__constant__ float kScale[16];
}}  // namespace common
"""


def launch_spec(index):
    return f"""\
// kforecast:
// sizes = [{{ n = {1 << (16 + index % 6)} }}, {{ n = 4096 }}]
// grid = ["ceil_div(n, 256)"]
// block = [256]
"""


def plain_kernel(name, index, variant, rng):
    """A kernel of about 1.7 KB: an element-wise loop, a reduction and a tiled update."""
    k = 1.0 + index % 7 + (0.5 if variant else 0.0)
    shift = 3 + variant
    lines = [
        f"__global__ void {name}(const float* __restrict__ x, float* __restrict__ y, int n) {{",
        "  __shared__ float tile[TILE][TILE + 1];",
        "  const int i = blockIdx.x * blockDim.x + threadIdx.x;",
        "  CHECK_BOUNDS(i, n);",
        f"  float acc = x[i] * {k:.1f}f;",
    ]
    for step in range(47):
        lines.append(f"  FMA_STEP(acc, x[(i + {step * shift + 1}) % n], {k + step * 0.25:.2f}f);  // step {step}")
    lines += [
        f"  tile[threadIdx.y % TILE][threadIdx.x % TILE] = common::clamp01(acc * {1.0 / k:.4f}f);",
        "  __syncthreads();",
        f"  acc += tile[threadIdx.x % TILE][threadIdx.y % TILE] * common::kScale[{index % 16}];",
        "  acc = common::warp_sum(acc);",
        f"  if ((threadIdx.x & (WARP - 1)) == 0) y[i / WARP] = acc + {variant}.0f;",
        "}",
    ]
    return "\n".join(lines) + "\n"


def template_kernel(name, index, variant):
    unroll = 4 << (index % 3)
    return f"""\
template <typename T, int UNROLL>
__global__ void {name}(const T* __restrict__ in, T* __restrict__ out, int n) {{
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
  T acc = T(0);
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {{
    const int i = base + u;
    if (i < n) acc += in[i] * T({1 + index % 5 + variant});
  }}
  if (base < n) out[base / UNROLL] = acc{" * T(2)" if variant else ""};
}}
template __global__ void {name}<float, {unroll}>(const float*, float*, int);
template __global__ void {name}<double, {unroll}>(const double*, double*, int);
"""


def macro_kernels(prefix, index, variant):
    op = "+" if not variant else "-"
    return f"""\
#define DEFINE_BINARY_{prefix}(NAME, OP) \\
  __global__ void NAME(const float* a, const float* b, float* c, int n) {{ \\
    const int i = blockIdx.x * blockDim.x + threadIdx.x; \\
    if (i < n) c[i] = a[i] OP b[i] * {1 + index % 3}.0f; \\
  }}
DEFINE_BINARY_{prefix}({prefix}_add, {op})
DEFINE_BINARY_{prefix}({prefix}_mul, *)
"""


def host_launcher(names):
    calls = "\n".join(f"  {n}<<<CEIL_DIV(n, 256), 256>>>(x, y, n);" for n in names)
    return f"""\
void launch_all_{names[0]}(const float* x, float* y, int n) {{
{calls}
}}
"""


def kernel_file(file_index, kernel_count, head, changed_fraction, rng_seed):
    """One .cu file of `kernel_count` kernels; at the head, `changed_fraction` of them rewritten."""
    rng = random.Random(rng_seed)
    parts = [f'// File {file_index}: generated for the pr memory benchmark.\n#include "include/common.cuh"\n\n']
    plain_names = []
    k = 0
    while k < kernel_count:
        variant = 1 if head and rng.random() < changed_fraction else 0
        kind = k % 10
        if kind == 7 and k + 2 <= kernel_count:  # two kernels stamped out by a macro
            parts.append(macro_kernels(f"f{file_index}_m{k}", k, variant))
            k += 2
        elif kind == 3:
            parts.append(template_kernel(f"f{file_index}_t{k}", k, variant))
            k += 1
        else:
            name = f"f{file_index}_k{k}"
            if kind == 0:
                parts.append(launch_spec(k))
            parts.append(plain_kernel(name, k, variant, rng))
            plain_names.append(name)
            k += 1
        parts.append("\n")
    for start in range(0, len(plain_names), 50):
        parts.append(host_launcher(plain_names[start : start + 50]))
    return "".join(parts)


def write_side(repo, plan, head):
    for path, (file_index, kernels, changed) in plan.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(kernel_file(file_index, kernels, head, changed, file_index * 7919 + 1))


def make_repository(repo, scale):
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "include").mkdir()
    # Most files are ordinary (about 60 kernels), some large; one holds 1,000 kernels in about
    # 1.8 MB and one 3.4 MB (the sizes that once took `kforecast pr` to 10 GB).
    base_plan, head_plan = {}, {}
    total = int(15000 * scale)
    big = {"src/generated/instances_big.cu": 1000, "src/generated/instances_huge.cu": 1550}
    index = 0
    for path, kernels in big.items():
        kernels = max(1, int(kernels * min(1.0, scale * 4)))
        base_plan[path] = head_plan[path] = (index, kernels, 0.95)
        index += 1
        total -= kernels
    rng = random.Random(14)
    while total > 0:
        kernels = min(total, rng.choice([8, 20, 40, 60, 60, 80, 120, 200]))
        path = f"src/ops{index % 23}/kernels_{index}.cu"
        total -= kernels
        fate = rng.random()
        if fate < 0.10:  # added in the head
            head_plan[path] = (index, kernels, 0.0)
        elif fate < 0.13:  # removed in the head
            base_plan[path] = (index, kernels, 0.0)
        else:
            base_plan[path] = head_plan[path] = (index, kernels, 0.95 if fate < 0.93 else 0.0)
        index += 1
    (repo / "include/common.cuh").write_text(COMMON_HEADER.format(tile=32))
    write_side(repo, base_plan, head=False)
    base = commit(repo, "base")
    for path in base_plan:
        if path not in head_plan:
            (repo / path).unlink()
    (repo / "include/common.cuh").write_text(COMMON_HEADER.format(tile=64))  # every includer's kernels change
    write_side(repo, head_plan, head=True)
    renamed = sorted(p for p in base_plan if p in head_plan and not p.startswith("src/generated"))[:3]
    for path in renamed:
        git(repo, "mv", path, path.replace("kernels_", "renamed_kernels_"))
    head = commit(repo, "head")
    git(repo, "gc", "-q")  # packed, as a clone in CI is
    return base, head


def commit(repo, message):
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def run_pr(binary, repo, base, head, nvrtc, timeout, limit_gib, plan):
    cache = tempfile.mkdtemp(prefix="kf-pr-memory-cache-")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": cache, "XDG_CACHE_HOME": cache}
    if not nvrtc:
        env["KFORECAST_NVRTC_LIBRARY"] = "/nonexistent"
    argv = [binary, "pr", "--repo", str(repo), "--base", base, "--head", head]
    argv += ["--plan", os.path.join(cache, "plan.json")] if plan else ["--no-bench", "--format", "json"]
    start = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        def limit():  # a run over the limit ends in std::bad_alloc (exit 3) instead of taking the machine
            if limit_gib:
                size = int(limit_gib * (1 << 30))
                resource.setrlimit(resource.RLIMIT_AS, (size, size))

        process = subprocess.Popen(argv, stdout=out, stderr=err, env=env, preexec_fn=limit)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.05)
        wall = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        report, stderr = out.read(), err.read().decode(errors="replace")
    if plan and os.path.exists(os.path.join(cache, "plan.json")):
        with open(os.path.join(cache, "plan.json"), "rb") as file:
            report = json.dumps(json.load(file)["report"]).encode()
    shutil.rmtree(cache, ignore_errors=True)
    code = os.waitstatus_to_exitcode(status)
    kernels = skipped = "-"
    try:
        parsed = json.loads(report)
        kernels = len(parsed["kernels"])
        skipped = sum(1 for note in parsed.get("notes", []) if "skipped" in note and "bytes" in note)
    except (ValueError, KeyError):
        pass
    return {
        "peak_mib": usage.ru_maxrss / 1024.0,
        "wall_s": wall,
        "exit": code,
        "kernels": kernels,
        "skipped_files": skipped,
        "stderr": stderr.strip().splitlines()[-1:] if code not in (0, 1) else [],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", action="append", help="a kforecast binary (repeat to compare)")
    parser.add_argument("--scale", type=float, default=1.0, help="1.0: about 15,000 kernels and a 50 MB diff")
    parser.add_argument("--nvrtc", choices=["both", "off", "on"], default="both")
    parser.add_argument("--repo", help="where to generate (or reuse) the repository; default: a temporary one")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per run before it is killed")
    parser.add_argument("--plan", action="store_true", help="also run `pr --plan` (the CI recipe's CPU job)")
    parser.add_argument("--limit-gib", type=float, default=8, help="address-space limit per run (0: none)")
    args = parser.parse_args()
    binaries = args.binary or [str(Path(__file__).resolve().parent.parent / "build/release/kforecast")]

    temporary = None
    repo = Path(args.repo) if args.repo else Path(tempfile.mkdtemp(prefix="kf-pr-memory-")) / "repo"
    if not args.repo:
        temporary = repo.parent
    if (repo / ".git").exists():
        base, head = git(repo, "rev-parse", "HEAD~1").strip(), git(repo, "rev-parse", "HEAD").strip()
    else:
        started = time.monotonic()
        base, head = make_repository(repo, args.scale)
        print(f"generated {repo} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    diff_bytes = len(subprocess.run(["git", "-C", str(repo), "diff", base, head], capture_output=True).stdout)
    files = git(repo, "ls-tree", "-r", "--name-only", head).split()
    source_bytes = sum((repo / f).stat().st_size for f in files if (repo / f).exists())
    print(f"repository: {len(files)} files, {source_bytes / 1e6:.1f} MB of source at the head, "
          f"git diff {diff_bytes / 1e6:.1f} MB (scale {args.scale})")
    print(f"{'binary':<40} {'mode':<7} {'nvrtc':<6} {'peak RSS':>10} {'wall':>9} {'exit':>5} {'kernels':>8} {'skipped':>8}")
    modes = {"both": [False, True], "off": [False], "on": [True]}[args.nvrtc]
    for nvrtc in modes:
        for plan in [False, True] if args.plan else [False]:
            for binary in binaries:
                r = run_pr(binary, repo, base, head, nvrtc, args.timeout, args.limit_gib, plan)
                verdict = "under 1 GB" if r["peak_mib"] < 1024 else "OVER 1 GB"
                print(f"{binary[-40:]:<40} {'--plan' if plan else 'report':<7} {'on' if nvrtc else 'off':<6} {r['peak_mib']:>7.0f} MiB "
                      f"{r['wall_s']:>7.1f} s {r['exit']:>5} {r['kernels']:>8} {r['skipped_files']:>8}  {verdict}",
                      flush=True)
                for line in r["stderr"]:
                    print(f"    stderr: {line}")
    if temporary:
        shutil.rmtree(temporary, ignore_errors=True)


if __name__ == "__main__":
    main()
