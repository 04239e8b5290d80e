#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Measures the corpus (fixtures/corpus) on the local GPU, one measuring process per family.

Every pair of a family is timed in the same process (`kforecast bench --in-process --batch`, the
path `pr` measures its kernels on): one context and one warm-up for the family, both sides of each
pair compiled while the pair before it is timed, and no drift between processes in the labels.
Appends one JSON line per pair to RESULTS in the format of scripts/corpus-measure.sh:
  {"family", "reference", "candidate", "reference_file", "candidate_file", "reference_sha256",
   "candidate_sha256", "date", "exit", "seconds", "measurement"}
so scripts/corpus-dataset.py reads either. Order: every variant against its family's first
[[kernel]] (the star), then the remaining pairs. A pair already in RESULTS is skipped (a second
run resumes). A pair that fails ends its process (a fault can spoil the context); the pairs
after it go on in a fresh one, and a process that dies without a word fails the pair it was on.

  scripts/corpus-measure-batch.py RESULTS.jsonl [--star-only] [--family NAME]... [--timeout S] [--build nvcc|nvrtc]
      [--corpus DIR]

--build nvcc (the default) builds both sides of every pair with the toolkit's nvcc, as the gate
builds a unit with no project flags (`bench --project-build`); where no nvcc is found the
measurement says so and NVRTC builds them. --build nvrtc builds them with NVRTC, as
corpus-measure.sh did.

KFORECAST names the binary (default build/release/src/kforecast). Needs a GPU and NVRTC.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

CORPUS = "fixtures/corpus"  # --corpus: another folder of families (scripts/corpus-generate.py writes one)


def variants(family):
    """The family's [[kernel]] names and files, in the order of its kforecast.toml."""
    text = open(os.path.join(CORPUS, family, "kforecast.toml")).read()
    names = re.findall(r'^name = "(.*)"$', text, re.M)
    files = re.findall(r'^file = "(.*)"$', text, re.M)
    return list(zip(names, files))


def plan(families, star_only):
    """(family, reference index, candidate index) in measuring order."""
    pairs = [(f, 0, j) for f in families for j in range(1, len(variants(f)))]
    if not star_only:
        for f in families:
            count = len(variants(f))
            pairs += [(f, i, j) for i in range(1, count) for j in range(i + 1, count)]
    return pairs


def sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def measure_family(kforecast, family, pending, timeout, results_out, build):
    """Measures `pending` (reference, candidate indices) of one family, restarting after a failure."""
    kernels = variants(family)
    folder = os.path.join(CORPUS, family)
    while pending:
        with tempfile.TemporaryDirectory(prefix="kforecast-corpus-") as scratch:
            batch, results = os.path.join(scratch, "batch.json"), os.path.join(scratch, "results.jsonl")
            project_build = ""
            if build == "nvcc":
                # Both sides in the family's folder, with no flags of a project's.
                project_build = os.path.join(scratch, "project-build.json")
                tree = os.path.abspath(folder)
                json.dump({"reference_tree": tree, "candidate_tree": tree, "reference_arguments": [],
                           "candidate_arguments": []}, open(project_build, "w"))
            pairs = [{"candidate": f"{folder}/{kernels[j][1]}:{kernels[j][0]}",
                      "versus": f"{folder}/{kernels[i][1]}:{kernels[i][0]}",
                      "against": "", "project_build": project_build, "capture": ""} for i, j in pending]
            json.dump({"pairs": pairs}, open(batch, "w"))
            started = time.monotonic()
            try:
                child = subprocess.run([kforecast, "bench", "--in-process", "--batch", batch, "--results", results,
                                        "--config", os.path.join(folder, "kforecast.toml"), "--format", "json"],
                                       capture_output=True, text=True, timeout=timeout * len(pending) + 60)
                ending = f"exit {child.returncode}: {child.stderr.strip()[-400:]}"
                status = child.returncode
            except subprocess.TimeoutExpired:
                ending, status = "stopped at its time limit", None
            wall = time.monotonic() - started
            lines = open(results).read().splitlines() if os.path.exists(results) else []
            done = {}
            for line in lines:
                try:
                    result = json.loads(line)
                    done[int(result["index"])] = result
                except (ValueError, KeyError):
                    continue
            if status in (2, 3) and not done:
                sys.exit(f"corpus-measure-batch: {family}: the measuring process could not start: {ending}")
            last = done[max(done)] if done else None
            stopped_after_failure = status == 1 and last and last.get("measurement", {}).get("verdict") == "failed"
            left = []
            for k, (i, j) in enumerate(pending):
                result = done.get(k)
                if result is None:
                    left.append((i, j))
                    continue
                measurement = result.get("measurement")
                verdict = (measurement or {}).get("verdict")
                exit_status = result.get("exit_status", 1 if verdict in ("regression", "failed") else 0)
                write(results_out, family, kernels, i, j, exit_status, result.get("seconds", 0), measurement)
            if left and not stopped_after_failure:
                i, j = left.pop(0)
                failed = {"verdict": "failed", "reason": f"the measuring process ended: {ending}"}
                write(results_out, family, kernels, i, j, 1, wall, failed)
            print(f"corpus-measure-batch: {family}: {len(done)} pairs in {wall:.1f} s", file=sys.stderr)
            pending = left


def write(out, family, kernels, i, j, exit_status, seconds, measurement):
    folder = os.path.join(CORPUS, family)
    line = {"family": family, "reference": kernels[i][0], "candidate": kernels[j][0],
            "reference_file": kernels[i][1], "candidate_file": kernels[j][1],
            "reference_sha256": sha256(os.path.join(folder, kernels[i][1])),
            "candidate_sha256": sha256(os.path.join(folder, kernels[j][1])),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "exit": exit_status, "seconds": round(seconds, 3), "measurement": measurement}
    out.write(json.dumps(line, separators=(",", ":")) + "\n")
    out.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results")
    parser.add_argument("--family", action="append", default=[])
    parser.add_argument("--star-only", action="store_true")
    parser.add_argument("--timeout", type=float, default=300, help="seconds a pair may take (bench.timeout_seconds)")
    parser.add_argument("--build", choices=("nvcc", "nvrtc"), default="nvcc", help="the compiler of both sides")
    parser.add_argument("--corpus", default=CORPUS, help="the folder of families (default fixtures/corpus)")
    args = parser.parse_args()
    global CORPUS
    CORPUS = args.corpus
    families = args.family or sorted(d for d in os.listdir(CORPUS) if os.path.isfile(os.path.join(CORPUS, d, "kforecast.toml")))
    for family in families:
        if not os.path.isfile(os.path.join(CORPUS, family, "kforecast.toml")):
            sys.exit(f"corpus-measure-batch: no family '{family}' in {CORPUS}")
    kforecast = os.environ.get("KFORECAST", "build/release/src/kforecast")
    measured = set()
    if os.path.exists(args.results):
        for line in open(args.results):
            try:
                row = json.loads(line)
                measured.add((row["family"], row["reference"], row["candidate"]))
            except (ValueError, KeyError):
                continue
    started = time.monotonic()
    with open(args.results, "a") as out:
        for family in families:
            kernels = variants(family)
            pending = [(i, j) for f, i, j in plan([family], args.star_only)
                       if (f, kernels[i][0], kernels[j][0]) not in measured]
            if pending:
                measure_family(kforecast, family, pending, args.timeout, out, args.build)
    print(f"corpus-measure-batch: done in {time.monotonic() - started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
