#!/usr/bin/env python3
"""Lists every fn longer than 70 lines and every module over 600 production lines in both
crates (`python3 .ci/sizes.py [root ...]`, by default src and crates/core/src); the last
line counts them and the functions within ten lines of the limit. Exits 1 when any is over.

Production lines: a file's lines minus those of its #[cfg(test)] items. A fn's length runs
from its `fn` line to its closing brace, both included. Comments, strings and char
literals are blanked before braces are matched, so a `{` in a string does not count.
"""
import os, re, sys

FN_MAX, MOD_MAX = 70, 600


def blank(text):
    """Replace comments, strings and char literals by spaces, keeping newlines."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j): depth += 1; j += 2
                elif text.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif re.match(r'b?r#*"', text[i:i + 40]) and (i == 0 or not (text[i-1].isalnum() or text[i-1] == "_")):
            m = re.match(r'(b?r)(#*)"', text[i:])
            end = '"' + m.group(2)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == "'":
            m = re.match(r"'(\\(x..|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", text[i:], re.S)
            if m:
                out.append(re.sub(r"[^\n]", " ", m.group(0))); i += len(m.group(0))
            else:
                out.append(c); i += 1  # a lifetime
        else:
            out.append(c); i += 1
    return "".join(out)


def block_end(code, start):
    """Index of the brace closing the first `{` at or after start (or of a `;` before it)."""
    depth = 0
    for j in range(start, len(code)):
        ch = code[j]
        if ch == ";" and depth == 0:
            return j
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def line_of(code, idx):
    return code.count("\n", 0, idx) + 1


def scan(path):
    code = blank(open(path, encoding="utf-8").read())
    total = code.count("\n") + (0 if code.endswith("\n") else 1)
    test_spans = []
    for m in re.finditer(r"#\[cfg\(test\)\]", code):
        end = block_end(code, m.end())
        test_spans.append((line_of(code, m.start()), line_of(code, end)))
    test_lines = sum(b - a + 1 for a, b in test_spans)
    in_test = lambda ln: any(a <= ln <= b for a, b in test_spans)
    fns = []
    for m in re.finditer(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)", code):
        first = line_of(code, m.start())
        if in_test(first):
            continue
        # the body is the first `{` after the signature at paren/angle depth 0
        j, paren = m.end(), 0
        while j < len(code):
            ch = code[j]
            if ch in "([": paren += 1
            elif ch in ")]": paren -= 1
            elif ch == ";" and paren == 0: j = -1; break  # a declaration without body
            elif ch == "{" and paren == 0: break
            j += 1
        if j < 0:
            continue
        last = line_of(code, block_end(code, j))
        fns.append((last - first + 1, m.group(1), first))
    return total - test_lines, fns


def test_files(root):
    """Files of modules declared under #[cfg(test)] (`#[cfg(test)] mod tests;`): all test code."""
    found = set()
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".rs"):
                continue
            p = os.path.join(d, f)
            code = blank(open(p, encoding="utf-8").read())
            base = d if f in ("mod.rs", "lib.rs", "main.rs") else os.path.join(d, f[:-3])
            for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code):
                found.add(os.path.join(base, m.group(1) + ".rs"))
                found.add(os.path.join(base, m.group(1), "mod.rs"))
    return found


def main(roots):
    big_fns, big_mods, near = [], [], 0
    for root in roots:
        skip = test_files(root)
        for d, _, files in os.walk(root):
            for f in files:
                if not f.endswith(".rs"):
                    continue
                p = os.path.join(d, f)
                if p in skip:
                    continue
                prod, fns = scan(p)
                if prod > MOD_MAX:
                    big_mods.append((prod, p))
                big_fns += [(n, p, name, ln) for n, name, ln in fns if n > FN_MAX]
                near += sum(1 for n, _, _ in fns if FN_MAX - 10 < n <= FN_MAX)
    print(f"modules over {MOD_MAX} production lines:")
    for n, p in sorted(big_mods, reverse=True):
        print(f"  {n:5} {p}")
    print(f"functions over {FN_MAX} lines:")
    for n, p, name, ln in sorted(big_fns, reverse=True):
        print(f"  {n:5} {p}:{ln} {name}")
    print(f"total: {len(big_fns)} functions > {FN_MAX}, {len(big_mods)} modules > {MOD_MAX}; "
          f"{near} functions of {FN_MAX - 9}-{FN_MAX} lines")
    return 1 if big_fns or big_mods else 0


sys.exit(main(sys.argv[1:] or ["src", "crates/core/src"]))
