#!/usr/bin/env python3
"""House rule: no function in src/ or include/ is longer than 120 lines (docs/architecture.md).

Finds the body of every outermost function definition in the C++ sources (brace matching on the
code with comments, string and character literals blanked out; a brace opens a function body when
the text before it ends in a parameter list, optionally followed by const/noexcept/override or a
trailing return type, and is not a control statement) and fails listing each body longer than the
limit as `file:line: N lines: name`. Lambdas and local classes count toward their enclosing
function. Run by ctest as `style.function_length`; `--self-test` checks the scanner on inline text.
"""
import pathlib
import re
import sys

LIMIT = 120
ROOTS = ("src", "include")
_CONTROL = re.compile(r"\b(if|for|while|switch|catch)\s*\((?:[^()]|\([^()]*\))*\)\s*$")
_FUNC_HEAD = re.compile(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(->\s*[\w:<>,\s*&]+)?\s*$")
_NAME = re.compile(r"([\w:~]+)\s*\((?:[^()]|\([^()]*\))*\)[^()]*$")


def blank(text):
    """The text with comments and literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith('R"', i) and re.match(r'R"([^(\s]*)\(', text[i:]):
            delim = re.match(r'R"([^(\s]*)\(', text[i:]).group(1)
            j = text.find(")" + delim + '"', i)
            j = n if j < 0 else j + len(delim) + 2
        elif text[i] in "\"'" and not (text[i] == "'" and i > 0 and text[i - 1].isalnum()):
            quote, j = text[i], i + 1
            while j < n and text[j] != quote and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            out.append(text[i])
            i += 1
            continue
        out.append("".join(c if c == "\n" else " " for c in text[i:j]))
        i = j
    return "".join(out)


def long_functions(text, limit):
    """(start line, length, name) of each outermost function body longer than `limit` lines."""
    code, found, stack, line = blank(text), [], [], 1
    for i, ch in enumerate(code):
        if ch == "\n":
            line += 1
        elif ch == "{":
            head = code[max(0, i - 400):i]
            is_fn = bool(_FUNC_HEAD.search(head)) and not _CONTROL.search(head)
            stack.append((line, is_fn and not any(f for _, f, _ in stack), head))
        elif ch == "}" and stack:
            start, outermost_fn, head = stack.pop()
            if outermost_fn and line - start + 1 > limit:
                names = _NAME.findall(head)
                found.append((start, line - start + 1, names[-1] if names else "?"))
    return found


def self_test():
    short = "int f(int a) {\n" + "  a++;\n" * 3 + "}\n"
    long_body = "namespace x {\nvoid g() const {\n  if (a) {\n" + "  b();\n" * 130 + "  }\n}\n}\n"
    lambda_body = "void h() {\n  auto l = [](int a) {\n" + "  c();\n" * 125 + "  };\n}\n"
    comment = "// void k() {\n/* } */ void m() { const char* s = \"}\"; }\n"
    assert long_functions(short, 120) == []
    assert [(s, n) for s, n, _ in long_functions(long_body, 120)] == [(2, 134)]
    assert long_functions(long_body, 120)[0][2] == "g"
    assert [n for _, n, _ in long_functions(lambda_body, 120)] == [129]  # the lambda counts toward h
    assert long_functions(comment, 0)[0][2] == "m"
    print("self-test OK")


def main():
    if "--self-test" in sys.argv:
        self_test()
        return 0
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else \
        pathlib.Path(__file__).resolve().parents[2]
    bad = []
    for sub in ROOTS:
        for path in sorted((root / sub).rglob("*")):
            if path.suffix in (".cc", ".h"):
                for start, length, name in long_functions(path.read_text(errors="replace"), LIMIT):
                    bad.append(f"{path.relative_to(root)}:{start}: {length} lines: {name}")
    for b in bad:
        print(b)
    print(f"{len(bad)} function(s) over {LIMIT} lines in {', '.join(ROOTS)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
