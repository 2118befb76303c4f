#!/usr/bin/env python3
"""Fails unless every module library and backend plugin of a build links with `-z defs`.

With -z defs a symbol that a module uses but none of its linked libraries defines is a link
error (cmake/mlsys_module.cmake, cmake/mlsys_plugin.cmake), so a dependency missing from a
module's DEPS cannot go unnoticed because the executable happened to link it.
Usage: check_link_defs.py <build dir>
"""
import glob
import os
import sys


def main():
    build = sys.argv[1]
    links = sorted(glob.glob(os.path.join(build, "**", "CMakeFiles", "mlsys_*.dir", "link.txt"), recursive=True))
    libs = [p for p in links if "-shared" in open(p).read()]
    if not libs:
        print(f"no module link commands under {build}: build it first")
        return 1
    bad = [p for p in libs if "-z,defs" not in open(p).read() and "-zdefs" not in open(p).read()]
    for p in bad:
        print(f"{os.path.relpath(p, build)}: links without -z defs")
    names = [os.path.basename(os.path.dirname(p))[: -len(".dir")] for p in libs]
    if bad:
        return 1
    print(f"{len(libs)} libraries link with -z defs: {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
