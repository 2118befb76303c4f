#!/usr/bin/env python3
"""Rebuilds the figures of one mlsys run folder from its CSVs, in paper style (PDF + PNG).

  scripts/plot/plot_run.py RUN_FOLDER [--out DIR]

The command is read from summary.json (run.command) or, failing that, from the first line of
config.yaml; a folder with sweep.yaml and runs/ is a `mlsys sweep`. What is drawn:
  simulate   jct_cdf (jobs.csv), utilization (timeseries.csv), compare_jct / compare_util
             (compare.csv, one bar per configuration), fill (fill.csv)
  train-gnn  curves (loss and accuracy against the epoch, epochs.csv; empty accuracy cells are
             epochs without an evaluation) and breakdown (mean compute / quantize / communicate /
             wait / all-reduce ms per epoch, epoch 0 left out as in summary.json)
  schedmate  predicted_vs_true (predictions.csv of advise / the quickstart: SchedMate's and the
             Helios-style estimate against the true duration, log-log, y = x and the 50% band;
             jobs without a true duration are left out)
  coopt      accuracy_few_labels / accuracy_all_labels (comparison.csv: mean over seeds with a
             +-1 sd band)
  sweep      (a `mlsys sweep` folder) every run's figures under DIR/runs/<index>/, and for a
             train-gnn sweep breakdown_all: one stacked bar per configuration
Figures go to DIR (default: RUN_FOLDER/figures) as NAME.pdf and NAME.png. Needs matplotlib
(Debian: python3-matplotlib, installed by scripts/setup); only the standard library otherwise.
Exit status: 0 when at least one figure was written, 1 when the folder holds nothing to draw,
2 on bad usage.
"""
import argparse
import csv
import itertools
import json
import os
import re
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
except ImportError:  # reported by main(), so --help works without matplotlib
    plt = None


def matplotlib_missing():
    """The error when this interpreter has no matplotlib, naming the interpreter: Debian's
    python3-matplotlib exists for /usr/bin/python3 only, which a venv without system packages or a
    pyenv/conda python3 first on PATH does not see."""
    debian = "/usr/bin/python3"
    msg = f"plot_run: matplotlib is missing for {sys.executable} (Python {sys.version.split()[0]})"
    other = sys.prefix != sys.base_prefix or os.path.realpath(sys.executable) != os.path.realpath(debian)
    if os.path.exists(debian) and other:
        return msg + f"; Debian's python3-matplotlib is installed for {debian}: run {debian} {sys.argv[0]} ..."
    return msg + "; Debian: apt-get install python3-matplotlib, or run scripts/setup"

# Colour-blind-safe palette (Okabe-Ito), cycled with line styles and markers, so the 8 + k-th
# series never looks like the k-th.
COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
STYLES = [("-", None), ("--", "o"), (":", "s"), ("-.", "^")]


