"""Tests of the mlsys Python package against the real binary (MLSYS_BINARY or build/bin/mlsys).

    python3 -m unittest discover -s python/tests
"""
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import pandas as pd

import mlsys


class RunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_simulate_summary_and_jobs_are_dataframes(self):
        r = mlsys.run("simulate", seed=3, out=self.dir / "sim")
        self.assertEqual(r.returncode, 0)
        self.assertIsInstance(r.summary, pd.DataFrame)
        self.assertEqual(len(r.summary), 1)
        self.assertEqual(int(r.summary["simulation.jobs"][0]), 1000)
        self.assertEqual(len(r.jobs), 1000)
        self.assertIn("jobs.csv", r.tables)
        self.assertEqual(int(r.summary["run.seed"][0]), 3)
        self.assertFalse(r.partial)
        self.assertIn("run:", r.config)

    def test_default_folder_is_found_from_the_printed_results_line(self):
        r = mlsys.run("simulate", cwd=self.dir)
        self.assertTrue((r.folder / "summary.json").is_file())
        self.assertTrue(str(r.folder).startswith(str(self.dir / "results" / "simulate")))

    def test_sets_reach_the_config_and_load_reads_a_folder_back(self):
        r = mlsys.run("simulate", sets={"sim.policy": "sjf", "tracegen.jobs": 200}, out=self.dir / "sjf")
        again = mlsys.load(r.folder)
        self.assertEqual(again.summary_dict["simulation"]["policy"], "sjf")
        self.assertEqual(len(again.jobs), 200)

    def test_train_gnn_epochs_and_schedmate_predictions(self):
        g = mlsys.run("train-gnn", sets={"gnn.epochs": 5}, out=self.dir / "gnn")
        self.assertEqual(len(g.epochs), 5)
        s = mlsys.run("schedmate", out=self.dir / "sm")
        self.assertGreater(len(s.predictions), 0)

    def test_errors_raise_with_the_binary_message_and_exit_code(self):
        with self.assertRaises(mlsys.MlsysError) as cm:
            mlsys.run("simulate", sets={"sim.polcy": "x"}, out=self.dir / "bad")
        self.assertEqual(cm.exception.returncode, 2)
        self.assertIn("did you mean 'sim.policy'", str(cm.exception))
        with self.assertRaises(FileNotFoundError):
            mlsys.load(self.dir / "nowhere")

    def test_the_one_line_example_from_the_docs(self):
        code = "import mlsys; print(mlsys.run('simulate').summary)"
        p = subprocess.run([sys.executable, "-c", code], cwd=self.dir, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        # pandas shows the first and last columns of the one-row summary frame
        self.assertIn("tracegen.jobs", p.stdout)
        self.assertIn("[1 rows x", p.stdout)


if __name__ == "__main__":
    unittest.main()
