"""Fixtures for the wheel's tests (tests/python/run.bash runs them with the
venv's python, the installed wheel's linkguard first on PATH)."""

import os
import subprocess

import pytest

pytest_plugins = ["pytester"]

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
LLVM_BIN = os.environ.get("LINKGUARD_LLVM_BINDIR", "/usr/lib/llvm-19/bin")


@pytest.fixture(scope="session")
def venv():
    v = os.environ.get("LG_TEST_VENV")
    if not v:
        pytest.fail("LG_TEST_VENV is not set: run tests/python/run.bash")
    return v


@pytest.fixture(scope="session")
def wheel():
    w = os.environ.get("LG_TEST_WHEEL")
    if not w or not os.path.isfile(w):
        pytest.fail("LG_TEST_WHEEL is not set to a wheel: run tests/python/run.bash")
    return w


@pytest.fixture(scope="session")
def cli(venv):
    """linkguard as the venv installed it (not the build tree's)."""
    return os.path.join(venv, "bin", "linkguard")


@pytest.fixture(scope="session")
def mps(tmp_path_factory):
    """plain.dylib (libomp kept) and guarded.dylib (through linkguard-clang++)."""
    d = tmp_path_factory.mktemp("mps")
    subprocess.run(["bash", os.path.join(HERE, "mps_model.bash"), str(d)], check=True)
    return d


@pytest.fixture(scope="session")
def elf(tmp_path_factory):
    """Native ELF files: libneedsm.so calls cos() from libm; app links it."""
    d = tmp_path_factory.mktemp("elf")
    (d / "m.c").write_text("#include <math.h>\ndouble f(double x) { return cos(x); }\n")
    (d / "app.c").write_text("double f(double);\nint main(void) { return (int)f(0.0) - 1; }\n")
    cc = os.path.join(LLVM_BIN, "clang")
    subprocess.run([cc, "-shared", "-fPIC", str(d / "m.c"), "-o", str(d / "libneedsm.so"), "-lm"],
                   check=True)
    subprocess.run([cc, str(d / "app.c"), "-L" + str(d), "-lneedsm", "-o", str(d / "app")], check=True)
    return d

