"""The 26.1 matching equals Python's own difflib on random inputs.

The 26.1 reference pairs operators with difflib.SequenceMatcher(None, base, comparison,
autojunk=False).get_matching_blocks(), base-only items before comparison-only items in each gap.
This test builds a few thousand random key lists (small alphabets, repeated patterns with edits,
empty sides, all-equal and disjoint lists, plus some longer ones), has
`match_bench --pairs sequence-matcher <gap order>` print profdiff's pairs for all of them, and
compares each line with the pairs computed here from the real difflib, for both gap orders.

match_bench is found next to profdiff in the build tree (<build>/bench/match_bench) or through
PROFDIFF_MATCH_BENCH. Skipped (exit 77) only when the build has benchmarks turned off
(PROFDIFF_BUILD_BENCH=OFF); needs no ../shared.
"""
import difflib
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import oracle_util as ou  # noqa: E402

SEED = 26_1_0


def find_match_bench():
    explicit = os.environ.get("PROFDIFF_MATCH_BENCH")
    if explicit:
        return explicit
    build = os.path.dirname(ou.profdiff_bin())
    while build != os.path.dirname(build) and not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        build = os.path.dirname(build)
    cache = os.path.join(build, "CMakeCache.txt")
    if not os.path.exists(cache):
        sys.exit(f"no CMakeCache.txt above {ou.profdiff_bin()}; set PROFDIFF_MATCH_BENCH")
    with open(cache, encoding="utf-8") as f:
        if "PROFDIFF_BUILD_BENCH:BOOL=OFF" in f.read():
            print("SKIP: benchmarks are not built (PROFDIFF_BUILD_BENCH=OFF), so match_bench is absent")
            sys.exit(ou.SKIP)
    return os.path.join(build, "bench", "match_bench")


def expected_pairs(base, comparison, base_first):
    """profdiff's --pairs line for difflib's blocks: "b,c" tokens, "-" for a missing side."""
    out = []
    i = j = 0
    for block in difflib.SequenceMatcher(None, base, comparison, autojunk=False).get_matching_blocks():
        base_only = [f"{x},-" for x in range(i, block.a)]
        comparison_only = [f"-,{y}" for y in range(j, block.b)]
        out += base_only + comparison_only if base_first else comparison_only + base_only
        out += [f"{block.a + k},{block.b + k}" for k in range(block.size)]
        i, j = block.a + block.size, block.b + block.size
    return " ".join(out)


def edited(rng, keys, rate, alphabet):
    out = []
    for k in keys:
        r = rng.random()
        if r < rate / 3:
            continue  # delete
        if r < 2 * rate / 3:
            out.append(rng.randrange(alphabet))  # insert before
        out.append(rng.randrange(alphabet) if r < rate else k)  # substitute or keep
    return out


def make_cases(rng):
    cases = []
    for _ in range(2000):  # small alphabets, empty sides included
        a = rng.randint(1, 6)
        cases.append(([rng.randrange(a) for _ in range(rng.randint(0, 40))],
                      [rng.randrange(a) for _ in range(rng.randint(0, 40))]))
    for t in range(1000):  # repeated patterns with edits, either side edited
        period = [rng.randrange(2 + t % 5) for _ in range(1 + t % 7)]
        base = (period * 200)[:rng.randint(1, 150)]
        comp = edited(rng, base, 0.03 + 0.01 * (t % 20), 3 + t % 6)
        cases.append((base, comp) if t % 2 else (comp, base))
    for t in range(100):  # all equal, disjoint
        cases.append(([7] * (1 + t % 23), [7] * (1 + (t * 5) % 29)))
        cases.append(([rng.randrange(4) for _ in range(1 + t % 17)], [9] * (1 + t % 11)))
    for t in range(60):  # longer: operator-like names with edits, two names, period 2
        if t % 3 == 0:
            layer = [rng.randrange(60) for _ in range(25)]
            base = [k if rng.random() > 0.1 else rng.randrange(60) for k in layer * 24]
            cases.append((base, edited(rng, base, 0.05, 70)))
        elif t % 3 == 1:
            cases.append(([rng.randrange(2) for _ in range(250)], [rng.randrange(2) for _ in range(230)]))
        else:
            base = [0, 1] * 150
            cases.append((base, edited(rng, base, 0.05, 3)))
    cases += [([], []), ([1, 2], []), ([], [3]), ([1], [1])]
    return cases


def main():
    bench = find_match_bench()
    if not os.path.exists(bench):
        sys.exit(f"match_bench not found at {bench} (build it: ninja match_bench)")
    rng = random.Random(SEED)
    cases = make_cases(rng)
    text = "".join(" ".join(map(str, b)) + "\n" + " ".join(map(str, c)) + "\n" for b, c in cases)
    failures = []
    for order, base_first in (("base-first", True), ("comparison-first", False)):
        p = subprocess.run([bench, "--pairs", "sequence-matcher", order], input=text,
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            sys.exit(f"match_bench --pairs exited {p.returncode}: {p.stderr}")
        lines = p.stdout.split("\n")
        if len(lines) != len(cases) + 1 or lines[-1] != "":
            sys.exit(f"{order}: {len(lines) - 1} output lines for {len(cases)} cases")
        for k, (b, c) in enumerate(cases):
            want = expected_pairs(b, c, base_first)
            if lines[k] != want:
                failures.append(f"{order} case {k}: base {b} comparison {c}\n  profdiff {lines[k]}\n"
                                f"  difflib  {want}")
    for f in failures[:5]:
        print(f)
    if failures:
        print(f"FAIL: {len(failures)} of {2 * len(cases)} cases differ from difflib (seed {SEED})")
        return 1
    print(f"OK: {len(cases)} cases x 2 gap orders equal Python {sys.version.split()[0]} difflib")
    return 0


if __name__ == "__main__":
    sys.exit(main())
