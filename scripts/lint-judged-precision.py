#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Per-rule precision of `kforecast lint` on the judged set of real kernels (benchmarks/lint-judged/).

    scripts/lint-judged-precision.py                      # the committed judgements alone
    scripts/lint-judged-precision.py --runs DIR           # re-score a fresh lint run
    scripts/lint-judged-precision.py --runs DIR --list unjudged

Every row of judged.tsv is one diagnostic that `kforecast lint` printed on a pinned file of a
public repository, judged by reading the code: TRUE (the cost the message names is real at that
line), PLAUSIBLE (right in principle, the cost depends on sizes or context) or FALSE (wrong at
that line). Precision = (TRUE + PLAUSIBLE) / judged. A FALSE diagnostic of severity `error` is a
false error: it would block a commit on its own.

With --runs, DIR holds one `kforecast lint --format json` report per repository, named
OWNER+NAME.json and run from the repository's folder as benchmarks/lint-judged/reproduce.sh does.
Each fresh diagnostic takes the judgement of the judged row with the same repository, path, line
and rule (rows sharing those four are paired in message order); a fresh diagnostic with no such
row is UNJUDGED, and a judged row the fresh run no longer prints is GONE (a fixed false positive,
or a lost true one). Precision is over judged diagnostics only; UNJUDGED ones are counted and can
be listed so that a maintainer judges them and adds them to judged.tsv.

--max-per-file N counts at most N diagnostics of one rule per file (the first N by line), so that
one generated function firing hundreds of times cannot decide a rule's precision alone.

Python 3 standard library only. Exit status: 0, or 2 when an input is unreadable or malformed.
"""

import argparse
import collections
import csv
import json
import sys
from pathlib import Path

JUDGED = Path(__file__).resolve().parent.parent / "benchmarks" / "lint-judged" / "judged.tsv"
COLUMNS = ["repo", "commit", "path", "line", "rule", "severity", "message", "judgment", "reason"]
JUDGMENTS = ("TRUE", "PLAUSIBLE", "FALSE")
SEVERITIES = ("error", "warning", "note")
DEFAULT_BAR = 0.9


class InputError(Exception):
    """A malformed input; the message says what, where and what to do."""


Diagnostic = collections.namedtuple(
    "Diagnostic", "repo path line rule severity message judgment reason")


def read_judged(path):
    """The judged rows, checked: every field present, judgement and severity from the fixed sets."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    except OSError as error:
        raise InputError(f"cannot read the judged set {path}: {error.strerror}; "
                         "pass --judged FILE or run from a checkout that has it")
    if not rows or rows[0] != COLUMNS:
        raise InputError(f"{path}:1: the header must be the tab-separated columns "
                         f"{' '.join(COLUMNS)}; restore it from the repository")
    judged = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(COLUMNS):
            raise InputError(f"{path}:{number}: {len(row)} fields where {len(COLUMNS)} are "
                             "expected; a tab inside a message or reason splits it, replace it "
                             "with a space")
        fields = dict(zip(COLUMNS, row))
        if not fields["line"].isdigit():
            raise InputError(f"{path}:{number}: line '{fields['line']}' is not a number")
        if fields["judgment"] not in JUDGMENTS:
            raise InputError(f"{path}:{number}: judgment '{fields['judgment']}' is not one of "
                             f"{', '.join(JUDGMENTS)}")
        if fields["severity"] not in SEVERITIES:
            raise InputError(f"{path}:{number}: severity '{fields['severity']}' is not one of "
                             f"{', '.join(SEVERITIES)}")
        if not fields["reason"].strip():
            raise InputError(f"{path}:{number}: the reason is empty; every judgement needs "
                             "one line saying why, specific to the code")
        judged.append(Diagnostic(fields["repo"], fields["path"], int(fields["line"]),
                                 fields["rule"], fields["severity"], fields["message"],
                                 fields["judgment"], fields["reason"]))
    return judged


def stored_message(message):
    """A message as judged.tsv keeps it: one line, no tabs, at most 200 characters."""
    return " ".join(message.split("\t")).replace("\n", " ")[:200]


