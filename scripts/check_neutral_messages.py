#!/usr/bin/env python3
"""Checks that the library speaks of parameters in its own words: no string literal in its sources
(host/ but host/cli/, include/, cuda/, python/warpspan_module.cpp) spells a command-line option
("--warps"). A message names a parameter with param("warps") (include/warpspan/core/error.hpp) and
each face spells it: the command line --warps (host/cli/options.cpp), Python warps=
(python/warpspan_module.cpp).

Usage: python3 scripts/check_neutral_messages.py [REPO_ROOT]
Prints one line per literal (file:line: literal) and exits 1 if there is any, else 0. Comments are
not messages and are skipped. EXEMPT lists the literals that must name an option, with the reason."""
import pathlib
import re
import sys

# (file, literal) -> why it must name a command-line option. Keep it empty where possible: a hint
# for one face belongs in that face.
EXEMPT = {}

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
SOURCES = ("*.cpp", "*.hpp", "*.h", "*.cu", "*.cuh")


def literals(text):
    """(line, literal) for every string literal of C++ source `text`; comments and character
    literals skipped, raw strings R"d(...)d" read whole."""
    k, line, n = 0, 1, len(text)
    while k < n:
        c = text[k]
        if c == "\n":
            line += 1
            k += 1
        elif text.startswith("//", k):
            end = text.find("\n", k)
            k = n if end < 0 else end
        elif text.startswith("/*", k):
            end = text.find("*/", k + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", k, end)
            k = end
        elif c == "R" and k + 1 < n and text[k + 1] == '"' and (k == 0 or not (text[k - 1].isalnum() or text[k - 1] == "_")):
            paren = text.find("(", k + 2)
            delimiter = text[k + 2:paren]
            end = text.find(")" + delimiter + '"', paren)
            end = n if end < 0 else end
            yield line, text[paren + 1:end]
            line += text.count("\n", k, end)
            k = end + len(delimiter) + 2
        elif c in "\"'":
            j = k + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                yield line, text[k + 1:j]
            k = j + 1
        else:
            k += 1


def main(root):
    root = pathlib.Path(root)
    files = [root / "python" / "warpspan_module.cpp"]
    for folder in ("host", "include", "cuda"):
        for pattern in SOURCES:
            files += [p for p in (root / folder).rglob(pattern) if "cli" not in p.relative_to(root / "host").parts[:1]
                      ] if folder == "host" else list((root / folder).rglob(pattern))
    found = 0
    for path in sorted(set(files)):
        name = path.relative_to(root).as_posix()
        for line, literal in literals(path.read_text(encoding="utf-8", errors="replace")):
            if OPTION.search(literal) and (name, literal) not in EXEMPT:
                print(f"{name}:{line}: \"{literal}\": a command-line option in the library; name it with param()")
                found += 1
    if found:
        print(f"{found} literal(s) spell command-line options (see include/warpspan/core/error.hpp)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent))
