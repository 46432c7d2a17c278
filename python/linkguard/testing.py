"""Test helpers: fail a test with linkguard's findings as the message.

    from linkguard.testing import assert_holds

    def test_model_is_portable(tmp_path):
        pkg = export_model(tmp_path)                   # a .pt2, a .dylib, a wheel
        assert_holds(pkg, forbid=["openmp"], portable=True)

``assert_holds`` raises ``AssertionError`` (pytest shows it as a test
failure, unittest too) listing every violation and every file linkguard
could not read; it returns the :class:`linkguard.CheckResult` when the
contract holds. A usage error (a bad pattern, no contract) raises
:class:`linkguard.UsageError`: the test itself is wrong.
"""

from __future__ import annotations

from typing import Any

from . import CheckResult, check

__all__ = ["assert_holds", "format_failure"]


def format_failure(result: CheckResult) -> str:
    """The message ``assert_holds`` fails with: one line per violation and error."""
    lines = []
    for f in result.findings:
        if f.kind != "violation":
            continue
        where = f.path + (f" ({f.slice})" if f.slice else "")
        lines.append(f"{where}: {f.message}" + (f"; {f.advice}" if f.advice else ""))
    for e in result.errors:
        lines.append(f"{e.path}: {e.kind}: {e.message}")
    s = result.raw.get("summary") or {}
    head = (f"linkguard check: the contract does not hold (exit {result.exit_code}; "
            f"{s.get('files', 0)} files, {s.get('violations', 0)} violations, "
            f"{s.get('errors', 0)} errors)")
    return "\n".join([head, *("  " + line for line in lines)])


def assert_holds(*paths: Any, **contract: Any) -> CheckResult:
    """Runs :func:`linkguard.check` and raises ``AssertionError`` unless it holds.

    Keyword arguments are :func:`linkguard.check`'s (``forbid``,
    ``require``, ``portable``, ...).
    """
    __tracebackhide__ = True  # pytest: show the caller's line, not this one
    result = check(*paths, **contract)
    if not result.holds:
        raise AssertionError(format_failure(result))
    return result
