#!/usr/bin/env python3
"""Rebuilds the figures of one mlsys run folder from its CSVs, in paper style (PDF + PNG).

  scripts/plot/plot_run.py RUN_FOLDER [--out DIR] [--size column|page]

The command is read from summary.json (run.command) or, failing that, from the first line of
config.yaml; a folder with sweep.yaml and runs/ is a `mlsys sweep`. What is drawn:
  simulate   jct_cdf (jobs.csv), utilization (timeseries.csv), compare_jct / compare_util
             (compare.csv, one bar per configuration), fill (fill.csv); `simulate stats`:
             demand (demand.csv), arrivals (arrivals_per_hour.csv), vc_gpu_hours (by_vc.csv)
  train-gnn  curves (loss and accuracy against the epoch, epochs.csv; empty accuracy cells are
             epochs without an evaluation) and breakdown (mean compute / quantize / communicate /
             wait / all-reduce ms per epoch, epoch 0 left out as in summary.json)
  schedmate  predicted_vs_true (predictions.csv of advise / the quickstart: SchedMate's and the
             Helios-style estimate against the true duration, log-log, y = x and the 50% band;
             jobs without a true duration are left out); `schedmate evaluate`:
             duration_scatter (duration_predictions.csv: every estimator's online predictions)
  coopt      accuracy_few_labels / accuracy_all_labels (comparison.csv: mean over seeds with a
             +-1 sd band)
  sweep      (a `mlsys sweep` folder) every run's figures under DIR/runs/<index>/, and for a
             train-gnn sweep breakdown_all: one stacked bar per configuration
Figures go to DIR (default: RUN_FOLDER/figures) as NAME.pdf and NAME.png, 3.3 in wide (--size
page: 6.9 in), 8 pt text, legends below or above the axes so the width holds. Each series takes
its colour by name from core/util/series_colors.inc, the table the SVG writer uses; series lying
exactly on an earlier one are dashed, marked and labelled "(same as ...)". Needs matplotlib
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
import textwrap

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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The series colour table the SVG writer compiles in (core/util/svg_chart.cpp), so a method,
# policy or placer has one colour in every figure, SVG or PDF.
COLOR_TABLE = os.path.join(ROOT, "core", "util", "series_colors.inc")
STYLES = [("-", None), ("--", "o"), (":", "s"), ("-.", "^")]
# Figure widths (inches) of the --size presets; text is 8 pt at either.
WIDTHS = {"column": 3.3, "page": 6.9}


def read_color_table(path=COLOR_TABLE):
    """(palette, {name: colour}) from the table: "palette C..." and "C NAME" lines, // comments,
    wrapped in a C++ raw string literal (its first and last lines)."""
    palette, by_name = [], {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("//") or line.startswith('R"') or line.startswith(")"):
                continue
            head, _, rest = line.partition(" ")
            if head == "palette":
                palette = rest.split()
            elif rest:
                by_name[rest] = head
    return palette, by_name


PALETTE, NAMED = read_color_table()


def fnv1a(s):
    h = 14695981039346656037
    for b in s.encode():
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def colors_for(names):
    """One colour per name, as the SVG writer picks them: listed names keep their table colour;
    the others take their hashed palette slot, or the next slot not yet used in the figure."""
    out = [NAMED.get(n) for n in names]
    used = {c for c in out if c}
    for i, n in enumerate(names):
        if out[i]:
            continue
        start = fnv1a(n) % len(PALETTE)
        k = start
        for step in range(len(PALETTE)):
            k = (start + step) % len(PALETTE)
            if PALETTE[k] not in used:
                break
        out[i] = PALETTE[k]
        used.add(PALETTE[k])
    return out


def styles_for(series):
    """Line styles for [(name, xs, ys)]: the table colour; a series sharing its colour with an
    earlier one, or lying exactly on an earlier one, gets a dash pattern and markers, and a
    coinciding one says so in its label. Returns [(label, style dict)]."""
    cols = colors_for([n for n, _, _ in series])
    out, levels = [], []
    for k, (name, xs, ys) in enumerate(series):
        level = sum(1 for j in range(k) if cols[j] == cols[k])
        label = name
        for j in range(k):
            if list(series[j][1]) == list(xs) and list(series[j][2]) == list(ys) and len(xs) > 0:
                level = max(level, levels[j] + 1)
                label = f"{name} (same as {series[j][0]})"
                break
        levels.append(level)
        ls, marker = STYLES[0] if level == 0 else STYLES[1 + (level - 1) % (len(STYLES) - 1)]
        out.append((label, {"color": cols[k], "linestyle": ls, "marker": marker, "markevery": 0.1}))
    return out


def style(k, name=""):
    """The style of a lone series (no other series to tell it from): its table colour."""
    return {"color": colors_for([name])[0] if name else PALETTE[0], "linestyle": "-", "marker": None}


def paper_style():
    plt.rcParams.update({
        "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "legend.fontsize": 7,
        "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.linewidth": 1.2, "lines.markersize": 3,
        "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3,
        "pdf.fonttype": 42, "ps.fonttype": 42,
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


def legend_below(ax, n, width):
    """The legend under the axes, in as many columns as the figure width holds (labels wrap), so
    the figure keeps its width."""
    if n <= 1:
        return
    handles, labels = ax.get_legend_handles_labels()
    longest = max(len(lab) for lab in labels)
    chars = int(width * 72 / (7 * 0.6)) - 6  # 7 pt legend text, about 0.6 em a character, the key
    ncol = max(1, min(len(labels), chars // max(1, longest + 6)))
    wrapped = [textwrap.fill(lab, max(10, chars // ncol - 2)) for lab in labels]
    ax.legend(handles, wrapped, loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False, ncol=ncol)
    grow_for_legend(ax.figure, wrapped, ncol)


def grow_for_legend(fig, labels, ncol):
    """The figure grows by the legend's height, so the axes keep theirs (the width never changes)."""
    lines = sum(max(lab.count("\n") + 1 for lab in labels[r:r + ncol]) for r in range(0, len(labels), ncol))
    fig.set_figheight(fig.get_figheight() + lines * 7 * 1.25 / 72 + 0.05)


