#!/usr/bin/env python3
"""Every tracked C++ and CUDA source under host/, cuda/, tests/ and bench/ is named by a CMake file
(the sources are listed, not globbed: cmake/sources.cmake). A source counts as named when its path,
relative to the folder of a CMakeLists.txt above it (or to the top, for cmake/*.cmake), appears in
that file. Prints the ones no CMake file names and exits 1; ctest's sources_listed runs it.

    python3 scripts/check_sources.py [REPO]"""
import os
import re
import subprocess
import sys


def installed_detail_headers_complete(top, cmake_text):
    """The detail headers that the public headers reach (by their #include lines, transitively) are
    exactly WARPSPAN_INSTALLED_DETAIL_HEADERS (cmake/sources.cmake): an installed header never
    includes one that is not installed, and no detail header is installed for nothing."""
    listed = re.search(r"set\(WARPSPAN_INSTALLED_DETAIL_HEADERS(.*?)\)", cmake_text, re.S)
    listed = set(listed.group(1).split()) if listed else set()
    include = re.compile(r'^\s*#\s*include\s+"(warpspan/[^"]+)"', re.M)
    root = os.path.join(top, "include")
    public = [os.path.relpath(os.path.join(d, n), root) for d, _, names in os.walk(os.path.join(root, "warpspan"))
              for n in names if "/detail/" not in os.path.join(d, n) + "/" and n.endswith((".hpp", ".cuh", ".h"))]
    reached, todo = set(), list(public)
    while todo:
        h = todo.pop()
        path = os.path.join(root, h)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for inc in include.findall(f.read()):
                if inc.startswith("warpspan/detail/") and "include/" + inc not in reached:
                    reached.add("include/" + inc)
                    todo.append(inc)
    if reached != listed:
        print("WARPSPAN_INSTALLED_DETAIL_HEADERS (cmake/sources.cmake) should be the detail headers the public "
              "ones include; missing:", " ".join(sorted(reached - listed)) or "none", "; not needed:",
              " ".join(sorted(listed - reached)) or "none")
        return False
    return True


def main():
    top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "host", "cuda", "tests", "bench"], cwd=top, capture_output=True,
                           text=True, check=True).stdout.split()
    cmake = {}  # folder (relative, "" for the top) -> the text of its CMake files
    for f in subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*CMakeLists.txt", "cmake/*.cmake"], cwd=top, capture_output=True,
                            text=True, check=True).stdout.split():
        folder = "" if f.startswith("cmake/") else os.path.dirname(f)
        with open(os.path.join(top, f), encoding="utf-8") as text:
            cmake[folder] = cmake.get(folder, "") + text.read()
    missing = []
    for f in files:
        if not f.endswith((".cpp", ".cu")):
            continue
        named = False
        for folder, text in cmake.items():
            if folder and not f.startswith(folder + "/"):
                continue
            if os.path.relpath(f, folder or ".") in text:
                named = True
                break
        if not named:
            missing.append(f)
    if missing:
        print("sources no CMake file names (add them to cmake/sources.cmake):", " ".join(missing))
        return 1
    if not installed_detail_headers_complete(top, cmake[""]):
        return 1
    print(f"{sum(f.endswith(('.cpp', '.cu')) for f in files)} sources, each named by a CMake file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
