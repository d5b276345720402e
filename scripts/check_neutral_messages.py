#!/usr/bin/env python3
"""Checks that the library speaks of parameters in its own words: no string literal in its sources
(host/ but host/cli/, include/, cuda/, python/warpspan_module.cpp) spells a command-line option
("--warps"). A message names a parameter with param("warps") (include/warpspan/core/error.hpp) and
each face spells it: the command line --warps (host/cli/options.cpp), Python warps=
(python/warpspan_module.cpp).

Also checks that every parameter the library names (param("NAME"...)) has a spelling in the CLI's
table, and in Python's unless Python has no such argument (NOT_IN_PYTHON).

Usage: python3 scripts/check_neutral_messages.py [REPO_ROOT]
Prints one line per finding (file:line: literal or parameter) and exits 1 if there is any, else 0.
Comments are not messages and are skipped. EXEMPT lists the literals that must name an option, with
the reason."""
import pathlib
import re
import sys

# (file, literal) -> why it must name a command-line option. Keep it empty where possible: a hint
# for one face belongs in that face.
EXEMPT = {}

# Parameters Python does not have (wcet's LP file and trace limit, wcet-collect, dbf's and
# estimate's output switches of the command line).
NOT_IN_PYTHON = {"lp", "max_trace_mib", "runs", "size", "slice", "json", "check", "keep_going", "show_string"}

PARAM = re.compile(r'\bparam(?:_quoted|_number)?\(\s*"([a-z0-9_]+)"')
SPELLING = re.compile(r'\{\s*"([a-z0-9_]+)",\s*"([^"]+)"\s*\}')
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


def table(path, name):
    """The spellings {parameter: spelling} of the table `name` in `path`."""
    text = path.read_text(encoding="utf-8")
    start = text.index(name)
    return dict(SPELLING.findall(text[start:text.index("};", start)]))


def main(root):
    root = pathlib.Path(root)
    files = [root / "python" / "warpspan_module.cpp"]
    for folder in ("host", "include", "cuda"):
        for pattern in SOURCES:
            files += [p for p in (root / folder).rglob(pattern) if "cli" not in p.relative_to(root / "host").parts[:1]
                      ] if folder == "host" else list((root / folder).rglob(pattern))
    found = 0
    cli = table(root / "host" / "cli" / "options.cpp", "cli_spellings")
    python = table(root / "python" / "warpspan_module.cpp", "python_spellings")
    for path in sorted(set(files)):
        name = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for line, literal in literals(text):
            if OPTION.search(literal) and (name, literal) not in EXEMPT:
                print(f"{name}:{line}: \"{literal}\": a command-line option in the library; name it with param()")
                found += 1
        for m in PARAM.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            for face, spellings, needed in (("the CLI", cli, True), ("Python", python, m[1] not in NOT_IN_PYTHON)):
                if needed and m[1] not in spellings:
                    print(f"{name}:{line}: parameter '{m[1]}' has no spelling in {face}'s table")
                    found += 1
    if found:
        print(f"{found} finding(s): the library names parameters with param() (include/warpspan/core/error.hpp)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent))