class Writer:
    def __init__(self, out, width=WIDTHS["column"]):
        self.out = out
        self.width = width
        self.written = []

    def figure(self, height=2.2, rows=1, cols=1):
        """A figure of exactly the preset width (constrained layout fits labels and legends inside it,
        no tight bounding box trims it); height is per row of panels."""
        return plt.subplots(rows, cols, figsize=(self.width, height * rows), squeeze=rows * cols == 1, layout="constrained")

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


def lines(ax, series, w, **kw):
    """Draws [(name, xs, ys)] with their fixed colours, marks coinciding ones, legend below."""
    for (label, st), (_, xs, ys) in zip(styles_for(series), series):
        ax.plot(xs, ys, label=label, **st, **kw)
    legend_below(ax, len(series), w.width)


def category_labels(ax, labels, w):
    """Category tick labels: horizontal when they fit their slot, else turned upwards, the figure
    growing by their length so the axes keep their height. Returns whether they were turned."""
    longest = max((len(lab) for lab in labels), default=0) * 7 * 0.6 / 72  # inches at 7 pt
    turn = longest > w.width * 0.8 / max(1, len(labels))
    ax.set_xticklabels(labels, rotation=90 if turn else 0)
    if turn:
        ax.figure.set_figheight(ax.figure.get_figheight() + longest)
    return turn


def bars(ax, labels, vals, w, values=False, series=None):
    """Categorical bars: filled, each labelled under the axis (turned when they would collide), the
    value on top when asked. Bars of one series (named by `series`) share its colour; otherwise
    each bar is a configuration and takes its own colour from the table."""
    cols = colors_for([series])[0] if series else colors_for(labels)
    x = list(range(len(labels)))
    drawn = ax.bar(x, vals, color=cols, edgecolor="white", width=0.7)
    ax.set_xticks(x)
    turn = category_labels(ax, labels, w)
    ax.grid(axis="x", visible=False)
    if values:
        ax.bar_label(drawn, labels=[f"{v:.0f}" if v >= 100 or v == int(v) else f"{v:.3g}" for v in vals], fontsize=6,
                     rotation=90 if turn else 0, padding=1)
        ax.margins(y=0.15)


def plot_simulate(run, w):
    jobs = os.path.join(run, "jobs.csv")
    if os.path.exists(jobs):
        rows = read_csv(jobs)
        jct = sorted(v for v in (num(r.get("jct_s", r.get("jct"))) for r in rows) if v is not None)
        if jct:
            fig, ax = w.figure()
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
        fig, ax = w.figure()
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
            fig, ax = w.figure(2.4)
            bars(ax, labels, vals, w)
            ax.set_ylabel(ylabel)
            w.save(fig, fname)
        break
    fill = os.path.join(run, "fill.csv")
    if os.path.exists(fill):
        rows = read_csv(fill)
        fig, ax = w.figure()
        series = []
        for placer, grp in itertools.groupby(rows, key=lambda r: r["placer"]):
            grp = list(grp)
            series.append((placer, [num(r["arrived_pct"]) for r in grp], [num(r["unallocated_pct"]) for r in grp]))
        lines(ax, series, w)
        ax.set_xlabel("arrived GPU demand (% of capacity)")
        ax.set_ylabel("unallocated GPUs (%)")
        w.save(fig, "fill")
    plot_trace_stats(run, w)