def style(k):
    ls, marker = STYLES[(k // len(COLORS)) % len(STYLES)]
    return {"color": COLORS[k % len(COLORS)], "linestyle": ls, "marker": marker, "markevery": 0.1}


def paper_style():
    plt.rcParams.update({
        "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "legend.fontsize": 7,
        "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.linewidth": 1.2, "lines.markersize": 3,
        "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3,
        "pdf.fonttype": 42, "ps.fonttype": 42, "savefig.bbox": "tight", "savefig.pad_inches": 0.02,
    })


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def rows_of(run, name):
    """The rows of RUN/NAME; [] when the run did not write it."""
    path = os.path.join(run, name)
    return read_csv(path) if os.path.exists(path) else []


def num(s):
    """A CSV cell as a float; None for an empty cell (a value that was not measured)."""
    if s is None or s == "":
        return None
    try:
        return float(s)
    except ValueError:
        return None


def legend_outside(ax, n):
    if n > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False, ncol=1 if n <= 16 else 2)


class Writer:
    def __init__(self, out):
        self.out = out
        self.written = []

    def save(self, fig, name):
        os.makedirs(self.out, exist_ok=True)
        for ext in ("pdf", "png"):
            path = os.path.join(self.out, f"{name}.{ext}")
            # No creation date in the PDF, so the same CSVs give the same file.
            fig.savefig(path, dpi=200, metadata={"CreationDate": None} if ext == "pdf" else None)
            self.written.append(path)
        plt.close(fig)


def detect_command(run):
    summary = os.path.join(run, "summary.json")
    if os.path.exists(summary):
        try:
            with open(summary) as f:
                cmd = json.load(f).get("run", {}).get("command")
            if cmd:
                return cmd
        except (OSError, ValueError):
            pass
    if os.path.exists(os.path.join(run, "sweep.yaml")) and os.path.isdir(os.path.join(run, "runs")):
        return "sweep"
    config = os.path.join(run, "config.yaml")
    if os.path.exists(config):
        with open(config) as f:
            m = re.match(r"# mlsys ([a-z0-9-]+)", f.readline())
        if m:
            return m.group(1)
    return None


# ---- simulate ----

def config_label(row):
    return "/".join(row[k] for k in ("policy", "placer", "estimator") if row.get(k))


def plot_simulate(run, w):
    jobs = os.path.join(run, "jobs.csv")
    if os.path.exists(jobs):
        rows = read_csv(jobs)
        jct = sorted(v for v in (num(r.get("jct_s", r.get("jct"))) for r in rows) if v is not None)
        if jct:
            fig, ax = plt.subplots(figsize=(3.3, 2.2))
            ax.plot([max(1.0, v) for v in jct], [(i + 1) / len(jct) for i in range(len(jct))], **style(0))
            ax.set_xscale("log")
            ax.set_xlabel("job completion time (s)")
            ax.set_ylabel("fraction of jobs")
            ax.set_ylim(0, 1)
            w.save(fig, "jct_cdf")
    ts = os.path.join(run, "timeseries.csv")
    if os.path.exists(ts):
        rows = read_csv(ts)
        t = [num(r["time_s"]) / 3600 for r in rows]
        fig, ax = plt.subplots(figsize=(3.3, 2.2))
        ax.plot(t, [num(r["utilization"]) for r in rows], **style(0))
        ax.set_xlabel("time (hours)")
        ax.set_ylabel("allocated GPU share")
        ax.set_ylim(0, 1.02)
        w.save(fig, "utilization")
    for name in ("compare.csv", "summary.csv"):
        path = os.path.join(run, name)
        if not os.path.exists(path):
            continue
        rows = read_csv(path)
        if name == "summary.csv" and len(rows) < 2:
            continue  # one configuration: nothing to compare
        labels = [config_label(r) + (f" x{r['load']}" if r.get("load") not in (None, "", "1") else "") for r in rows]
        for col, ylabel, fname in (("avg_jct_s", "average JCT (h)", "compare_jct"), ("utilization", "GPU utilization", "compare_util")):
            if col not in rows[0]:
                continue
            vals = [num(r[col]) or 0.0 for r in rows]
            if col == "avg_jct_s":
                vals = [v / 3600 for v in vals]
            fig, ax = plt.subplots(figsize=(max(3.3, 0.28 * len(rows) + 1), 2.4))
            ax.bar(range(len(rows)), vals, color=[COLORS[k % len(COLORS)] for k in range(len(rows))],
                   hatch=None, edgecolor="white")
            for k, bar in enumerate(ax.patches):
                bar.set_hatch(["", "//", "..", "xx"][(k // len(COLORS)) % 4])
            ax.set_xticks(range(len(rows)))
            ax.set_xticklabels(labels, rotation=45, ha="right")
            ax.set_ylabel(ylabel)
            ax.grid(axis="x", visible=False)
            w.save(fig, fname)
        break
    fill = os.path.join(run, "fill.csv")
    if os.path.exists(fill):
        rows = read_csv(fill)
        fig, ax = plt.subplots(figsize=(3.3, 2.2))
        for k, (placer, grp) in enumerate(itertools.groupby(rows, key=lambda r: r["placer"])):
            grp = list(grp)
            ax.plot([num(r["arrived_pct"]) for r in grp], [num(r["unallocated_pct"]) for r in grp], label=placer, **style(k))
        ax.set_xlabel("arrived GPU demand (% of capacity)")
        ax.set_ylabel("unallocated GPUs (%)")
        legend_outside(ax, len(ax.lines))
        w.save(fig, "fill")


# ---- train-gnn ----

def plot_train_gnn(run, w):
    rows = rows_of(run, "epochs.csv")
    if not rows:
        return
    epoch = [num(r["epoch"]) for r in rows]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(6.6, 2.2))
    ax1.plot(epoch, [num(r["loss"]) for r in rows], **style(0))
    ax1.set_xlabel("epoch")
    ax1.set_ylabel("training loss")
    for k, (col, label) in enumerate((("train_acc", "train"), ("val_acc", "validation"), ("test_acc", "test"))):
        pts = [(e, 100 * num(r[col])) for e, r in zip(epoch, rows) if num(r.get(col)) is not None]
        if pts:
            ax2.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **style(k))
    ax2.set_xlabel("epoch")
    for ax in (ax1, ax2):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.set_ylabel("accuracy (%)")
    legend_outside(ax2, len(ax2.lines))
    w.save(fig, "curves")

    draw_breakdown([(gnn_label(run), mean_split(rows))], w, "breakdown")


GNN_PARTS = [("compute_s", "compute"), ("quant_s", "quantize"), ("comm_s", "communicate"), ("wait_s", "wait"),
             ("reduce_s", "all-reduce")]


def mean_split(rows):
    """Mean ms per epoch of each part; epoch 0 left out when there are more (as in summary.json)."""
    used = [r for r in rows if not (num(r["epoch"]) == 0 and len(rows) > 1)]
    return {c: 1e3 * sum(num(r.get(c)) or 0.0 for r in used) / max(1, len(used)) for c, _ in GNN_PARTS}


def gnn_label(run):
    """workers, halo bits, pipelining, from the gnn: block of config.yaml; the folder name otherwise."""
    keys = {}
    path = os.path.join(run, "config.yaml")
    if os.path.exists(path):
        section = None
        with open(path) as f:
            for line in f:
                if re.match(r"^[a-z_]+:", line):
                    section = line.split(":")[0]
                m = re.match(r"^  (parts|fwd_bits|bwd_bits|pipeline): *(\S+)", line)
                if section == "gnn" and m:
                    keys[m.group(1)] = m.group(2)
    if {"parts", "fwd_bits", "bwd_bits"} <= keys.keys():
        piped = keys.get("pipeline") == "true" and keys["parts"] != "1"
        return f"{keys['parts']} workers, {keys['fwd_bits']}/{keys['bwd_bits']} bits" + (", pipelined" if piped else "")
    return os.path.basename(os.path.normpath(run))


def draw_breakdown(bars, w, name):
    """Sylvie's figure: one stacked bar per configuration (label, {part: ms})."""
    fig, ax = plt.subplots(figsize=(max(2.2, 0.6 * len(bars) + 1.4), 2.4))
    x = list(range(len(bars)))
    base = [0.0] * len(bars)
    for k, (c, label) in enumerate(GNN_PARTS):
        vals = [split[c] for _, split in bars]
        if any(v > 0 for v in vals):
            ax.bar(x, vals, bottom=base, width=0.6, label=label, color=COLORS[k])
            base = [b + v for b, v in zip(base, vals)]
    ax.set_xticks(x)
    ax.set_xticklabels([label for label, _ in bars], rotation=30 if len(bars) > 1 else 0, ha="right" if len(bars) > 1 else "center")
    ax.set_ylabel("mean time per epoch (ms)")
    ax.grid(axis="x", visible=False)
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles[::-1], labels[::-1], loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    w.save(fig, name)


# ---- schedmate ----

def plot_schedmate(run, w):
    rows = rows_of(run, "predictions.csv")
    # true_duration_s is 0 where the trace holds no duration: such jobs cannot be scored.
    groups = {}
    for name, col in (("Helios-style", "helios_style_s"), ("SchedMate", "predicted_duration_s")):
        pts = [(num(r.get("true_duration_s")), num(r.get(col))) for r in rows]
        pts = [(t, p) for t, p in pts if t and p and t > 0 and p > 0]
        if pts:
            groups[name] = pts
    if not groups:
        return
    fig, ax = plt.subplots(figsize=(3.0, 3.0))
    lo = min(min(min(t, p) for t, p in g) for g in groups.values())
    hi = max(max(max(t, p) for t, p in g) for g in groups.values())
    ax.plot([lo, hi], [lo, hi], color="#444444", linewidth=0.8, label="y = x")
    ax.fill_between([lo, hi], [0.5 * lo, 0.5 * hi], [1.5 * lo, 1.5 * hi], color="#999999", alpha=0.2, linewidth=0,
                    label="within 50%")
    for k, (name, pts) in enumerate(groups.items()):  # SchedMate last, on top
        ax.scatter([t for t, _ in pts], [p for _, p in pts], s=6, alpha=0.7, label=name, color=COLORS[k % len(COLORS)],
                   marker="os^D"[k % 4], linewidths=0)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("true duration (s)")
    ax.set_ylabel("predicted duration (s)")
    legend_outside(ax, len(groups) + 2)
    w.save(fig, "predicted_vs_true")


# ---- coopt ----

def plot_coopt(run, w):
    rows = rows_of(run, "comparison.csv")
    if not rows:
        return
    for col, sd, name, title in (("few_label_acc", "few_label_sd", "accuracy_few_labels", "few labels per class"),
                                 ("all_label_acc", "all_label_sd", "accuracy_all_labels", "all pool labels")):
        fig, ax = plt.subplots(figsize=(3.3, 2.3))
        for k, (method, grp) in enumerate(itertools.groupby(rows, key=lambda r: r["method"])):
            grp = [r for r in grp if num(r.get(col)) is not None]
            if not grp:
                continue
            x = [num(r["epoch"]) for r in grp]
            y = [100 * num(r[col]) for r in grp]
            s = [100 * (num(r.get(sd)) or 0.0) for r in grp]
            st = style(k)
            ax.plot(x, y, label=method, **st)
            ax.fill_between(x, [a - b for a, b in zip(y, s)], [a + b for a, b in zip(y, s)], color=st["color"], alpha=0.15,
                            linewidth=0)
        ax.set_xlabel("student epochs")
        ax.set_ylabel("linear-probe accuracy (%)")
        ax.set_title(title)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        legend_outside(ax, len(ax.lines))
        w.save(fig, name)


PLOTTERS = {"simulate": plot_simulate, "train-gnn": plot_train_gnn, "schedmate": plot_schedmate, "coopt": plot_coopt}


def plot_sweep(run, w):
    """A `mlsys sweep` folder: each run's figures under <out>/runs/<index>/, and for train-gnn
    sweeps the breakdown of every configuration side by side (breakdown_all)."""
    runs_dir = os.path.join(run, "runs")
    if not os.path.isdir(runs_dir):
        return
    bars = []
    for name in sorted(os.listdir(runs_dir), key=lambda n: (len(n), n)):
        sub = os.path.join(runs_dir, name)
        cmd = detect_command(sub)
        if cmd not in PLOTTERS:
            continue
        inner = Writer(os.path.join(w.out, "runs", name))
        PLOTTERS[cmd](sub, inner)
        w.written += inner.written
        epochs = os.path.join(sub, "epochs.csv")
        if cmd == "train-gnn" and os.path.exists(epochs):
            rows = read_csv(epochs)
            if rows:
                bars.append((f"{name}: {gnn_label(sub)}", mean_split(rows)))
    if bars:
        draw_breakdown(bars, w, "breakdown_all")


PLOTTERS["sweep"] = plot_sweep


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="an mlsys run folder (holds config.yaml / summary.json)")
    ap.add_argument("--out", help="where the figures go (default: RUN/figures)")
    a = ap.parse_args(argv)
    if not os.path.isdir(a.run):
        print(f"plot_run: {a.run} is not a folder (give an mlsys run folder)", file=sys.stderr)
        return 2
    if plt is None:
        print(matplotlib_missing(), file=sys.stderr)
        return 2
    cmd = detect_command(a.run)
    if cmd not in PLOTTERS:
        print(f"plot_run: cannot tell which command made {a.run} (found {cmd!r}; expected one of "
              f"{', '.join(PLOTTERS)} in summary.json's run.command or config.yaml's first line)", file=sys.stderr)
        return 2
    paper_style()
    w = Writer(a.out or os.path.join(a.run, "figures"))
    PLOTTERS[cmd](a.run, w)
    if not w.written:
        print(f"plot_run: {a.run} ({cmd}) holds no CSV this script draws", file=sys.stderr)
        return 1
    for p in w.written:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
