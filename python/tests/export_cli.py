"""`python -m ptera.export` run as a user would, from python/tests (so the
module spec "models:NAME" names python/tests/models.py)."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run_export_cli(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(HERE), HERE]))
    return subprocess.run([sys.executable, "-m", "ptera.export"] + [str(a) for a in args],
                          capture_output=True, text=True, env=env, cwd=HERE)
