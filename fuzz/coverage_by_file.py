#!/usr/bin/env python3
"""Edge coverage per source file from libFuzzer's -print_coverage=1 output.

    build-fuzz/fuzz/fuzz_csv -runs=0 -print_coverage=1 CORPUS_DIR 2> cov.txt
    fuzz/coverage_by_file.py cov.txt [PATH_PREFIX]

Sums the covered and total edges of every COVERED_FUNC / UNCOVERED_FUNC line per file whose path
contains PATH_PREFIX (default "/src/"), and prints them, most edges first, with the total.
"""
import collections
import re
import sys

LINE = re.compile(r"^(UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) .* (\S+):\d+$")


def main() -> int:
    path = sys.argv[1]
    prefix = sys.argv[2] if len(sys.argv) > 2 else "/src/"
    files = collections.defaultdict(lambda: [0, 0])
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if not m or prefix not in m.group(4):
                continue
            name = m.group(4)[m.group(4).index(prefix) + 1:]
            files[name][0] += int(m.group(2))
            files[name][1] += int(m.group(3))
    covered = sum(c for c, _ in files.values())
    total = sum(t for _, t in files.values())
    for name, (c, t) in sorted(files.items(), key=lambda kv: -kv[1][1]):
        print(f"{100.0 * c / t if t else 0:5.1f} %  {c:5d}/{t:<5d}  {name}")
    print(f"{100.0 * covered / total if total else 0:5.1f} %  {covered:5d}/{total:<5d}  all files under {prefix}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
