#!/usr/bin/env python3
"""No loops between files (docs/ARCHITECTURE.md, "Finding the code").

File A.c depends on B.c when A calls a function that B defines (found from the definitions at the top
level of every .c under src/ and the identifiers A uses). A loop is a set of files that reach each other
(a strongly connected component of more than one file): reading one sends the reader to the other and
back. Every loop left must be listed in ALLOWED with the reason, and each allowed loop must still exist
(a stale entry fails too, so the list stays true). Prints each loop with one call each way.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_header_sources import ROOT, defined, drop_preprocessor, strip_comments  # noqa: E402

# Loops that stay, each as a frozenset of paths with the reason (said in their design notes too).
ALLOWED = {
}
# Loops whose fix is in progress on another branch or later in this step (must be empty at its end).
PENDING = {}

IDENT = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def main(root=ROOT, allowed=None, pending=None):
    os.chdir(root)
    allowed = ALLOWED if allowed is None else allowed
    pending = PENDING if pending is None else pending
    files = []
    for base, _, names in os.walk("src"):
        files += [os.path.join(base, f) for f in names if f.endswith(".c")]
    files.sort()
    owner = {}
    for f in files:
        for name in defined(f):
            owner.setdefault(name, f)
    edges = {f: {} for f in files}
    for f in files:
        text = drop_preprocessor(strip_comments(open(f, encoding="utf-8").read()))
        for m in IDENT.finditer(text):
            g = owner.get(m.group(1))
            if g and g != f and g not in edges[f]:
                edges[f][g] = m.group(1)
    # Tarjan's strongly connected components
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in files:
        if v not in index:
            visit(v)
    fails = 0
    seen_allowed = set()
    for comp in sorted(comps):
        key = frozenset(comp)
        calls = [f"{a} -> {b} ({edges[a][b]})" for a in comp for b in comp if b in edges[a]]
        if key in allowed:
            seen_allowed.add(key)
            print(f"allowed loop ({allowed[key]}): " + "; ".join(calls))
        elif key in pending:
            print(f"pending loop ({pending[key]}): " + "; ".join(calls))
        else:
            fails += 1
            print(f"FAIL: loop of {len(comp)} files: " + "; ".join(calls))
    for key in allowed:
        if key not in seen_allowed:
            fails += 1
            print(f"FAIL: allowed loop {sorted(key)} no longer exists: take it out of allowed")
    print(f"{len(files)} files, {len(comps)} loop(s), {fails} not allowed")
    return 1 if fails else 0


def self_test():
    """The check finds a planted loop of two files and passes once one call goes (a pass means something)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "src/m"))
        with open(os.path.join(tmp, "src/m/a.c"), "w") as f:
            f.write("int b_two(int);\nint a_one(int x)\n{\n    return x ? b_two(x - 1) : 0;\n}\n")
        with open(os.path.join(tmp, "src/m/b.c"), "w") as f:
            f.write("int a_one(int);\n/* calls a_one( in a comment only after the fix */\nint b_two(int x)\n{\n    return a_one(x);\n}\n")
        here = os.getcwd()
        try:
            looped = main(tmp, {}, {})
            with open(os.path.join(tmp, "src/m/b.c"), "w") as f:
                f.write("/* calls a_one( no more */\nint b_two(int x)\n{\n    return x;\n}\n")
            fixed = main(tmp, {}, {})
        finally:
            os.chdir(here)
        if looped != 1 or fixed != 0:
            print(f"FAIL: self-test: looped -> {looped} (want 1), fixed -> {fixed} (want 0)")
            return 1
        print("self-test passed")
        return 0


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else main())
