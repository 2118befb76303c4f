#!/usr/bin/env bash
# ctest scripts/sylvie_accuracy_resume: scripts/repro/sylvie_accuracy.sh with a stand-in for mlsys
# (it writes a summary and epochs.csv and logs its --out), on the smoke protocol (Cora x GCN x
# seed 1, 7 runs), 2 at once, in a scratch git clone of the scripts and settings (the protocol
# checks that they are committed). Before the study: two runs finished (fp32 and one 4-part run),
# one stopped early ("interrupted": true). The study must start the stopped run and every missing
# one, not the finished one, and the table must count each finished run once; a table over a
# folder holding a stopped run must leave it out and name it. The frozen protocol (#28): the study
# refuses uncommitted or changed settings, the test split is refused before a validation report
# and after a settings change, and is shown when nothing changed.
# Usage: sylvie_accuracy_test.sh <source dir> <work dir>
set -euo pipefail
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
# A scratch repository holding the study's scripts and settings, committed.
repo="$work/repo"
mkdir -p "$repo/scripts/repro" "$repo/configs/repro/sylvie"
cp "$src"/scripts/repro/{sylvie_accuracy.sh,sylvie_accuracy_table.py,protocol.py} "$repo/scripts/repro/"
cp -r "$src/configs/repro/sylvie/accuracy" "$src/configs/repro/sylvie/accuracy_cora.yaml" "$repo/configs/repro/sylvie/"
git -C "$repo" init -q
git -C "$repo" -c user.name=t -c user.email=t@t add -A
git -C "$repo" -c user.name=t -c user.email=t@t commit -qm settings
export PROTOCOL="$repo/configs/repro/sylvie/accuracy/smoke_protocol.yaml"
study="$repo/scripts/repro/sylvie_accuracy.sh"
tablepy="$repo/scripts/repro/sylvie_accuracy_table.py"
fake="$work/fake-mlsys"
cat > "$fake" <<'SH'
#!/usr/bin/env bash
# Stand-in for `mlsys train-gnn CONFIG --out DIR ...`: a finished run with 85% test accuracy.
[[ ${1:-} == version ]] && { echo "  git:     fake"; exit 0; }
out=""
while [[ $# -gt 0 ]]; do [[ $1 == --out ]] && out=$2; shift; done
mkdir -p "$out"
echo "$out" >> "$(dirname "$0")/started"
printf '{"final_test_acc": 0.85, "final_val_acc": 0.84, "interrupted": false}\n' > "$out/summary.json"
printf 'epoch,loss,eval_loss\n0,1.0,1.0\n1,0.5,0.5\n' > "$out/epochs.csv"
SH
chmod +x "$fake"
out="$work/out"
baseline="$out/cora/gcn/fp32_p1/seed1"
finished="$out/cora/gcn/1bit_pipeline_p4/seed1"
stopped="$out/cora/gcn/1bit_pipeline_p8/seed1"
mkdir -p "$baseline" "$finished" "$stopped"
for d in "$baseline" "$finished"; do
  printf '{"final_test_acc": 0.85, "final_val_acc": 0.84, "interrupted": false}\n' > "$d/summary.json"
  printf 'epoch,loss,eval_loss\n0,1.0,1.0\n' > "$d/epochs.csv"
done
printf '{"final_test_acc": 0.10, "interrupted": true}\n' > "$stopped/summary.json"
printf 'epoch,loss,eval_loss\n0,2.0,2.0\n' > "$stopped/epochs.csv"

# The table over the folder as it is: the stopped run is left out and named.
table="$(python3 "$tablepy" "$out")"
grep -q "left out, stopped before their last epoch.*1bit_pipeline_p8/seed1" <<< "$table" || { echo "FAIL: the stopped run is not named"; echo "$table"; exit 1; }
if grep -q "1bit_pipeline, P=8" <<< "$table"; then echo "FAIL: the stopped run's accuracy is in the table"; echo "$table"; exit 1; fi

# Uncommitted settings: the study refuses to start (exit 2) and starts no run.
echo "# edited" >> "$repo/configs/repro/sylvie/accuracy/run_adaptive_p4.yaml"
rc=0
JOBS=2 MLSYS_DATA_DIR="$work" bash "$study" "$fake" "$out" > "$work/refused.out" 2>&1 || rc=$?
[[ $rc -eq 2 && ! -e "$work/started" ]] || { echo "FAIL: study with a changed settings file: exit $rc"; cat "$work/refused.out"; exit 1; }
grep -q "run_adaptive_p4.yaml: changed since the last commit" "$work/refused.out" || { echo "FAIL: refusal does not name the file"; cat "$work/refused.out"; exit 1; }
git -C "$repo" checkout -q -- configs
# The finished runs from before were made by this protocol's study (their records name its files).
commit="$(git -C "$repo" rev-parse HEAD)"
for d in "$baseline" "$finished"; do
  printf '{"commit": "%s", "mlsys_git": "fake", "files": {}}\n' "$commit" > "$d/study_run.json"
done
JOBS=2 MLSYS_DATA_DIR="$work" bash "$study" "$fake" "$out" > "$work/study.out"
started="$(sort "$work/started")"
n="$(wc -l <<< "$started")"
[[ $n -eq 5 ]] || { echo "FAIL: $n runs started, expected 5 (7 less the 2 finished)"; echo "$started"; exit 1; }
grep -qx "$stopped" <<< "$started" || { echo "FAIL: the stopped run was not started again"; exit 1; }
if grep -qxE "$finished|$baseline" <<< "$started"; then echo "FAIL: a finished run was started again"; exit 1; fi
grep -q "rows failing an accuracy check: 0; rows failing the issue.s loss check (training step): 0; rows failing the loss check (evaluation-pass train loss): 0" "$work/study.out" || { echo "FAIL: table"; cat "$work/study.out"; exit 1; }
if grep -q "left out" "$work/study.out"; then echo "FAIL: a run is still left out after the study"; cat "$work/study.out"; exit 1; fi
# A failed run and a missing seed: listed, the row counts its seeds short, and the table exits 1.
rm -rf "$out/cora/gcn/adaptive_p4/seed1"
echo "boom" > "$out/cora/gcn/adaptive_p8/seed1.err"
rm -rf "$out/cora/gcn/adaptive_p8/seed1"
rc=0
python3 "$tablepy" "$out" --protocol "$PROTOCOL" > "$work/short.out" || rc=$?
[[ $rc -eq 1 ]] || { echo "FAIL: a short table exited $rc, expected 1"; cat "$work/short.out"; exit 1; }
grep -q "FAILED.*adaptive_p8/seed1" "$work/short.out" || { echo "FAIL: the failed run is not named"; cat "$work/short.out"; exit 1; }
grep -q "missing (never run):.*adaptive_p4/seed1" "$work/short.out" || { echo "FAIL: the missing run is not named"; cat "$work/short.out"; exit 1; }
grep -q "fewer than the 1 seeds asked" "$work/short.out" || { echo "FAIL: no incomplete-table line"; cat "$work/short.out"; exit 1; }
{ grep -q "VALIDATION split" "$work/study.out" && grep -q "TEST split" "$work/study.out"; } || { echo "FAIL: the study did not show validation, then test"; cat "$work/study.out"; exit 1; }
grep -q "| cora | gcn | fp32, 1 worker | 1 | 84.00 +- 0.00 | 84.00 | .* | ${commit:0:7} |" "$work/study.out" || { echo "FAIL: validation row or its commit"; cat "$work/study.out"; exit 1; }
# The test split: refused without a validation report, and after a settings change; shown otherwise.
rm "$out/validation_report.json"
rc=0; python3 "$tablepy" "$out" --split test > "$work/t1.out" 2>&1 || rc=$?
{ [[ $rc -eq 2 ]] && grep -q "no validation report" "$work/t1.out"; } || { echo "FAIL: test split without a validation report: exit $rc"; cat "$work/t1.out"; exit 1; }
python3 "$tablepy" "$out" > /dev/null || true
sed -i 's/lr: 0.01/lr: 0.02/' "$repo/configs/repro/sylvie/accuracy_cora.yaml"
git -C "$repo" -c user.name=t -c user.email=t@t commit -qam retuned
rc=0; python3 "$tablepy" "$out" --split test > "$work/t2.out" 2>&1 || rc=$?
{ [[ $rc -eq 2 ]] && grep -q "settings changed since the validation report (configs/repro/sylvie/accuracy_cora.yaml)" "$work/t2.out"; } || { echo "FAIL: test split after a settings change: exit $rc"; cat "$work/t2.out"; exit 1; }
git -C "$repo" -c user.name=t -c user.email=t@t revert --no-edit HEAD > /dev/null
python3 "$tablepy" "$out" --split test > "$work/t3.out" 2>&1 || true
{ grep -q "TEST split" "$work/t3.out" && grep -q "| cora | gcn | fp32, 1 worker | 1 | 85.00" "$work/t3.out"; } || { echo "FAIL: test split with unchanged settings"; cat "$work/t3.out"; exit 1; }
[[ -f "$out/test_report.json" ]] || { echo "FAIL: the first test read is not recorded"; exit 1; }
# The row label names a fresh-epoch width other than 1 bit (from the run's config.yaml).
printf 'gnn:\n  staleness:\n    fresh_bits: 8\n' > "$out/cora/gcn/1bit_pipeline_p4/seed1/config.yaml"
labelled="$(python3 "$tablepy" "$out" || true)"
grep -q "1bit_pipeline, fresh epochs 8-bit, P=4" <<< "$labelled" || { echo "FAIL: the fresh-epoch width is not in the row label"; echo "$labelled"; exit 1; }
echo "ok: changed settings refused; 5 runs started (the stopped one among them), the finished ones kept, table complete; failed and missing runs named, short table exits 1, real settings in labels; test split refused before validation and after a settings change"