def read_run(path):
    """One repository's fresh `kforecast lint --format json` report: its diagnostics."""
    repo = path.stem.replace("+", "/", 1)
    if "/" not in repo:
        raise InputError(f"{path}: a report is named OWNER+NAME.json after its repository; "
                         "rename it")
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InputError(f"cannot read the lint report {path}: {error.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: not a JSON lint report ({error}); produce it with "
                         "'kforecast lint --no-forecast --format json FILE...'")
    diagnostics = report.get("diagnostics") if isinstance(report, dict) else None
    if not isinstance(diagnostics, list):
        raise InputError(f"{path}: no 'diagnostics' list; produce it with "
                         "'kforecast lint --no-forecast --format json FILE...'")
    fresh = []
    for index, item in enumerate(diagnostics):
        try:
            fresh.append(Diagnostic(repo, str(item["file"]), int(item["line"]), str(item["rule"]),
                                    str(item["severity"]), str(item["message"]), None, ""))
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{path}: diagnostic {index} lacks a file, line, rule, severity or "
                             "message; the report is not from 'kforecast lint --format json'")
    return repo, fresh


def rescore(judged, runs):
    """Fresh diagnostics carrying their judgements (None: unjudged), and the judged rows gone."""
    by_key = collections.defaultdict(list)
    for row in judged:
        if row.repo in runs:
            by_key[(row.repo, row.path, row.line, row.rule)].append(row)
    scored = []
    for repo in sorted(runs):
        for item in runs[repo]:
            candidates = by_key.get((item.repo, item.path, item.line, item.rule))
            if not candidates:
                scored.append(item)
                continue
            # Same file, line and rule: prefer the row whose message the run repeats exactly, so
            # two literals on one line keep their own judgements.
            message = stored_message(item.message)
            match = next((row for row in candidates if row.message == message), candidates[0])
            candidates.remove(match)
            scored.append(item._replace(judgment=match.judgment, reason=match.reason))
    gone = [row for rows in by_key.values() for row in rows]
    return scored, gone


def cap_per_file(diagnostics, limit):
    """At most `limit` diagnostics of each rule in each file, the first ones by line."""
    if limit is None:
        return diagnostics
    groups = collections.defaultdict(list)
    for item in diagnostics:
        groups[(item.repo, item.path, item.rule)].append(item)
    kept = []
    for items in groups.values():
        kept.extend(sorted(items, key=lambda item: item.line)[:limit])
    return kept


def tally(diagnostics):
    counts = collections.Counter(item.judgment or "UNJUDGED" for item in diagnostics)
    judged = sum(counts[name] for name in JUDGMENTS)
    precision = (counts["TRUE"] + counts["PLAUSIBLE"]) / judged if judged else None
    false_errors = sum(1 for item in diagnostics
                       if item.judgment == "FALSE" and item.severity == "error")
    return counts, judged, precision, false_errors


def percent(value):
    return "-" if value is None else f"{100 * value:.0f}%"


def print_table(diagnostics, gone, bar, out):
    by_rule = collections.defaultdict(list)
    for item in diagnostics:
        by_rule[item.rule].append(item)
    gone_by_rule = collections.Counter(row.rule for row in gone or [])
    show_gone = gone is not None
    header = ["rule", "severity", "n", "files", "TRUE", "PLAUSIBLE", "FALSE", "UNJUDGED",
              "precision", "false errors"] + (["gone"] if show_gone else []) + [f">= {bar:.0%}"]
    lines = [header]
    for rule in sorted(set(by_rule) | set(gone_by_rule)):
        items = by_rule.get(rule, [])
        counts, judged, precision, false_errors = tally(items)
        severities = sorted({item.severity for item in items}, key=SEVERITIES.index)
        files = len({(item.repo, item.path) for item in items})
        meets = "-" if precision is None else ("yes" if precision >= bar else "no")
        lines.append([rule, "/".join(severities) or "-", str(len(items)), str(files),
                      str(counts["TRUE"]), str(counts["PLAUSIBLE"]), str(counts["FALSE"]),
                      str(counts["UNJUDGED"]), percent(precision), str(false_errors)]
                     + ([str(gone_by_rule[rule])] if show_gone else []) + [meets])
    out.write(markdown(lines))
    out.write("\n")
    summary = [["scope", "n", "TRUE", "PLAUSIBLE", "FALSE", "UNJUDGED", "precision",
                "false errors"]]
    for label, items in [("all rules", diagnostics)] + [
            (f"severity {name}", [item for item in diagnostics if item.severity == name])
            for name in SEVERITIES]:
        counts, judged, precision, false_errors = tally(items)
        summary.append([label, str(len(items)), str(counts["TRUE"]), str(counts["PLAUSIBLE"]),
                        str(counts["FALSE"]), str(counts["UNJUDGED"]), percent(precision),
                        str(false_errors)])
    out.write(markdown(summary))


