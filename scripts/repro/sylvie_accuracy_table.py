#!/usr/bin/env python3
"""Table of the Sylvie accuracy study (scripts/repro/sylvie_accuracy.sh): per graph, model, parts
and variant, accuracy mean +- sd over the seeds that finished, the worst seed, the checks of #12
against single-worker fp32's mean, and the commit(s) whose study produced the row. Each row is
labelled with the settings its runs really used where they differ from the variant's name (a
fresh-epoch width other than 1 bit).

Loss checks, both reported: the issue's check as specified, on the training step's loss ("final
training loss within 10% of its minimum"; with dropout a converged run's per-epoch loss wanders by
tens of percent, so it fails for fp32 too), and the same check on the evaluation pass's train loss
(no dropout, exact halos; every eval_every epochs).

Usage: sylvie_accuracy_table.py OUT_FOLDER [--split validation|test] [--protocol FILE] [--seeds N]
                                [--unfrozen]
--split validation (the default) shows final validation accuracy and records, in OUT_FOLDER, that
it was shown with the settings' hashes (scripts/repro/protocol.py). --split test is refused (exit 2)
unless OUT_FOLDER's runs were made under a frozen protocol (protocol.json), a validation report
with the same settings exists and the settings files are still committed and unchanged; runs whose
study_run.json names other settings are left out and listed. --unfrozen shows the test split of a
folder without a protocol (older studies), marked as not frozen. With --protocol (its seeds) or
--seeds N (seeds 1..N), runs that are missing or failed are listed, and the exit code is 1 when a
row has fewer seeds than asked."""
import csv, json, os, re, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol as frozen  # noqa: E402

args = sys.argv[1:]
def option(name, default=None):
    if name not in args:
        return default
    i = args.index(name)
    value = args[i + 1]
    del args[i:i + 2]
    return value
split = option("--split", "validation")
protocol_file = option("--protocol")
want = option("--seeds")
unfrozen = "--unfrozen" in args
if unfrozen:
    args.remove("--unfrozen")
if split not in ("validation", "test") or len(args) != 1:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
out = args[0]
checks = {"within_points": 1.0, "worst_points": 3.0, "loss_ratio": 1.1, "baseline": "fp32_p1"}
want_seeds = None
if protocol_file:
    values = frozen.read_protocol(protocol_file)
    want_seeds = [f"seed{s}" for s in values["seeds"].split()]
    checks.update({k: (values[k] if k == "baseline" else float(values[k])) for k in checks if k in values})
elif want:
    want_seeds = [f"seed{k}" for k in range(1, int(want) + 1)]
record = None
try:
    if split == "test" and not unfrozen:
        record = frozen.check_test(out)
except frozen.Refused as e:
    hint = "; for an older study without one, --unfrozen shows it marked as not frozen" if "no protocol.json" in str(e) else ""
    print(f"sylvie_accuracy_table: test split refused: {e}{hint}", file=sys.stderr)
    sys.exit(2)
acc_key = "final_test_acc" if split == "test" else "final_val_acc"
interrupted, failed, missing, foreign = [], [], [], []

def fresh_bits(d):
    """gnn.staleness.fresh_bits of a run, from its config.yaml (None when not recorded)."""
    cfg = os.path.join(d, "config.yaml")
    if not os.path.exists(cfg):
        return None
    m = re.search(r"^\s*fresh_bits:\s*(\d+)", open(cfg).read(), re.M)
    return int(m.group(1)) if m else None

def study_commit(d):
    """The commit of the study that made a run (study_run.json), or None. With a frozen record,
    a run whose settings files differ from the record's is set aside (returns False)."""
    path = os.path.join(d, "study_run.json")
    if not os.path.exists(path):
        return False if record else None
    run = json.load(open(path))
    if record and any(record["files"].get(f) != h for f, h in run["files"].items()):
        return False
    return run["commit"]

def runs(folder):
    """(accuracy, step-loss check, eval-loss check) per finished seed; notes the others."""
    res, widths, commits = [], set(), set()
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    seeds = {s for s in names if os.path.isdir(os.path.join(folder, s))}
    seeds |= {s[:-4] for s in names if s.endswith(".err")}  # a run that failed before its folder
    if want_seeds:
        seeds |= set(want_seeds)
    for s in sorted(seeds, key=lambda name: (len(name), name)):
        d = os.path.join(folder, s)
        if os.path.exists(d + ".err"):
            failed.append(d)
            continue
        if not os.path.exists(os.path.join(d, "summary.json")):
            missing.append(d)
            continue
        summary = json.load(open(os.path.join(d, "summary.json")))
        if summary.get("interrupted"):  # stopped early: not a result (the study script re-runs it)
            interrupted.append(d)
            continue
        commit = study_commit(d)
        if commit is False:
            foreign.append(d)
            continue
        if commit:
            commits.add(commit[:7])
        widths.add(fresh_bits(d))
        acc = 100 * summary[acc_key]
        rows = list(csv.DictReader(open(os.path.join(d, "epochs.csv"))))
        losses = [float(r["loss"]) for r in rows]
        evals = [float(r["eval_loss"]) for r in rows if r.get("eval_loss")]
        ratio = checks["loss_ratio"]
        res.append((acc, losses[-1] <= ratio * min(losses), bool(evals) and evals[-1] <= ratio * min(evals)))
    return res, widths, commits

