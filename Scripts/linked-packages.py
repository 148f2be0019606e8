#!/usr/bin/env python3
"""The dependency packages whose code a SwiftPM product links, for the release tarball's licence notices.

    linked-packages.py BIN_PATH PRODUCT    prints one package name a line (its folder under .build/checkouts)

SwiftPM lists every object file it links into PRODUCT in BIN_PATH/PRODUCT.product/Objects.LinkFileList;
each object sits in its module's MODULE.build folder, whose output-file-map.json (Swift) or .d files (C)
name the module's sources. A module whose sources lie under .build/checkouts/PACKAGE/ is that package's;
the package's own modules lie elsewhere and are not printed. Scripts/package.sh copies each printed
package's LICENSE and NOTICE files into the tarball, and Scripts/check-package.sh checks they are there.
"""
import json
import os
import sys


def sources(module_dir):
    """The source files a module's build folder names."""
    output_map = os.path.join(module_dir, "output-file-map.json")
    if os.path.exists(output_map):
        with open(output_map, encoding="utf-8") as f:
            return [path for path in json.load(f) if path]
    found = []
    for name in sorted(os.listdir(module_dir)):
        if name.endswith(".d"):
            with open(os.path.join(module_dir, name), encoding="utf-8", errors="replace") as f:
                # "OBJECT: SOURCE HEADER …": the first dependency is the source.
                _, _, dependencies = f.read().partition(": ")
            found += dependencies.replace("\\\n", " ").split()[:1]
    return found


def main():
    bin_path, product = sys.argv[1], sys.argv[2]
    link_list = os.path.join(bin_path, f"{product}.product", "Objects.LinkFileList")
    with open(link_list, encoding="utf-8") as f:
        objects = [line.strip().strip("'\"") for line in f if line.strip()]
    if not objects:
        sys.exit(f"linked-packages: {link_list} lists no objects")
    # bin_path is .build/<triple>/<configuration> or a link to it; checkouts sit in .build/checkouts.
    build = os.path.dirname(os.path.dirname(os.path.realpath(bin_path)))
    checkouts = os.path.realpath(os.path.join(build, "checkouts"))
    packages = set()
    for module_dir in sorted({os.path.dirname(path) for path in objects}):
        for source in sources(module_dir):
            relative = os.path.relpath(os.path.realpath(source), checkouts)
            if not relative.startswith(".."):
                packages.add(relative.split(os.sep)[0])
                break
    print("\n".join(sorted(packages)))


if __name__ == "__main__":
    main()