def markdown(lines):
    widths = [max(len(row[column]) for row in lines) for column in range(len(lines[0]))]
    def render(row):
        return "| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |"
    rule = "|" + "|".join("-" * (width + 2) for width in widths) + "|"
    return "\n".join([render(lines[0]), rule] + [render(row) for row in lines[1:]]) + "\n"


def print_list(kind, diagnostics, gone, out):
    if kind == "unjudged":
        chosen = [item for item in diagnostics if item.judgment is None]
    elif kind == "false":
        chosen = [item for item in diagnostics if item.judgment == "FALSE"]
    else:
        chosen = gone or []
    for item in sorted(chosen, key=lambda item: (item.repo, item.path, item.line, item.rule)):
        detail = item.reason if item.judgment else stored_message(item.message)
        out.write(f"{item.repo}\t{item.path}:{item.line}\t{item.rule}\t{item.severity}\t"
                  f"{item.judgment or 'UNJUDGED'}\t{detail}\n")


def main(argv):
    parser = argparse.ArgumentParser(
        description="Per-rule precision of kforecast lint on the judged set of real kernels.")
    parser.add_argument("--judged", type=Path, default=JUDGED,
                        help="the judged set (default: benchmarks/lint-judged/judged.tsv)")
    parser.add_argument("--runs", type=Path,
                        help="folder of fresh reports, OWNER+NAME.json, to re-score")
    parser.add_argument("--max-per-file", type=int, metavar="N",
                        help="count at most N diagnostics of one rule per file")
    parser.add_argument("--bar", type=float, default=DEFAULT_BAR,
                        help="the precision a rule needs to stay on by default (default 0.9)")
    parser.add_argument("--list", choices=("unjudged", "false", "gone"),
                        help="print these diagnostics, one a line, instead of the tables")
    args = parser.parse_args(argv)
    if args.max_per_file is not None and args.max_per_file < 1:
        parser.error("--max-per-file needs a count of at least 1")
    try:
        judged = read_judged(args.judged)
        gone = None
        diagnostics = judged
        if args.runs is not None:
            reports = sorted(args.runs.glob("*.json"))
            if not reports:
                raise InputError(f"{args.runs}: no OWNER+NAME.json reports; run "
                                 "benchmarks/lint-judged/reproduce.sh first")
            runs = dict(read_run(path) for path in reports)
            missing = sorted({row.repo for row in judged} - set(runs))
            if missing:
                sys.stderr.write("lint-judged-precision: no report for "
                                 f"{', '.join(missing)}; their judged rows are left out\n")
            diagnostics, gone = rescore(judged, runs)
    except InputError as error:
        sys.stderr.write(f"lint-judged-precision: {error}\n")
        return 2
    diagnostics = cap_per_file(diagnostics, args.max_per_file)
    if args.list:
        if args.list == "gone" and gone is None:
            parser.error("--list gone needs --runs: without a fresh run nothing is gone")
        print_list(args.list, diagnostics, gone, sys.stdout)
    else:
        print_table(diagnostics, gone, args.bar, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