def label(name, widths):
    # fresh_bits 0 is "the epoch's own width" (the default); fp32 runs have no fresh epochs to widen.
    if name.startswith("fp32"):
        return name
    real = sorted(w for w in widths if w not in (None, 0, 1))
    return name + "".join(f", fresh epochs {w}-bit" for w in real)

def ms(xs):
    return statistics.mean(xs), (statistics.stdev(xs) if len(xs) > 1 else 0.0)

within, worst_gap, ratio = checks["within_points"], checks["worst_points"], checks["loss_ratio"]
what = "TEST" if split == "test" else "VALIDATION"
if split == "test" and unfrozen:
    print(f"NOT FROZEN: {out} was not made under a recorded protocol (--unfrozen); its settings are not verified\n")
print(f"{what} split, final epoch: {out}" + (f" (protocol {record['protocol']})" if record else ""))
print(f"| graph | model | run | seeds | {split} % mean +- sd | worst | vs fp32 mean | within {within:g} "
      f"| no seed < fp32 - {worst_gap:g} | step loss: last <= {ratio:g} min (the issue's check) "
      f"| eval loss: last <= {ratio:g} min | commit |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
fails_acc = fails_step = fails_eval = short_rows = 0
yn = lambda c: "yes" if c else "NO"
def seeds_cell(n):
    global short_rows
    if want_seeds and n < len(want_seeds):
        short_rows += 1
        return f"**{n} of {len(want_seeds)}**"
    return str(n)
def commits_cell(commits):
    return " ".join(sorted(commits)) or "not recorded"
baseline = checks["baseline"]
for g in sorted(os.listdir(out)):
    if not os.path.isdir(os.path.join(out, g)):
        continue
    for m in sorted(os.listdir(os.path.join(out, g))):
        base, bw, bc = runs(os.path.join(out, g, m, baseline))
        if not base:  # nothing to compare the variants with
            if want_seeds:
                print(f"| {g} | {m} | fp32, 1 worker | {seeds_cell(0)} | | | | | | | | |")
            continue
        b_m, b_sd = ms([r[0] for r in base])
        fails_step += not all(r[1] for r in base)
        fails_eval += not all(r[2] for r in base)
        print(f"| {g} | {m} | {label('fp32, 1 worker', bw)} | {seeds_cell(len(base))} | {b_m:.2f} +- {b_sd:.2f} "
              f"| {min(r[0] for r in base):.2f} | | | | {yn(all(r[1] for r in base))} | {yn(all(r[2] for r in base))} "
              f"| {commits_cell(bc)} |")
        for v in sorted(os.listdir(os.path.join(out, g, m))):
            if v == baseline or not os.path.isdir(os.path.join(out, g, m, v)):
                continue
            r, widths, vc = runs(os.path.join(out, g, m, v))
            name, parts = v.rsplit("_p", 1)
            if not r:  # no finished seed: with seeds asked, a row that says so (the lists below name the runs)
                if want_seeds:
                    print(f"| {g} | {m} | {label(name, widths)}, P={parts} | {seeds_cell(0)} | | | | | | | | |")
                continue
            a_m, a_sd = ms([x[0] for x in r])
            worst = min(x[0] for x in r)
            c1, c2 = a_m >= b_m - within, worst >= b_m - worst_gap
            c3, c4 = all(x[1] for x in r), all(x[2] for x in r)
            fails_acc += not (c1 and c2)
            fails_step += not c3
            fails_eval += not c4
            print(f"| {g} | {m} | {label(name, widths)}, P={parts} | {seeds_cell(len(r))} | {a_m:.2f} +- {a_sd:.2f} "
                  f"| {worst:.2f} | {a_m - b_m:+.2f} | {yn(c1)} | {yn(c2)} | {yn(c3)} | {yn(c4)} | {commits_cell(vc)} |")
print(f"\nrows failing an accuracy check: {fails_acc}; rows failing the issue's loss check (training step): "
      f"{fails_step}; rows failing the loss check (evaluation-pass train loss): {fails_eval}")
if interrupted:
    print(f"left out, stopped before their last epoch (re-run them with the study script): {' '.join(interrupted)}")
if failed:
    print(f"left out, FAILED (see their .err files): {' '.join(failed)}")
if foreign:
    print(f"left out, not made with this protocol's settings (no or another study_run.json): {' '.join(foreign)}")
if missing:
    print(f"missing (never run): {' '.join(missing)}")
if split == "validation":
    frozen.validation_done(out)
if short_rows:
    print(f"{short_rows} row(s) have fewer than the {len(want_seeds)} seeds asked for: this table is incomplete")
    sys.exit(1)
