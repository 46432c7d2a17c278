"""The wheel as pip installs it: layout, tag, drivers on PATH, the MPS rule."""

import os
import re
import shutil
import zipfile

from conftest import LLVM_BIN
from helpers import run


# The executable and its drop-in names, one pair per compiler family.
DRIVERS = ("linkguard", "linkguard-clang++", "linkguard-clang", "linkguard-g++", "linkguard-gcc")


def members(wheel):
    with zipfile.ZipFile(wheel) as z:
        return {i.filename: i for i in z.infolist()}


def test_layout_is_cmake_install_s(wheel):
    m = members(wheel)
    ver = os.path.basename(wheel).split("-")[1]
    data = f"linkguard-{ver}.data/"
    for name in DRIVERS:
        info = m[data + "scripts/" + name]
        assert (info.external_attr >> 16) & 0o111, f"{name} is not executable in the wheel"
    for rel in ("libexec/linkguard/linkguard-loader", "share/man/man1/linkguard.1",
                "share/linkguard/cmake/linkguard-toolchain.cmake"):
        assert data + "data/" + rel in m, rel
    assert any(n.endswith("linkguard/py.typed") for n in m)
    # No Python shim: every driver is the static executable itself.
    with zipfile.ZipFile(wheel) as z:
        blobs = {z.read(data + "scripts/" + n) for n in DRIVERS}
    assert len(blobs) == 1
    assert next(iter(blobs))[:4] == b"\x7fELF"


def test_schemas_installed_where_help_says(venv):
    """Every JSON Schema (baseline/ too) in the environment's prefix, where
    `check --help` says (share/doc/linkguard/schema), byte for byte (issue 35 item 5)."""
    h = run(os.path.join(venv, "bin", "linkguard"), "check", "--help")
    assert "share/doc/linkguard/schema" in h.stdout, h.stdout
    src = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "schema")
    want = sorted(os.path.relpath(os.path.join(d, f), src) for d, _, fs in os.walk(src)
                  for f in fs if f.endswith(".json"))
    assert "check.json" in want and "baseline/v1/check.json" in want
    for rel in want:
        with open(os.path.join(src, rel), "rb") as a, \
                open(os.path.join(venv, "share", "doc", "linkguard", "schema", rel), "rb") as b:
            assert a.read() == b.read(), rel


def test_tag_is_the_loader_s_highest_glibc(wheel, tmp_path):
    """manylinux_X_Y from linkguard-loader's version needs, read here from the
    raw bytes (the GLIBC_ names in .dynstr), not the way scripts/wheel reads them."""
    ver = os.path.basename(wheel).split("-")[1]
    with zipfile.ZipFile(wheel) as z:
        loader = z.read(f"linkguard-{ver}.data/data/libexec/linkguard/linkguard-loader")
        tags = [line.split(": ", 1)[1] for line in z.read(f"linkguard-{ver}.dist-info/WHEEL").decode().splitlines()
                if line.startswith("Tag: ")]
        lg = z.read(f"linkguard-{ver}.data/scripts/linkguard")
    versions = {tuple(int(x) for x in v.split(b".")) for v in re.findall(rb"GLIBC_([0-9]+\.[0-9]+(?:\.[0-9]+)?)\x00", loader)}
    assert versions, "the loader needs no GLIBC_ version?"
    high = max(versions)
    arch = os.uname().machine
    assert tags == [f"py3-none-manylinux_{high[0]}_{high[1]}_{arch}"]
    assert os.path.basename(wheel).endswith(f"-py3-none-manylinux_{high[0]}_{high[1]}_{arch}.whl")
    # The other binary is static (no PT_INTERP): the loader alone sets the tag.
    (tmp_path / "lg").write_bytes(lg)
    ph = run(os.path.join(LLVM_BIN, "llvm-readelf"), "--program-headers", tmp_path / "lg")
    assert ph.returncode == 0 and "INTERP" not in ph.stdout


def test_drivers_on_path_after_activate(venv):
    out = run("bash", "-c", f'. "{venv}/bin/activate" && command -v {" ".join(DRIVERS)}')
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [os.path.join(venv, "bin", n) for n in DRIVERS]
    v = run(os.path.join(venv, "bin", "linkguard"), "--version")
    assert v.returncode == 0 and v.stdout.startswith("linkguard ")


def test_loader_found_beside_installed_binary(cli, venv, elf):
    """try-load finds libexec/linkguard/linkguard-loader where pip put it."""
    r = run(cli, "try-load", "--json", "--forbid=libnothing*", elf / "libneedsm.so")
    assert r.returncode == 0, r.stderr
    assert f'"loader": "{venv}/libexec/linkguard/linkguard-loader"' in r.stdout


def test_linkguard_clang_xx_applies_the_mps_rule(mps, cli):
    otool = os.path.join(LLVM_BIN, "llvm-otool")
    plain = run(otool, "-L", mps / "plain.dylib").stdout
    guarded = run(otool, "-L", mps / "guarded.dylib").stdout
    assert "/opt/llvm-openmp/lib/libomp.dylib" in plain       # the control keeps it
    assert "libomp" not in guarded
    assert "/usr/lib/libSystem.B.dylib" in guarded
    assert run(cli, "check", "--mps-aot", mps / "guarded.dylib").returncode == 0
    assert run(cli, "check", "--mps-aot", mps / "plain.dylib").returncode == 1