def plot_trace_stats(run, w):
    """`simulate stats`: demand (demand.csv), arrivals (arrivals_per_hour.csv), vc_gpu_hours (by_vc.csv)."""
    if not os.path.exists(os.path.join(run, "demand.csv")):
        return  # not a stats run (a simulation's by_vc.csv has other columns)
    demand = [r for r in rows_of(run, "demand.csv") if (num(r.get("jobs")) or 0) > 0]
    if demand:
        fig, ax = w.figure()
        bars(ax, [r["num_gpus"] for r in demand], [num(r["jobs"]) for r in demand], w, values=True, series="jobs")
        ax.set_xlabel("GPUs requested")
        ax.set_ylabel("jobs")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        w.save(fig, "demand")
    arrivals = rows_of(run, "arrivals_per_hour.csv")
    if arrivals:
        fig, ax = w.figure()
        ax.plot([num(r["hour"]) for r in arrivals], [num(r["jobs"]) for r in arrivals], **style(0))
        ax.set_xlabel("hours since the first submission")
        ax.set_ylabel("jobs submitted")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        w.save(fig, "arrivals")
    vcs = sorted(rows_of(run, "by_vc.csv"), key=lambda r: -(num(r.get("gpu_hours")) or 0.0))
    if vcs:
        shown, rest = vcs[:19] if len(vcs) > 20 else vcs, vcs[19:] if len(vcs) > 20 else []
        labels = [r["vc"] or "(none)" for r in shown] + ([f"{len(rest)} other VCs"] if rest else [])
        vals = [num(r["gpu_hours"]) or 0.0 for r in shown] + ([sum(num(r["gpu_hours"]) or 0.0 for r in rest)] if rest else [])
        fig, ax = w.figure(2.4)
        bars(ax, labels, vals, w, values=True, series="GPU-hours")
        ax.set_xlabel("VC (largest first)")
        ax.set_ylabel("GPU-hours")
        w.save(fig, "vc_gpu_hours")


# ---- train-gnn ----

def plot_train_gnn(run, w):
    rows = rows_of(run, "epochs.csv")
    if not rows:
        return
    epoch = [num(r["epoch"]) for r in rows]
    # Column width: loss above accuracy; page width: side by side.
    column = w.width < WIDTHS["page"]
    fig, axes = w.figure(2.0, rows=2) if column else w.figure(2.2, cols=2)
    ax1, ax2 = axes.flat
    ax1.plot(epoch, [num(r["loss"]) for r in rows], **style(0, "training loss"))
    ax1.set_xlabel("epoch")
    ax1.set_ylabel("training loss")
    series = []
    for col, label in (("train_acc", "train"), ("val_acc", "validation"), ("test_acc", "test")):
        pts = [(e, 100 * num(r[col])) for e, r in zip(epoch, rows) if num(r.get(col)) is not None]
        if pts:
            series.append((label, [p[0] for p in pts], [p[1] for p in pts]))
    lines(ax2, series, w)
    ax2.set_xlabel("epoch")
    for ax in (ax1, ax2):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    ax2.set_ylabel("accuracy (%)")
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


def draw_breakdown(bars_, w, name):
    """Sylvie's figure: one stacked bar per configuration (label, {part: ms})."""
    fig, ax = w.figure(2.4)
    x = list(range(len(bars_)))
    base = [0.0] * len(bars_)
    cols = colors_for([label for _, label in GNN_PARTS])
    for k, (c, label) in enumerate(GNN_PARTS):
        vals = [split[c] for _, split in bars_]
        if any(v > 0 for v in vals):
            ax.bar(x, vals, bottom=base, width=0.6, label=label, color=cols[k])
            base = [b + v for b, v in zip(base, vals)]
    ax.set_xticks(x)
    category_labels(ax, [label for label, _ in bars_], w)
    ax.set_ylabel("mean time per epoch (ms)")
    ax.grid(axis="x", visible=False)
    handles, labels = ax.get_legend_handles_labels()
    # Above the axes (the bar labels take the room below), top segment first as the bars read.
    ax.legend(handles[::-1], labels[::-1], loc="lower center", bbox_to_anchor=(0.5, 1.02), frameon=False, ncol=3)
    grow_for_legend(fig, labels, 3)
    w.save(fig, name)


