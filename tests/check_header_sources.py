#!/usr/bin/env python3
"""A header is named after its code (docs/ARCHITECTURE.md, "Finding the code").

Every public header (include/strata/X.h) and every game header (src/game/**/X.h) is implemented in X.c or
X_*.c: each function it declares is defined in a file of that name (anywhere under src/). A header that
declares no function (types, constants, static inline helpers only) is listed in HEADER_ONLY with the reason.
Fails naming the header, the function and the file that defines it. KNOWN_PENDING lists headers whose
renames wait (only while a step is in progress; empty when it is done).
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# Headers with no code of their own: the reason each is header-only.
HEADER_ONLY = {
    "cell.h": "the cell's bit layout: static inline accessors only",
    "chunk_storage.h": "the storage interface: a struct of callbacks that store/ and game/ fill in",
}
# Headers whose code is renamed in a later commit of the step in progress (must be empty at its end).
KNOWN_PENDING = {}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\])*'", "''", text)
    return text


def drop_preprocessor(text):
    out, cont = [], False
    for line in text.split("\n"):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            out.append("")
            continue
        out.append(line)
    return "\n".join(out)


def top_level_chunks(text):
    """Yields (head, kind): the text at brace depth 0 before each ';' or '{' at depth 0."""
    depth, start, i = 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            if depth == 0:
                yield text[start:i], "{"
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif ch == ";" and depth == 0:
            yield text[start:i], ";"
            start = i + 1
        i += 1


FUNC = re.compile(r"\b([A-Za-z_]\w*)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*$", re.S)


def function_name(head):
    head = " ".join(head.split())
    if not head or head.startswith(("typedef", "static", "extern \"C\"")) or "=" in head:
        return None
    if head.startswith(("struct ", "enum ", "union ")) and "(" not in head:
        return None
    m = FUNC.search(head)
    if not m or "(*" in head.split(m.group(1))[0]:
        return None
    name = m.group(1)
    if name in ("if", "while", "for", "switch", "return", "sizeof", "_Static_assert", "__attribute__"):
        return None
    return name


def declared(path):
    text = drop_preprocessor(strip_comments(open(path, encoding="utf-8").read()))
    return [n for head, kind in top_level_chunks(text) if kind == ";" for n in [function_name(head)] if n]


def defined(path):
    text = drop_preprocessor(strip_comments(open(path, encoding="utf-8").read()))
    return [n for head, kind in top_level_chunks(text) if kind == "{" for n in [function_name(head)] if n]


def stem_matches(header_stem, source):
    s = os.path.splitext(os.path.basename(source))[0]
    return s == header_stem or s.startswith(header_stem + "_")


def main(root=ROOT, known_pending=None):
    os.chdir(root)
    if known_pending is None:
        known_pending = KNOWN_PENDING
    definitions = {}
    for base, _, files in os.walk("src"):
        for f in files:
            if f.endswith(".c"):
                p = os.path.join(base, f)
                for name in defined(p):
                    definitions.setdefault(name, []).append(p)
    headers = sorted(os.path.join("include/strata", f) for f in os.listdir("include/strata") if f.endswith(".h"))
    for base, _, files in os.walk("src/game") if os.path.isdir("src/game") else []:
        headers += sorted(os.path.join(base, f) for f in files if f.endswith(".h"))
    fails, pending, checked = [], [], 0
    for h in headers:
        name = os.path.basename(h)
        stem = name[:-2]
        funcs = declared(h)
        if name in HEADER_ONLY:
            if funcs:
                fails.append(f"{h}: listed as header-only ({HEADER_ONLY[name]}) but declares {', '.join(funcs[:3])}")
            continue
        checked += 1
        if not funcs:
            fails.append(f"{h}: declares no function: list it in HEADER_ONLY with a reason, or give it its code")
            continue
        wrong = []
        for fn in funcs:
            where = definitions.get(fn, [])
            if not where:
                continue  # declared for a test fake or a tool; nothing under src/ to misname
            if not any(stem_matches(stem, w) for w in where):
                wrong.append(f"{fn} in {where[0]}")
        if not wrong:
            continue
        line = f"{h}: {len(wrong)} function(s) defined outside {stem}.c / {stem}_*.c: " + "; ".join(wrong[:40])
        if len(wrong) > 40:
            line += f"; ... ({len(wrong) - 4} more)"
        (pending if name in known_pending else fails).append(line)
    for p in pending:
        print(f"pending ({known_pending[os.path.basename(p.split(':')[0])]}): {p}")
    for f in fails:
        print(f"FAIL: {f}")
    print(f"{checked - len(fails) - len(pending)} of {checked} headers named after their code; {len(pending)} pending, "
          f"{len(HEADER_ONLY)} header-only")
    return 1 if fails else 0


def self_test():
    """The check finds a misnamed file and passes once it is renamed (so a pass means something)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "include/strata"))
        os.makedirs(os.path.join(tmp, "src/m"))
        with open(os.path.join(tmp, "include/strata/foo.h"), "w") as f:
            f.write("/* foo */\n#include <stdbool.h>\nint foo_run(int a,\n            int b);\nstatic inline int foo_x(void) { return 1; }\n")
        with open(os.path.join(tmp, "src/m/bar.c"), "w") as f:
            f.write("#include \"strata/foo.h\"\nint foo_run(int a, int b)\n{\n    return a + b;\n}\n")
        here = os.getcwd()
        try:
            misnamed = main(tmp, {})
            os.rename(os.path.join(tmp, "src/m/bar.c"), os.path.join(tmp, "src/m/foo_bar.c"))
            renamed = main(tmp, {})
        finally:
            os.chdir(here)
        if misnamed != 1 or renamed != 0:
            print(f"FAIL: self-test: misnamed -> {misnamed} (want 1), renamed -> {renamed} (want 0)")
            return 1
        print("self-test passed")
        return 0


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else main())
