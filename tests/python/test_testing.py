"""linkguard.testing.assert_holds fails a test with linkguard's findings."""

import pytest

import linkguard
from linkguard.testing import assert_holds
from helpers import run


def test_passes_and_returns_the_result(mps):
    r = assert_holds(mps / "guarded.dylib", forbid=["openmp"], portable=True)
    assert isinstance(r, linkguard.CheckResult) and r.holds


def test_fails_with_the_findings(mps, cli):
    with pytest.raises(AssertionError) as e:
        assert_holds(mps / "plain.dylib", forbid=["openmp"])
    text = run(cli, "check", "--forbid=openmp", mps / "plain.dylib").stdout
    violation = next(ln for ln in text.splitlines() if ": violation: " in ln)
    msg = str(e.value)
    assert msg.startswith("linkguard check: the contract does not hold (exit 1;")
    assert violation.split(": violation: ", 1)[1] in msg


def test_unreadable_fails_not_passes(tmp_path):
    with pytest.raises(AssertionError, match="unreadable"):
        assert_holds(tmp_path / "missing.dylib", forbid=["openmp"])


def test_in_a_pytest_run(mps, pytester):
    """As a user's test file sees it: the failure report carries the finding."""
    pytester.makepyfile(f'''
from linkguard.testing import assert_holds
def test_model():
    assert_holds(r"{mps / 'plain.dylib'}", forbid=["openmp"])
''')
    res = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    res.assert_outcomes(failed=1)
    res.stdout.fnmatch_lines(["*libomp.dylib*forbidden*"])