# ---- schedmate ----

def scatter_figure(groups, w, name):
    """Predicted against true duration, log-log, with y = x and the 50% band: {label: [(t, p)]}."""
    fig, ax = w.figure(w.width * 0.8)
    lo = min(min(min(t, p) for t, p in g) for g in groups.values())
    hi = max(max(max(t, p) for t, p in g) for g in groups.values())
    ax.plot([lo, hi], [lo, hi], color=NAMED.get("y = x", "#000000"), linewidth=0.8, label="y = x")
    ax.fill_between([lo, hi], [0.5 * lo, 0.5 * hi], [1.5 * lo, 1.5 * hi], color=NAMED.get("within 50%", "#999999"), alpha=0.2,
                    linewidth=0, label="within 50%")
    cols = colors_for(list(groups))
    for k, (label, pts) in enumerate(groups.items()):  # the last drawn on top
        ax.scatter([t for t, _ in pts], [p for _, p in pts], s=6, alpha=0.7, label=label, color=cols[k],
                   marker="os^D"[k % 4], linewidths=0)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("true duration (s)")
    ax.set_ylabel("predicted duration (s)")
    legend_below(ax, len(groups) + 2, w.width)
    w.save(fig, name)


def plot_schedmate(run, w):
    rows = rows_of(run, "predictions.csv")
    # true_duration_s is 0 where the trace holds no duration: such jobs cannot be scored.
    groups = {}
    for name, col in (("Helios-style", "helios_style_s"), ("SchedMate", "predicted_duration_s")):
        pts = [(num(r.get("true_duration_s")), num(r.get(col))) for r in rows]
        pts = [(t, p) for t, p in pts if t and p and t > 0 and p > 0]
        if pts:
            groups[name] = pts
    if groups:
        scatter_figure(groups, w, "predicted_vs_true")
    # `schedmate evaluate`: every estimator's online predictions (duration_predictions.csv).
    groups = {}
    for r in rows_of(run, "duration_predictions.csv"):
        t, p = num(r.get("true_duration_s")), num(r.get("predicted_s"))
        if t and p and t > 0 and p > 0:
            groups.setdefault(r["estimator"], []).append((t, p))
    if groups:
        if "SchedMate" in groups:  # SchedMate drawn last, on top
            groups["SchedMate"] = groups.pop("SchedMate")
        scatter_figure(groups, w, "duration_scatter")


# ---- coopt ----

def plot_coopt(run, w):
    rows = rows_of(run, "comparison.csv")
    if not rows:
        return
    for col, sd, name, title in (("few_label_acc", "few_label_sd", "accuracy_few_labels", "few labels per class"),
                                 ("all_label_acc", "all_label_sd", "accuracy_all_labels", "all pool labels")):
        fig, ax = w.figure(2.3)
        series, spreads = [], []
        for method, grp in itertools.groupby(rows, key=lambda r: r["method"]):
            grp = [r for r in grp if num(r.get(col)) is not None]
            if grp:
                series.append((method, [num(r["epoch"]) for r in grp], [100 * num(r[col]) for r in grp]))
                spreads.append([100 * (num(r.get(sd)) or 0.0) for r in grp])
        for (label, st), (_, x, y), s in zip(styles_for(series), series, spreads):
            ax.plot(x, y, label=label, **st)
            if any(v > 0 for v in s):  # one seed: no spread to show
                ax.fill_between(x, [a - b for a, b in zip(y, s)], [a + b for a, b in zip(y, s)], color=st["color"], alpha=0.15,
                                linewidth=0)
        ax.set_xlabel("student epochs")
        ax.set_ylabel("linear-probe accuracy (%)")
        ax.set_title(title)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        legend_below(ax, len(series), w.width)
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
        inner = Writer(os.path.join(w.out, "runs", name), w.width)
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
    ap.add_argument("--size", choices=sorted(WIDTHS), default="column",
                    help="figure width: column (3.3 in, the default) or page (6.9 in); text is 8 pt at either")
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
    w = Writer(a.out or os.path.join(a.run, "figures"), WIDTHS[a.size])
    PLOTTERS[cmd](a.run, w)
    if not w.written:
        print(f"plot_run: {a.run} ({cmd}) holds no CSV this script draws", file=sys.stderr)
        return 1
    for p in w.written:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
