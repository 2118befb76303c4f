#!/usr/bin/env python3
"""Writes tests/gnn/graph/fixtures/gnn_benchmark_tiny.npz, the committed .npz fixture, and the seeds
of the .npz fuzz target (tests/fuzz/corpus/npz/: the same archive, and a PyG-layout one stored).

A made-up 8-node graph in the gnn-benchmark layout (Shchur et al. 2018: adj_* and attr_* as scipy
CSR parts, labels, and a pickled name table a loader must never read), written with the standard
library only (zipfile + struct, no numpy) the way numpy.savez_compressed writes it: every member
deflated, each opened with force_zip64=True so its local header carries a ZIP64 field. The bytes
are deterministic (fixed member dates), so re-running the script reproduces the committed file.

Usage: python3 scripts/dev/make_npz_fixture.py [fixture path]
"""
import pickle
import struct
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "tests/gnn/graph/fixtures/gnn_benchmark_tiny.npz"
CORPUS = ROOT / "tests/fuzz/corpus/npz"

# Two 4-cycles (0-1-2-3, 4-5-6-7) joined by edge 3-4. Row u lists some neighbours only and one
# entry twice, so the loader's symmetrizing and deduplicating are exercised; 5 -> 5 is a self loop
# (dropped) and 0 -> 2 has weight 0 (an explicit zero: no edge).
ADJ = {0: [1, 2], 1: [2], 2: [3], 3: [0, 4, 4], 5: [4, 5, 6], 6: [7], 7: [4]}
ADJ_WEIGHT = {(0, 2): 0.0}
NODES = 8
# Sparse bag-of-words features: 5 columns, unsorted within a row.
ATTR = {0: [(3, 1.0), (0, 2.0)], 1: [(0, 1.0)], 2: [(4, 0.5)], 4: [(1, 1.0)], 6: [(2, 3.0), (1, 1.0)], 7: [(2, 1.0)]}
ATTR_COLS = 5
LABELS = [0, 0, 1, 1, 2, 2, 2, 0]


def npy(descr, shape, fmt, values):
    """A .npy (format 1.0) file: dict header padded to a multiple of 64 bytes, then C-order data."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    body = struct.pack("<%d%s" % (len(values), fmt), *values) if fmt else values
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + body


def csr(rows, nrows):
    indptr, indices, data = [0], [], []
    for r in range(nrows):
        for entry in rows.get(r, []):
            col, val = entry if isinstance(entry, tuple) else (entry, ADJ_WEIGHT.get((r, entry), 1.0))
            indices.append(col)
            data.append(val)
        indptr.append(len(indices))
    return indptr, indices, data


def members():
    a_ptr, a_idx, a_val = csr(ADJ, NODES)
    f_ptr, f_idx, f_val = csr(ATTR, NODES)
    names = pickle.dumps(["node%d" % i for i in range(NODES)], protocol=3)
    return [
        ("adj_data.npy", npy("<f4", [len(a_val)], "f", a_val)),
        ("adj_indices.npy", npy("<i4", [len(a_idx)], "i", a_idx)),
        ("adj_indptr.npy", npy("<i4", [len(a_ptr)], "i", a_ptr)),
        ("adj_shape.npy", npy("<i8", [2], "q", [NODES, NODES])),
        ("attr_data.npy", npy("<f4", [len(f_val)], "f", f_val)),
        ("attr_indices.npy", npy("<i4", [len(f_idx)], "i", f_idx)),
        ("attr_indptr.npy", npy("<i4", [len(f_ptr)], "i", f_ptr)),
        ("attr_shape.npy", npy("<i8", [2], "q", [NODES, ATTR_COLS])),
        ("labels.npy", npy("<i8", [NODES], "q", LABELS)),
        ("idx_to_node.npy", npy("|O", [NODES], None, names)),
    ]


def pyg_members():
    """PyG export of the same graph: dense x, edge_index (2 x E), y, boolean masks."""
    rows = [u for u in sorted(ADJ) for v in ADJ[u]]
    cols = [v for u in sorted(ADJ) for v in ADJ[u]]
    x = [0.0] * (NODES * ATTR_COLS)
    for r, entries in ATTR.items():
        for c, v in entries:
            x[r * ATTR_COLS + c] += v
    masks = [[1, 0, 0, 0, 1, 0, 0, 0], [0, 1, 0, 0, 0, 1, 0, 0], [0, 0, 1, 1, 0, 0, 1, 1]]
    return [
        ("x.npy", npy("<f4", [NODES, ATTR_COLS], "f", x)),
        ("edge_index.npy", npy("<i8", [2, len(rows)], "q", rows + cols)),
        ("y.npy", npy("<i8", [NODES], "q", LABELS)),
    ] + [("%s_mask.npy" % k, npy("|b1", [NODES], "B", m)) for k, m in zip(["train", "val", "test"], masks)]


def write(path, entries, compression, zip64):
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = compression
            with z.open(info, "w", force_zip64=zip64) as f:
                f.write(data)
    print("wrote", path)


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    write(out, members(), zipfile.ZIP_DEFLATED, True)
    write(CORPUS / "gnn_benchmark_deflated.npz", members(), zipfile.ZIP_DEFLATED, True)
    write(CORPUS / "pyg_stored.npz", pyg_members(), zipfile.ZIP_STORED, False)


if __name__ == "__main__":
    main()