def test_python_m_linkguard_is_the_binary(venv, mps):
    py = os.path.join(venv, "bin", "python")
    a = run(py, "-m", "linkguard", "inspect", mps / "plain.dylib")
    b = run(os.path.join(venv, "bin", "linkguard"), "inspect", mps / "plain.dylib")
    assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)
    u = run(py, "-m", "linkguard", "check", "--no-such-option", mps / "plain.dylib")
    assert u.returncode == 64 and u.stderr.startswith("linkguard: error:")


def test_the_wheel_itself_is_portable(cli, wheel, elf, tmp_path):
    """Dogfood, the wheel as a zip (what pip downloads); the unpacked
    directory is tests/python/dogfood.bash. Control: the same wheel with a
    library whose dependency it does not ship is not portable."""
    r = run(cli, "check", "--portable", wheel)
    assert r.returncode == 0, r.stdout + r.stderr
    assert [ln.startswith(wheel + "!") and ln.endswith(": holds") for ln in r.stdout.splitlines()] == [True] * (len(DRIVERS) + 1) + [False]
    bad = tmp_path / os.path.basename(wheel)
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(bad, "w") as dst:
        for i in src.infolist():
            dst.writestr(i, src.read(i))
        dst.write(elf / "app", "linkguard/app")
    r = run(cli, "check", "--portable", bad)
    assert r.returncode == 1 and "libneedsm.so" in r.stdout


# The tests' own toolset (scripts/lib/common.sh, LINKGUARD_PACKAGES): none of
# it is needed to build a wheel.
TEST_ONLY = {"distcc", "distcc-pump", "icecc", "sccache", "fish", "zsh", "mypy", "strace", "time",
             "catch2", "clang-14", "libomp-dev", "clang-tidy-19", "python3-pytest", "python3-jsonschema",
             "yamllint", "python3-yaml", "make", "python3-venv"}


def test_scripts_wheel_installs_only_the_list_it_prints(tmp_path):
    """scripts/wheel on a machine where dpkg says nothing is installed: what
    it hands apt-get is exactly the one list it printed, and none of the
    tests' toolset. (Before: it installed scripts/test's whole list.)"""
    src, build = os.environ["LINKGUARD_SOURCE_DIR"], os.environ["LINKGUARD_BUILD_DIR"]
    if not os.path.exists("/etc/debian_version"):
        import pytest
        pytest.skip("scripts/wheel installs with apt-get on Debian only")
    fake = tmp_path / "bin"
    fake.mkdir()
    log = tmp_path / "apt.log"
    (fake / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")  # nothing is installed
    (fake / "apt-get").write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >>"{log}"\n')
    for f in fake.iterdir():
        f.chmod(0o755)
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}")
    r = run(os.path.join(src, "scripts", "wheel"), "--from-build", build, "--out", tmp_path / "dist", env=env)
    printed = [ln for ln in r.stderr.splitlines() if "scripts/wheel needs (Debian packages): " in ln]
    assert len(printed) == 1, r.stderr
    wanted = printed[0].split(": ", 1)[1].split()
    if os.getuid() == 0:
        assert r.returncode == 0, r.stderr
        installs = [ln.split() for ln in log.read_text().splitlines() if " install " in f" {ln} "]
        assert len(installs) == 1
        words = installs[0][installs[0].index("install") + 1:]
        asked = [w for w in words if not w.startswith("-")]
    else:  # not root: it names what is missing and stops
        missing = [ln for ln in r.stderr.splitlines() if "missing Debian packages: " in ln]
        asked = missing[0].split("missing Debian packages: ", 1)[1].split(" (", 1)[0].split()
    assert asked == wanted
    assert not TEST_ONLY & set(asked), sorted(TEST_ONLY & set(asked))
    assert {"clang-19", "llvm-19-dev", "python3-build", "python3-setuptools", "python3-wheel"} <= set(asked)


def test_metadata_points_at_docs_the_wheel_installs(wheel, venv):
    """The description pip shows (METADATA, from python/README.md) names the
    documentation by the path the wheel installs it to; each one is in the
    wheel and, once installed, in the venv. (Before: "docs/python.md in the
    linkguard source tree", which a pip user does not have.)"""
    ver = os.path.basename(wheel).split("-")[1]
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(f"linkguard-{ver}.dist-info/METADATA").decode()
        names = set(z.namelist())
    assert "source tree" not in meta
    pointed = set(re.findall(r"share/(?:doc|man)/[\w./-]+\.(?:md|1)", meta))
    assert "share/doc/linkguard/python.md" in pointed, meta
    for rel in sorted(pointed):
        assert f"linkguard-{ver}.data/data/{rel}" in names, f"{rel}: named in METADATA, not in the wheel"
        assert os.path.isfile(os.path.join(venv, rel)), f"{rel}: not installed in the venv"


def test_check_portable_judges_the_wheel_s_own_tag(cli, wheel, tmp_path):
    """The wheel's manylinux tag against auditwheel's policy (issue 36 item
    1): it holds; the same wheel tagged manylinux_2_5 (manylinux1, glibc 2.5)
    does not, for the loader's GLIBC_ versions."""
    r = run(cli, "check", "--portable", wheel)
    assert r.returncode == 0, r.stdout + r.stderr
    old = tmp_path / re.sub(r"manylinux_[0-9]+_[0-9]+_", "manylinux_2_5_", os.path.basename(wheel))
    shutil.copy(wheel, old)
    r = run(cli, "check", "--portable", old)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "libexec/linkguard/linkguard-loader: violation: needs GLIBC_" in r.stdout
    assert "which manylinux_2_5 does not allow" in r.stdout
