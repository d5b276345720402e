#!/usr/bin/env python3
"""Every tracked C++ and CUDA source under host/, cuda/, tests/ and bench/ is named by a CMake file
(the sources are listed, not globbed: cmake/sources.cmake). A source counts as named when its path,
relative to the folder of a CMakeLists.txt above it (or to the top, for cmake/*.cmake), appears in
that file. Prints the ones no CMake file names and exits 1; ctest's sources_listed runs it.

    python3 scripts/check_sources.py [REPO]"""
import os
import subprocess
import sys


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
    print(f"{sum(f.endswith(('.cpp', '.cu')) for f in files)} sources, each named by a CMake file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
