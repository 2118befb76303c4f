"""Run mlsys from Python and read its results as pandas DataFrames.

    import mlsys
    r = mlsys.run("simulate", sets={"sim.policy": "sjf"}, seed=3)
    print(r.summary)          # one row: every summary.json value, keys flattened with "."
    print(r.jobs.head())      # jobs.csv

A run folder written by the command line loads the same way: mlsys.load("results/simulate/...").
"""
from ._run import MlsysError, Run, find_binary, load, load_sweep, run, sweep

__all__ = ["MlsysError", "Run", "find_binary", "load", "load_sweep", "run", "sweep"]
__version__ = "0.1.0"
