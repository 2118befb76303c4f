#!/usr/bin/env python3
"""Plain PyTorch full-graph GCN reference for bench_gnn_rmat (same graph, same thread count).

Reads an mlsys binary graph (.mlsg, layout in docs/train-gnn.md), builds D^-1/2 (A+I) D^-1/2 as a
torch sparse COO or CSR tensor, and trains a 2-layer GCN (nn.Linear + torch.sparse.mm, ReLU,
dropout 0.5, Adam) full-graph. Prints one JSON line: layout, mean epoch seconds (epochs after the
first), peak RSS bytes and, on a GPU, peak device memory (torch's allocator). With --device cuda
the graph, features and model live on the GPU and each epoch's time ends with a synchronize (the
reference issue #27 compares mlsys' GPU path with: torch.sparse.mm calls cuSPARSE there).
With --impl pyg the layers are PyTorch Geometric's GCNConv (cached normalization, its own
message passing over edge_index) instead of torch.sparse.mm; --layout is then ignored.
Usage: gnn_pytorch_gcn.py GRAPH.mlsg --layout coo|csr --threads N --epochs E --hidden H [--device cpu|cuda]
       [--impl torch|pyg]
"""
import argparse
import json
import resource
import struct
import time
import warnings

import numpy as np
import torch

# torch 1.13 calls its CSR support beta on every conversion; the layout is what this reference measures.
warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta")


def load_mlsg(path):
    with open(path, "rb") as f:
        head = f.read(128)
    magic = head[:8]
    assert magic == b"MLSYSGR1", "not an mlsys binary graph"
    nodes, nnz, fdim, classes = struct.unpack_from("<qqqq", head, 16)
    off = struct.unpack_from("<5Q", head, 48)
    mm = np.memmap(path, dtype=np.uint8, mode="r")
    indptr = np.frombuffer(mm, dtype=np.int64, count=nodes + 1, offset=off[0])
    indices = np.frombuffer(mm, dtype=np.int32, count=nnz, offset=off[1])
    feats = np.frombuffer(mm, dtype=np.float32, count=nodes * fdim, offset=off[2]).reshape(nodes, fdim)
    labels = np.frombuffer(mm, dtype=np.int32, count=nodes, offset=off[3])
    split = np.frombuffer(mm, dtype=np.uint8, count=nodes, offset=off[4])
    return nodes, classes, indptr, indices, feats, labels, split


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graph")
    ap.add_argument("--layout", choices=["coo", "csr"], default="csr")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--impl", choices=["torch", "pyg"], default="torch")
    a = ap.parse_args()
    if a.device == "cuda" and not torch.cuda.is_available():
        raise SystemExit("gnn_pytorch_gcn.py: --device cuda, but torch sees no GPU")
    dev = torch.device(a.device)
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    n, classes, indptr, indices, feats, labels, split = load_mlsg(a.graph)
    deg = np.diff(indptr).astype(np.float32) + 1.0
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    cols = indices.astype(np.int64)
    loops = np.arange(n, dtype=np.int64)
    r = np.concatenate([rows, loops])
    c = np.concatenate([cols, loops])
    dinv = 1.0 / np.sqrt(deg)
    v = (dinv[r] * dinv[c]).astype(np.float32)
    del rows, cols
    adj = torch.sparse_coo_tensor(torch.from_numpy(np.stack([r, c])), torch.from_numpy(v), (n, n)).coalesce()
    del r, c, v
    if a.impl == "pyg":  # GCNConv adds the self loops and normalizes (cached after the first call)
        edge_index = torch.from_numpy(np.stack([np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr)),
                                                indices.astype(np.int64)])).to(dev)
    elif a.layout == "csr":
        adj = adj.to_sparse_csr()
    adj = adj.to(dev) if a.impl == "torch" else None
    x = torch.from_numpy(np.array(feats)).to(dev)
    y = torch.from_numpy(labels.astype(np.int64)).to(dev)
    train = torch.from_numpy(split == 1).to(dev)

    class GCN(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.l1 = torch.nn.Linear(x.shape[1], a.hidden)
            self.l2 = torch.nn.Linear(a.hidden, classes)

        def forward(self, x):
            h = torch.relu(torch.sparse.mm(adj, self.l1(torch.nn.functional.dropout(x, 0.5, self.training))))
            h = torch.nn.functional.dropout(h, 0.5, self.training)
            return torch.sparse.mm(adj, self.l2(h))

    class PygGCN(torch.nn.Module):
        def __init__(self):
            super().__init__()
            from torch_geometric.nn import GCNConv
            self.l1 = GCNConv(x.shape[1], a.hidden, cached=True)
            self.l2 = GCNConv(a.hidden, classes, cached=True)

        def forward(self, x):
            h = torch.relu(self.l1(torch.nn.functional.dropout(x, 0.5, self.training), edge_index))
            return self.l2(torch.nn.functional.dropout(h, 0.5, self.training), edge_index)

    model = (PygGCN() if a.impl == "pyg" else GCN()).to(dev)
    sync = torch.cuda.synchronize if a.device == "cuda" else (lambda: None)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    times = []
    for _ in range(a.epochs):
        sync()
        t = time.perf_counter()
        opt.zero_grad()
        out = model(x)
        loss = torch.nn.functional.cross_entropy(out[train], y[train])
        loss.backward()
        opt.step()
        sync()
        times.append(time.perf_counter() - t)
    steady = times[1:] if len(times) > 1 else times
    result = {"layout": a.layout if a.impl == "torch" else "pyg GCNConv", "impl": a.impl, "device": a.device, "threads": a.threads, "epoch_s": sum(steady) / len(steady),
              "median_epoch_s": float(np.median(steady)), "loss": float(loss),
              "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}
    if a.device == "cuda":
        result["peak_device_bytes"] = torch.cuda.max_memory_allocated()
        result["torch_version"] = torch.__version__
    print(json.dumps(result))


if __name__ == "__main__":
    main()
