#!/usr/bin/env python3
"""Table of the Sylvie accuracy study (scripts/repro/sylvie_accuracy.sh): per graph, model, parts
and variant, test accuracy mean +- sd over the seeds that finished, the worst seed, and the three
checks of #12 against single-worker fp32's mean. Usage: sylvie_accuracy_table.py OUT_FOLDER"""
import csv, json, os, statistics, sys

out = sys.argv[1]
interrupted = []

def runs(folder):
    res = []
    for s in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        d = os.path.join(folder, s)
        if not os.path.exists(os.path.join(d, "summary.json")):
            continue
        summary = json.load(open(os.path.join(d, "summary.json")))
        if summary.get("interrupted"):  # stopped early: not a result (the study script re-runs it)
            interrupted.append(d)
            continue
        acc = 100 * summary["final_test_acc"]
        rows = list(csv.DictReader(open(os.path.join(d, "epochs.csv"))))
        # The criterion on the training step's loss (with dropout, which makes a converged run's
        # per-epoch loss wander by tens of percent), and on the evaluation pass's train loss (no
        # dropout, exact halos; every eval_every epochs): a loss climbing back shows in both.
        losses = [float(r["loss"]) for r in rows]
        evals = [float(r["eval_loss"]) for r in rows if r.get("eval_loss")]
        res.append((acc, losses[-1] <= 1.1 * min(losses), bool(evals) and evals[-1] <= 1.1 * min(evals)))
    return res

def ms(xs):
    return statistics.mean(xs), (statistics.stdev(xs) if len(xs) > 1 else 0.0)

print("| graph | model | run | seeds | test % mean +- sd | worst | vs fp32 mean | within 1.0 | no seed < fp32 - 3 | step loss: last <= 1.1 min | eval loss: last <= 1.1 min |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
fails_acc = fails_loss = 0
for g in sorted(os.listdir(out)):
    if not os.path.isdir(os.path.join(out, g)):
        continue
    for m in sorted(os.listdir(os.path.join(out, g))):
        base = runs(os.path.join(out, g, m, "fp32_p1"))
        if not base:
            continue
        b_m, b_sd = ms([r[0] for r in base])
        yn = lambda c: "yes" if c else "NO"
        fails_loss += not all(r[2] for r in base)
        print(f"| {g} | {m} | fp32, 1 worker | {len(base)} | {b_m:.2f} +- {b_sd:.2f} | {min(r[0] for r in base):.2f} | | | | "
              f"{yn(all(r[1] for r in base))} | {yn(all(r[2] for r in base))} |")
        for v in sorted(os.listdir(os.path.join(out, g, m))):
            if v == "fp32_p1":
                continue
            r = runs(os.path.join(out, g, m, v))
            if not r:
                continue
            a_m, a_sd = ms([x[0] for x in r])
            worst = min(x[0] for x in r)
            c1, c2, c3, c4 = a_m >= b_m - 1.0, worst >= b_m - 3.0, all(x[1] for x in r), all(x[2] for x in r)
            fails_acc += not (c1 and c2)
            fails_loss += not c4
            name, parts = v.rsplit("_p", 1)
            print(f"| {g} | {m} | {name}, P={parts} | {len(r)} | {a_m:.2f} +- {a_sd:.2f} | {worst:.2f} | {a_m - b_m:+.2f} | {yn(c1)} | {yn(c2)} | {yn(c3)} | {yn(c4)} |")
print(f"\nrows failing an accuracy check: {fails_acc}; rows failing the loss check (evaluation-pass train loss): {fails_loss}")
if interrupted:
    print(f"left out, stopped before their last epoch (re-run them with the study script): {' '.join(interrupted)}")
