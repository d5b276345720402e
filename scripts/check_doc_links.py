#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/*.md names a file or folder that exists,
and that a #fragment names a heading of the Markdown file it points to (GitHub's anchors).

Usage: python3 scripts/check_doc_links.py [REPO_ROOT] [FILE.md ...]
Prints one line per broken link (file:line: link: why) and exits 1 if there is any, else 0.
Links inside fenced code blocks and inline code are not links and are skipped; http(s) and mailto
links are not checked (no network)."""
import pathlib
import re
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, seen, fenced = set(), {}, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else f"{s}-{n}")
    return found


def links(path):
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(re.sub(r"`[^`]*`", "``", line)):
            yield number, m.group(1)


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent).resolve()
    files = [root / f for f in argv[2:]] or [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    broken, checked = 0, 0
    for md in files:
        for number, target in links(md):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            checked += 1
            path_part, _, fragment = target.partition("#")
            dest = (md.parent / path_part).resolve() if path_part else md
            why = None
            if not dest.exists():
                why = "no such file"
            elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                why = f"no heading #{fragment} in {dest.relative_to(root)}"
            if why:
                broken += 1
                print(f"{md.relative_to(root)}:{number}: {target}: {why}")
    print(f"{checked} relative links in {len(files)} files, {broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
