#!/usr/bin/env python3
"""The code blocks of Visage's documents, for Scripts/check-readme-swift.sh and Scripts/smoke-readme.sh.

Documents: README.md and every Markdown file in a DocC catalogue (Sources/*/*.docc). The rules for
writing blocks are at the top of the two scripts and in ARCHITECTURE.md ("Documentation is tested").

    readme_blocks.py swift ROOT OUT_DIR   writes one Swift file per document into OUT_DIR
    readme_blocks.py shell ROOT           prints each shell command as one line:
                                          FILE <tab> LINE <tab> SKIP REASON or - <tab> COMMAND

Markers are HTML comments (invisible on GitHub and in DocC) on the lines right before a fence:
    <!-- readme-check: skip: REASON -->     the block is neither compiled nor run; REASON is printed
    <!-- readme-check: setup: CODE -->      Swift CODE runs before the block, in its scope (may span lines)
    <!-- readme-check: file-scope -->       the Swift block goes at file scope (extensions, @main-free types)
A Swift block that writes imports of its own (other than `import Visage`: an iOS port's
`#if canImport(Vision) … #else import VisageVision #endif`) is compiled in a file of its own, with exactly
those imports, so its names cannot clash with Visage's in the document's other blocks.
"""
import glob
import os
import re
import sys

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
MARKER = re.compile(r"<!--\s*readme-check:\s*(skip|setup|file-scope)\s*:?(.*?)-->", re.S)
SHELL_LANGUAGES = {"sh", "bash", "shell", "console"}


def documents(root):
    names = ["README.md"] + sorted(glob.glob("Sources/*/*.docc/**/*.md", root_dir=root, recursive=True))
    return [n for n in names if os.path.isfile(os.path.join(root, n))]


def blocks(root, name):
    """(language, first line number of the code, code lines, markers) for each fenced block."""
    lines = open(os.path.join(root, name), encoding="utf-8").read().split("\n")
    result, index = [], 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        indent, fence, language = match.groups()
        # Markers: the comments right above the fence (blank lines allowed between them).
        above, back = [], index - 1
        while back >= 0 and (lines[back].strip() == "" or lines[back].rstrip().endswith("-->")):
            if lines[back].strip():
                start = back
                while start >= 0 and "<!--" not in lines[start]:
                    start -= 1
                above.insert(0, "\n".join(lines[start:back + 1]))
                back = start
            back -= 1
        markers = [(kind, text.strip()) for comment in above for kind, text in MARKER.findall(comment)]
        body, index = [], index + 1
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index])
            index += 1
        # The fence's own line number (1-based) names the block.
        result.append((language.lower(), index - len(body), body, markers))
        index += 1
    return result


IMPORT = re.compile(r"^\s*(@_exported\s+|@testable\s+|@preconcurrency\s+)?import\s+\w+")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b")


def own_file(name, line, code, markers):
    """A block that writes its own imports, as a file of its own: the imports (and the #if lines around
    them) on top, exactly as written, then the rest in an async throwing function; a block that
    declares an extension stays at file scope."""
    head, rest = [], list(code)
    while rest and (IMPORT.match(rest[0]) or DIRECTIVE.match(rest[0]) or not rest[0].strip()
                    or rest[0].strip().startswith("//")):
        head.append(rest.pop(0))
    setup = [l for kind, text in markers if kind == "setup" for l in text.split("\n")]
    where = f"// {name}:{line}, its own file: it writes its own imports"
    if any(re.match(r"^(public\s+)?extension\s", l) for l in rest):
        return "\n".join(head + ["", where] + setup + rest) + "\n"
    slug = re.sub(r"\W+", "_", name).strip("_") + f"_{line}"
    body = ["    " + l if l.strip() else "" for l in setup + rest]
    return "\n".join(head + ["", where, f"func example_{slug}() async throws {{"] + body + ["}"]) + "\n"


def swift_file(root, name):
    """One Swift file for a document: its blocks in order, each nested in the scope of the ones before,
    inside one async throwing function; imports hoisted to the top. Blocks that write imports of their
    own (other than `import Visage`) come back apart, as (line, text) files of their own."""
    imports, file_scope, body, depth, skipped, separate = {"import Visage"}, [], [], 0, [], []
    for language, line, code, markers in blocks(root, name):
        if language != "swift":
            continue
        kinds = dict(markers)
        if "skip" in kinds:
            skipped.append(f"{name}:{line}: {kinds['skip'] or 'no reason given'}")
            continue
        if any(IMPORT.match(l) and l.split()[-1] != "Visage" for l in code):
            separate.append((line, own_file(name, line, code, markers)))
            continue
        kept = []
        for text in code:
            if re.match(r"^\s*(@_exported\s+|@testable\s+)?import\s+\w+", text):
                imports.add(text.strip())
            else:
                kept.append(text)
        where = f"// {name}:{line}"
        if "file-scope" in kinds:
            file_scope += [where] + kept + [""]
            continue
        pad = "    " * (depth + 1)
        body.append(f"{pad}do {{ {where}" if depth else f"{pad}{where}")
        for setup, text in markers:
            if setup == "setup":
                body += [pad + "    " + l for l in text.split("\n")]
        body += [pad + "    " + l if l.strip() else "" for l in kept]
        depth += 1
    for level in range(depth, 1, -1):
        body.append("    " * level + "}")
    slug = re.sub(r"\W+", "_", name).strip("_")
    text = "\n".join(sorted(imports)) + "\n\n" + "\n".join(file_scope) + "\n"
    text += f"// Never called: the blocks only have to compile.\nfunc example_{slug}() async throws {{\n"
    text += "\n".join(body) + "\n}\n"
    return slug, text, skipped, separate


def shell_commands(root, name):
    for language, line, code, markers in blocks(root, name):
        if language not in SHELL_LANGUAGES:
            continue
        kinds = dict(markers)
        pending, start = "", line
        for offset, text in enumerate(code):
            if language == "console":
                if not text.startswith("$ "):
                    continue
                text = text[2:]
            if not pending:
                start = line + offset + 1
            if text.rstrip().endswith("\\"):
                pending += text.rstrip()[:-1] + " "
                continue
            command = (pending + text).strip()
            pending = ""
            if command and not command.startswith("#"):
                yield {"file": name, "line": start, "command": command, "skip": kinds.get("skip")}


def main():
    mode, root = sys.argv[1], sys.argv[2]
    if mode == "swift":
        out = sys.argv[3]
        os.makedirs(out, exist_ok=True)
        compiled = skipped_count = 0
        for name in documents(root):
            slug, text, skipped, separate = swift_file(root, name)
            compiled += text.count(f"// {name}:") + len(separate)
            skipped_count += len(skipped)
            with open(os.path.join(out, f"{slug}.swift"), "w", encoding="utf-8") as f:
                f.write(text)
            for line, own in separate:
                with open(os.path.join(out, f"{slug}_{line}.swift"), "w", encoding="utf-8") as f:
                    f.write(own)
            for line in skipped:
                print(f"skipped {line}")
        print(f"{compiled} Swift blocks to compile from {len(documents(root))} documents, {skipped_count} skipped")
    elif mode == "shell":
        for name in documents(root):
            for command in shell_commands(root, name):
                print("\t".join([command["file"], str(command["line"]), command["skip"] or "-", command["command"]]))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
