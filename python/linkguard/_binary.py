"""Finding and running the ``linkguard`` executable this package was installed with."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from typing import Dict, List, Optional, Sequence

__all__ = ["binary", "run"]


def _candidates() -> List[str]:
    found: List[str] = []
    # The scripts directory of the installation this package lives in:
    # a venv's bin/, the interpreter's prefix, or the user scheme (--user).
    # The wheel puts the binary there (its .data/scripts), beside nothing else.
    dirs: List[Optional[str]] = [sysconfig.get_path("scripts")]
    preferred = getattr(sysconfig, "get_preferred_scheme", None)  # Python >= 3.10
    user = str(preferred("user")) if preferred else ("posix_user" if os.name == "posix" else "nt_user")
    try:
        dirs.append(sysconfig.get_path("scripts", user))
    except KeyError:  # pragma: no cover
        pass
    for d in dirs:
        if d:
            found.append(os.path.join(d, "linkguard"))
    on_path = shutil.which("linkguard")
    if on_path:
        found.append(on_path)
    return found


def binary() -> str:
    """The absolute path of the ``linkguard`` executable.

    ``LINKGUARD_BINARY`` overrides the search (a build tree's
    ``build/driver/linkguard``); otherwise the scripts directory of the
    environment this package is installed in, then ``PATH``.
    """
    override = os.environ.get("LINKGUARD_BINARY")
    if override:
        if not (os.path.isfile(override) and os.access(override, os.X_OK)):
            raise FileNotFoundError(f"LINKGUARD_BINARY={override} is not an executable file")
        return os.path.abspath(override)
    for c in _candidates():
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    raise FileNotFoundError(
        "the linkguard executable was not found beside this Python package "
        f"({sysconfig.get_path('scripts')}) nor on PATH; reinstall the wheel or set LINKGUARD_BINARY"
    )


def run(args: Sequence[str], env: Optional[Dict[str, str]] = None) -> "subprocess.CompletedProcess[bytes]":
    """Runs ``linkguard ARGS`` and captures stdout and stderr (bytes)."""
    return subprocess.run([binary(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env, check=False)


def exec_binary(argv: Sequence[str]) -> "int":
    """Replaces this process with ``linkguard ARGV`` (``python -m linkguard``)."""
    exe = binary()
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(exe, ["linkguard", *argv])
    return subprocess.call([exe, *argv])  # pragma: no cover (not POSIX)
