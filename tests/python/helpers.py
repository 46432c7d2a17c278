"""Shared by the wheel's tests."""

import subprocess


def run(*args, **kw):
    """Runs ARGS; stdout and stderr as text; never raises on a status."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("text", True)
    return subprocess.run([str(a) for a in args], check=False, **kw)
