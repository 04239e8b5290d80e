#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks the documentation (every .md under docs/, README.md, ARCHITECTURE.md) against the tree:
#   - every repository path it names exists: src/..., tests/..., scripts/..., docs/..., fixtures/...,
#     benchmarks/..., cmake/..., rules/..., prompts/... (a glob such as work-*.cu, one {a,b} list,
#     or a stem such as src/base/json_document whose file has an extension all count), a
#     library-relative source such as `gate/pr_bench.cpp` or `bench/spec_draft.cpp` names a file
#     under src/, and every relative Markdown link resolves;
#   - no reference to DESIGN.md or ../shared (not in the repository), no issue numbers ("issue 17",
#     "#17") and no development-log remarks ("this session", "last stop");
#   - docs/perf stays within 2 MiB and 40 files, and docs/perf/data/INDEX.md lists every archive
#     beside it and names none that is missing.
# Not checked, by convention: fenced blocks tagged `text` (a program's output, which names files of
# the repository it ran in), and src/ paths whose first part is not in this repository's src/
# (src/gemm.cu: a user's project in an example).
#
#   scripts/check-docs.sh [ROOT]        (default: the repository holding this script)
#
# Prints FILE:LINE: what is wrong and what to do, one line per finding; exits 1 on any finding, 2 on
# a usage error, 0 when the documentation is clean.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[[ -d $root/docs ]] || { echo "check-docs.sh: $root has no docs/ folder: give the repository's root" >&2; exit 2; }
command -v python3 >/dev/null || { echo "check-docs.sh: python3 is needed (scripts/setup.sh installs it)" >&2; exit 2; }
exec python3 - "$root" <<'PY'
import glob, os, re, sys

root = sys.argv[1]
PERF_MAX_BYTES = 2 * 1024 * 1024
PERF_MAX_FILES = 40
# Findings in files other people own, reported but not failing until they are fixed there:
# (file, the exact offending text).
KNOWN = set()

TOP = r"(?:src|tests|scripts|docs|fixtures|benchmarks|cmake|rules|prompts)"
PATH = re.compile(r"(?<![\w./+~-])(" + TOP + r"/[A-Za-z0-9_.*+/{},-]*[A-Za-z0-9_*}/])")
LIBRARY_SOURCE = re.compile(r"`([a-z_]+/[A-Za-z0-9_./-]+\.(?:cpp|hpp))`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FORBIDDEN = [
    (re.compile(r"DESIGN\.md"), "DESIGN.md is not in the repository: name the page of docs/ that says it, or drop the reference"),
    (re.compile(r"\.\./shared\b"), "../shared is outside the repository: name a file of the repository, or drop the reference"),
    (re.compile(r"\bissues? #?\d+", re.I), "an issue number is development history: say what the text means without it"),
    (re.compile(r"\b(?:this|last|previous|next) session\b|\b(?:last|previous) stop\b", re.I),
     "a development-log remark: say what is true now"),
]
ISSUE_HASH = re.compile(r"(?<![\w&/#])#\d+\b")

src_entries = set(os.listdir(os.path.join(root, "src"))) if os.path.isdir(os.path.join(root, "src")) else set()
findings, known_seen = [], set()


def report(rel, line_no, text, message):
    if (rel, text) in KNOWN:
        known_seen.add((rel, text))
        print(f"{rel}:{line_no}: known, left to the file's owner: {message}")
    else:
        findings.append(f"{rel}:{line_no}: {message}")


def expansions(path):
    m = re.match(r"(.*?)\{([^{}]*)\}(.*)", path)
    return [m.group(1) + part + m.group(3) for part in m.group(2).split(",")] if m else [path]


def exists(path):
    full = os.path.join(root, path)
    return bool(glob.glob(full)) or bool(glob.glob(full + ".*"))


def check_path(rel, line_no, token):
    path = token.rstrip(".").rstrip("/") or token
    parts = path.split("/")
    if parts[0] == "src" and len(parts) > 1 and parts[1] not in src_entries and not any(c in parts[1] for c in "*{"):
        return  # a user's project in an example, not this repository's src/
    for each in expansions(path):
        if not exists(each):
            report(rel, line_no, token, f"{token} does not exist in the repository: fix the path or drop the reference")
            return


def check_file(rel):
    fence = None
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            opening = re.match(r"\s*(```+|~~~+)\s*([\w+-]*)\s*$", line)
            if opening:
                fence = None if fence else (opening.group(2) or "plain")
                continue
            for pattern, message in FORBIDDEN:
                for m in pattern.finditer(line):
                    report(rel, line_no, m.group(0), f"'{m.group(0)}': {message}")
            if fence == "text":
                continue
            for m in ISSUE_HASH.finditer(line):
                report(rel, line_no, m.group(0), f"'{m.group(0)}' reads as an issue number: {FORBIDDEN[2][1]}")
            for token in PATH.findall(line):
                check_path(rel, line_no, token)
            for token in LIBRARY_SOURCE.findall(line):
                if token.split("/")[0] in src_entries and not exists(os.path.join("src", token)) and not exists(token):
                    report(rel, line_no, token, f"{token} is not under src/: fix the path or drop the reference")
            for target in LINK.findall(line):
                target = target.split("#")[0]
                if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue
                if not os.path.exists(os.path.normpath(os.path.join(root, os.path.dirname(rel), target))):
                    report(rel, line_no, target, f"the link {target} leads nowhere: fix it or drop it")


docs = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
for rel in docs + [name for name in ("README.md", "ARCHITECTURE.md") if os.path.isfile(os.path.join(root, name))]:
    check_file(rel)

perf = os.path.join(root, "docs", "perf")
if os.path.isdir(perf):
    files = [os.path.join(d, name) for d, _, names in os.walk(perf) for name in names]
    size = sum(os.path.getsize(p) for p in files)
    if size > PERF_MAX_BYTES:
        findings.append(f"docs/perf: {size} bytes, over the budget of {PERF_MAX_BYTES}: compress raw data into docs/perf/data/TOPIC.tar.xz or keep it out of the tree")
    if len(files) > PERF_MAX_FILES:
        findings.append(f"docs/perf: {len(files)} files, over the budget of {PERF_MAX_FILES}: one page per topic, raw data in one archive per topic")
    data = os.path.join(perf, "data")
    index = os.path.join(data, "INDEX.md")
    archives = sorted(n for n in os.listdir(data) if n != "INDEX.md") if os.path.isdir(data) else []
    if archives and not os.path.isfile(index):
        findings.append("docs/perf/data: no INDEX.md: list each archive, what it holds, its page, machine and date")
    elif os.path.isfile(index):
        text = open(index, encoding="utf-8").read()
        for name in archives:
            if f"`{name}`" not in text:
                findings.append(f"docs/perf/data/INDEX.md: {name} is not listed: add its row (what it holds, page, machine, date)")
        for name in sorted(set(re.findall(r"`([\w.-]+\.tar\.xz)`", text))):
            if name not in archives:
                findings.append(f"docs/perf/data/INDEX.md: lists {name}, which is not in docs/perf/data: drop the row or add the archive")

for rel, text in sorted(KNOWN - known_seen):
    if os.path.isfile(os.path.join(root, rel)):
            print(f"check-docs.sh: the known finding '{text}' in {rel} is gone: remove it from KNOWN in scripts/check-docs.sh")
for finding in findings:
    print(finding)
print(f"check-docs.sh: {len(findings)} finding(s) in {len(docs) + 2} files" if findings else "check-docs.sh: the documentation is clean")
sys.exit(1 if findings else 0)
PY
