"""The Run object and the functions that start mlsys processes."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd

# Exit codes of the mlsys binary (README.md): a run stopped by SIGINT/SIGTERM still has a folder
# with partial results.
EXIT_INTERRUPTED = 130


class MlsysError(RuntimeError):
    """mlsys exited with an error: 1 runtime failure, 2 bad usage or config."""

    def __init__(self, argv, returncode, stdout, stderr):
        self.argv, self.returncode, self.stdout, self.stderr = argv, returncode, stdout, stderr
        last = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit code {returncode}"
        super().__init__(f"{last} (exit {returncode}; command: {' '.join(map(str, argv))})")


def find_binary(binary=None):
    """Path of the mlsys executable: `binary`, $MLSYS_BINARY, `mlsys` on PATH, or build/bin/mlsys
    of the checkout an editable install points into."""
    for candidate in (binary, os.environ.get("MLSYS_BINARY"), shutil.which("mlsys")):
        if candidate:
            return str(candidate)
    checkout = Path(__file__).resolve().parents[2] / "build" / "bin" / "mlsys"
    if checkout.is_file():
        return str(checkout)
    raise FileNotFoundError("mlsys binary not found: pass binary=..., set MLSYS_BINARY, put mlsys on PATH "
                            "or build it (make build) in the checkout this package was installed from")


def _yaml_value(value):
    """A Python value as the YAML text --set reads."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value)  # JSON flow style is YAML
    return str(value)


def _results_folder(stdout, cwd):
    """The run folder the binary printed last ("  results: <folder>")."""
    for line in reversed(stdout.splitlines()):
        if line.strip().startswith("results:"):
            folder = Path(line.split("results:", 1)[1].strip())
            return folder if folder.is_absolute() else Path(cwd or os.getcwd()) / folder
    return None


def _execute(argv, check, cwd):
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=cwd)
    if check and proc.returncode not in (0, EXIT_INTERRUPTED):
        raise MlsysError(argv, proc.returncode, proc.stdout, proc.stderr)
    return proc


def run(command, *configs, mode=None, sets=None, seed=None, out=None, overwrite=False, quiet=True,
        binary=None, args=(), check=True, cwd=None):
    """Runs `mlsys <command> [mode] [configs...]` and returns its Run.

    sets: {"sim.policy": "sjf", ...} become --set key=value; seed, out and overwrite map to --seed,
    --out and --overwrite; args are passed through. Raises MlsysError on exit 1 or 2 when check."""
    argv = [find_binary(binary), command]
    if mode:
        argv.append(mode)
    argv += [str(c) for c in configs]
    for key, value in (sets or {}).items():
        argv += ["--set", f"{key}={_yaml_value(value)}"]
    if seed is not None:
        argv += ["--seed", str(seed)]
    if out is not None:
        argv += ["--out", str(out)]
    if overwrite:
        argv.append("--overwrite")
    if quiet:
        argv.append("-q")
    argv += ["--set", "run.progress=off", *map(str, args)]
    proc = _execute(argv, check, cwd)
    folder = Path(out) if out is not None else _results_folder(proc.stdout, cwd)
    if out is not None and not folder.is_absolute():
        folder = Path(cwd or os.getcwd()) / folder
    return Run(folder, proc.returncode, proc.stdout, proc.stderr)


def load(folder):
    """The Run of a finished run folder."""
    folder = Path(folder)
    if not (folder / "summary.json").is_file():
        raise FileNotFoundError(f"{folder} holds no summary.json: not a finished mlsys run folder")
    return Run(folder)


def sweep(sweep_file, out=None, *, mode=None, sets=None, overwrite=False, binary=None, check=True, cwd=None):
    """Runs `mlsys sweep [mode] SWEEP.yaml` and returns the merged table (sweep.csv) as a DataFrame."""
    argv = [find_binary(binary), "sweep"] + ([mode] if mode else []) + [str(sweep_file), "-q"]
    for key, value in (sets or {}).items():
        argv += ["--set", f"{key}={_yaml_value(value)}"]
    if out is not None:
        argv += ["--out", str(out)]
    if overwrite:
        argv.append("--overwrite")
    proc = _execute(argv, check, cwd)
    folder = Path(out) if out is not None else _results_folder(proc.stdout, cwd)
    if not folder.is_absolute():
        folder = Path(cwd or os.getcwd()) / folder
    return load_sweep(folder)


def load_sweep(folder):
    """The merged table of a sweep folder (sweep.csv): one row per configuration."""
    return pd.read_csv(Path(folder) / "sweep.csv")


class Run:
    """One run folder: summary.json, config.yaml and the command's CSV tables."""

    def __init__(self, folder, returncode=0, stdout="", stderr=""):
        self.folder = Path(folder) if folder is not None else None
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr

    def __repr__(self):
        return f"mlsys.Run({str(self.folder)!r}, tables={self.tables})"

    @property
    def summary_dict(self):
        """summary.json as nested dicts."""
        with open(self.folder / "summary.json") as fh:
            return json.load(fh)

    @property
    def summary(self):
        """summary.json as a one-row DataFrame; nested keys are joined with "." and lists stay cells."""
        return pd.json_normalize(self.summary_dict, sep=".")

    @property
    def record(self):
        """The run record (build, command line, host, times, inputs): summary.json's "run" object."""
        return self.summary_dict.get("run", {})

    @property
    def partial(self):
        """True when the run was interrupted (SIGINT/SIGTERM) and its results are partial."""
        return bool(self.record.get("partial", False))

    @property
    def inputs(self):
        """The input files the run read: one row per key with path, size and content hash."""
        rows = [{"key": k, **v} for k, v in self.record.get("inputs", {}).items()]
        return pd.DataFrame(rows)

    @property
    def config(self):
        """config.yaml as text (the resolved config; `mlsys <command> <folder>/config.yaml` re-runs it)."""
        return (self.folder / "config.yaml").read_text()

    @property
    def tables(self):
        """Names of the CSV tables in the run folder (relative paths)."""
        return sorted(str(p.relative_to(self.folder)) for p in self.folder.rglob("*.csv"))

    def table(self, name):
        """A CSV of the run folder as a DataFrame (`name` with or without .csv). Empty cells are NaN."""
        path = self.folder / (name if name.endswith(".csv") else name + ".csv")
        if not path.is_file():
            raise FileNotFoundError(f"{path} not found; this run has: {', '.join(self.tables) or 'no tables'}")
        return pd.read_csv(path)

    @property
    def epochs(self):
        """train-gnn: one row per epoch (epochs.csv)."""
        return self.table("epochs.csv")

    @property
    def jobs(self):
        """simulate: one row per job (jobs.csv)."""
        return self.table("jobs.csv")

    @property
    def predictions(self):
        """schedmate: predicted vs. true durations (predictions.csv)."""
        return self.table("predictions.csv")
