#!/usr/bin/env python3
"""The mlsys binary and the core library link no CUDA or NCCL library (they are plugins).

Usage: check_links.py <mlsys binary> <libmlsys_core.so> <plugin dir> <cuda built: ON|OFF> <nccl built: ON|OFF>
`ldd` lists every library the dynamic loader maps, transitively; none of the binary's or the core
library's may be a CUDA or NCCL one. The same check run on the plugins must find them (libcudart
in libmlsys_cuda.so, libnccl in libmlsys_nccl.so), so the check itself is shown to see such
links. `readelf -d` confirms the binary's and core's own NEEDED entries.
"""
import os
import re
import subprocess
import sys

GPU_LIB = re.compile(r"lib(cuda|cudart|cublas|cublasLt|cusparse|nvJitLink|nccl)\b[^ ]*\.so")


def ldd(path):
    out = subprocess.run(["ldd", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    return sorted({m.group(0) for m in GPU_LIB.finditer(out)})


def needed(path):
    out = subprocess.run(["readelf", "-d", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    return sorted({m.group(0) for line in out.splitlines() if "NEEDED" in line for m in GPU_LIB.finditer(line)})


def main():
    binary, core, plugin_dir, cuda, nccl = sys.argv[1:6]
    bad = 0
    for path in (binary, core):
        found = sorted(set(ldd(path)) | set(needed(path)))
        if found:
            print(f"FAIL: {path} links {', '.join(found)}")
            bad += 1
        else:
            print(f"ok: {path} links no CUDA or NCCL library")
    for name, built, lib in (("cuda", cuda, "libcudart"), ("nccl", nccl, "libnccl")):
        plugin = os.path.join(plugin_dir, f"libmlsys_{name}.so")
        if built != "ON":
            print(f"(no {name} plugin in this build)")
            continue
        if not os.path.exists(plugin):
            print(f"FAIL: {plugin} was not built")
            bad += 1
            continue
        found = needed(plugin)
        if not any(f.startswith(lib) for f in found):
            print(f"FAIL: the check does not see {lib} in {plugin} ({found}): it cannot be trusted")
            bad += 1
        else:
            print(f"ok: {plugin} links {', '.join(found)} (the check sees such links)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
