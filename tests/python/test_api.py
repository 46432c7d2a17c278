"""import linkguard: the same verdicts as the CLI, on passing and failing files."""

import json
import os
import re

import pytest

import linkguard
from helpers import run


def cli_check(cli, *args):
    text = run(cli, "check", *args)
    doc = run(cli, "check", "--json", *args)
    return text, json.loads(doc.stdout) if doc.stdout else None


CASES = [
    # (files, contract kwargs, CLI options, expected exit)
    (["guarded.dylib"], dict(forbid=["openmp"]), ["--forbid=openmp"], 0),
    (["plain.dylib"], dict(forbid=["openmp"]), ["--forbid=openmp"], 1),
    (["guarded.dylib"], dict(portable=True), ["--portable"], 0),
    (["plain.dylib"], dict(portable=True), ["--portable"], 1),
    (["plain.dylib", "guarded.dylib"], dict(mps_aot=True), ["--mps-aot"], 1),
    (["guarded.dylib"], dict(require=["libsystem"], unused=True), ["--require=libsystem", "--unused"], 0),
    (["guarded.dylib", "missing.dylib"], dict(forbid=["openmp"]), ["--forbid=openmp"], 66),
    (["model/model.wrapper.cpp"], dict(forbid="openmp"), ["--forbid=openmp"], 65),
]


@pytest.mark.parametrize("files,kwargs,opts,code", CASES)
def test_check_verdict_equals_the_cli(mps, cli, files, kwargs, opts, code):
    paths = [str(mps / f) for f in files]
    text, doc = cli_check(cli, *opts, "--", *paths)
    assert text.returncode == code, text.stdout + text.stderr
    r = linkguard.check(*paths, **kwargs)
    assert r.exit_code == code
    assert r.holds is (code == 0) is text.stdout.rstrip().endswith(": holds")
    assert bool(r) is r.holds
    assert r.raw["summary"] == doc["summary"]
    # Every violation line the CLI prints is a finding, with its file.
    lines = [ln for ln in text.stdout.splitlines() if ": violation: " in ln]
    got = [f"{f.path}: violation: {f.message}; {f.advice}" for f in r.findings if f.kind == "violation"]
    assert sorted(got) == sorted(lines)
    assert len(r.errors) == len(doc["errors"])
    if code == 1:
        assert r.violations and all(f.file in paths for f in r.violations)
        assert any(f.dependency == "/opt/llvm-openmp/lib/libomp.dylib" for f in r.violations)


def test_check_on_a_wheel_names_members(wheel):
    r = linkguard.check(wheel, forbid=["openmp"])
    assert r.holds
    files = [f["path"] for f in r.raw["files"]]
    assert all(p.startswith(wheel + "!") for p in files) and len(files) == 6  # 5 drivers, the loader


def test_member_of_a_container(wheel, elf, tmp_path):
    import zipfile
    bad = tmp_path / "bad.whl"
    with zipfile.ZipFile(bad, "w") as z:
        z.write(elf / "libneedsm.so", "pkg/libneedsm.so")
    r = linkguard.check(bad, forbid=["libm.so*"])
    assert not r.holds and r.exit_code == 1
    (f,) = r.violations
    assert (f.file, f.member, f.dependency) == (str(bad), "pkg/libneedsm.so", "libm.so.6")


def test_usage_error_raises_with_linkguards_message(mps, cli):
    cli_err = run(cli, "check", "--", str(mps / "plain.dylib")).stderr.strip()
    with pytest.raises(linkguard.UsageError) as e:
        linkguard.check(mps / "plain.dylib")
    assert e.value.exit_code == 64
    assert str(e.value) == cli_err and cli_err.startswith("linkguard: error: check: no contract")
    with pytest.raises(linkguard.UsageError, match="linkguard: error:"):
        linkguard.check(mps / "plain.dylib", forbid=["[unclosed"])
    with pytest.raises(TypeError):
        linkguard.check(forbid=["openmp"])


def test_exit_constants_are_the_binarys(cli):
    """Each EXIT_* of the package is a row of the binary's own table
    (`linkguard help exit-codes`, made of driver/ExitCodes.def): EXIT_USAGE
    is `64  Usage`, so a renumbered or renamed code fails here."""
    c = run(cli, "help", "exit-codes")
    assert c.returncode == 0, c.stderr
    rows = re.findall(r"^ +(\d+)  (\w+) +\S", c.stdout, re.M)
    assert len(rows) >= 15, c.stdout
    table = {re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name).upper(): int(code) for code, name in rows}
    consts = {n[len("EXIT_"):]: v for n, v in vars(linkguard).items() if n.startswith("EXIT_")}
    assert consts, "the package has no EXIT_* constant"
    for name, value in consts.items():
        assert table.get(name) == value, f"linkguard.EXIT_{name} = {value}; help exit-codes: {table.get(name)}"


def test_inspect_equals_the_cli(mps, cli):
    r = linkguard.inspect(mps / "plain.dylib", mps / "guarded.dylib")
    assert r.exit_code == 0
    text = run(cli, "inspect", mps / "plain.dylib").stdout.splitlines()
    # otool layout: a title, the dylib's own id, then its dependencies.
    want = [ln.strip().split(" (compat")[0] for ln in text[2:]]
    assert r.dependencies(str(mps / "plain.dylib")) == want
    assert "/opt/llvm-openmp/lib/libomp.dylib" in want
    assert "/opt/llvm-openmp/lib/libomp.dylib" not in r.dependencies(str(mps / "guarded.dylib"))


def test_try_load_equals_the_cli(elf, cli):
    lib = str(elf / "libneedsm.so")
    for kwargs, opts, code in [(dict(forbid=["libomp*"]), ["--forbid=libomp*"], 0),
                               (dict(forbid=["libm.so*"]), ["--forbid=libm.so*"], 1),
                               (dict(require=["libz.so*"]), ["--require=libz.so*"], 1)]:
        c = run(cli, "try-load", "--json", *opts, "--", lib)
        assert c.returncode == code, c.stderr
        r = linkguard.try_load(lib, **kwargs)
        assert (r.exit_code, r.holds, r.outcome) == (code, code == 0, json.loads(c.stdout)["outcome"])
        assert len(r.findings) == len(json.loads(c.stdout)["findings"])
        assert any(i["path"].endswith("libneedsm.so") for i in r.images)
    r = linkguard.try_load(elf / "app")  # an executable does not load
    assert not r.holds and r.exit_code == 87 and r.problem


def test_binary_is_the_installed_one(venv):
    assert linkguard.binary() == os.path.join(venv, "bin", "linkguard")
    assert linkguard.__version__ != "0+unknown"


def test_typed(venv):
    import linkguard as lg
    assert os.path.isfile(os.path.join(os.path.dirname(lg.__file__), "py.typed"))
    assert lg.__file__.startswith(venv)


def test_try_load_under_a_directory_with_a_bang(tmp_path):
    """A '!' in a directory's name is part of the file's name: try_load's
    findings name the file given (and, for an archive's member, the archive
    and the member) as linkguard formed them, not split at the first '!'."""
    import subprocess
    import zipfile
    from conftest import LLVM_BIN
    d = tmp_path / "a!b"
    d.mkdir()
    (d / "m.c").write_text("#include <math.h>\ndouble f(double x) { return cos(x); }\n")
    lib = d / "libneedsm.so"
    subprocess.run([os.path.join(LLVM_BIN, "clang"), "-shared", "-fPIC", str(d / "m.c"),
                    "-o", str(lib), "-lm"], check=True)
    r = linkguard.try_load(lib, forbid=["libm.so*"])
    assert r.exit_code == 1 and r.findings, r.raw
    assert all((f.file, f.member, f.path) == (str(lib), None, str(lib)) for f in r.findings)
    pkg = d / "pkg.zip"
    with zipfile.ZipFile(pkg, "w") as z:
        z.write(lib, "x!y/libneedsm.so")
    for given in (pkg, f"{pkg}!x!y/libneedsm.so"):
        r = linkguard.try_load(given, forbid=["libm.so*"])
        assert r.exit_code == 1 and r.findings, r.raw
        assert all((f.file, f.member, f.path) == (str(pkg), "x!y/libneedsm.so",
                                                  f"{pkg}!x!y/libneedsm.so")
                   for f in r.findings), [(f.file, f.member, f.path) for f in r.findings]


# The options a keyword does not stand for: --json is always given, --help
# and --quiet shape the text only; so does check's --why (its JSON carries
# a finding's tried paths either way: Finding.tried).
CLI_ONLY = {"help", "json", "quiet"}
CLI_ONLY_OF = {"check": {"why"}}


@pytest.mark.parametrize("command,function", [("check", "check"), ("inspect", "inspect"),
                                              ("try-load", "try_load")])
def test_every_cli_option_has_a_keyword(cli, command, function):
    """The keywords are the options `COMMAND --help` lists (its table is
    commands/Opts.td): a new option without a keyword fails here. (Before:
    check had no executable=, unique=, max_inflated=.)"""
    import inspect as pyinspect
    h = run(cli, command, "--help")
    assert h.returncode == 0, h.stderr
    options = (set(re.findall(r"^  --([a-z][a-z-]*)", h.stdout, re.M)) - CLI_ONLY
               - CLI_ONLY_OF.get(command, set()))
    assert len(options) >= 5, h.stdout
    params = pyinspect.signature(getattr(linkguard, function)).parameters.values()
    keywords = {p.name.replace("_", "-") for p in params
                if p.default is not pyinspect.Parameter.empty and p.kind is not p.VAR_POSITIONAL}
    assert keywords == options, (f"missing: {sorted(options - keywords)}; "
                                 f"not an option: {sorted(keywords - options)}")


def test_check_keywords_act_as_the_options(elf, wheel, cli, tmp_path):
    """executable=, unique=, max_inflated= give the binary what --executable,
    --unique, --max-inflated give it: the same document and exit code."""
    import shutil
    tree = tmp_path / "tree"
    tree.mkdir()
    for f in ("libneedsm.so", "app"):
        shutil.copy(elf / f, tree / f)
    cases = [
        ([tree / "libneedsm.so"], dict(portable=True, executable=tree / "app"),
         ["--portable", f"--executable={tree / 'app'}"]),
        ([tree], dict(forbid=["libnothing*"], unique=["openmp"]), ["--forbid=libnothing*", "--unique=openmp"]),
        ([wheel], dict(forbid=["openmp"], max_inflated=1024), ["--forbid=openmp", "--max-inflated=1024"]),
        ([wheel], dict(forbid=["openmp"], max_inflated="1G"), ["--forbid=openmp", "--max-inflated=1G"]),
    ]
    for paths, kwargs, opts in cases:
        c = run(cli, "check", "--json", *opts, "--", *paths)
        r = linkguard.check(*paths, **kwargs)
        assert r.exit_code == c.returncode, (kwargs, c.stderr, r.stderr)
        assert r.raw == json.loads(c.stdout), kwargs
    assert linkguard.check(wheel, forbid=["openmp"], max_inflated=1024).exit_code == 65
    with pytest.raises(linkguard.UsageError, match="linkguard: error:") as e:
        linkguard.check(tree, unique=["no-such-family"])
    assert e.value.exit_code == 64
    with pytest.raises(TypeError):
        linkguard.check(tree, forbid=["x"], max_inflated=1.5)  # type: ignore[arg-type]


def test_import_linkguard_then_inductor_without_torch(venv, tmp_path):
    """`import linkguard` then `linkguard.inductor` (a lazy attribute) works,
    and importing either imports no torch. (Before: AttributeError.)"""
    code = ("import sys, linkguard\n"
            "assert 'linkguard.inductor' not in sys.modules and 'torch' not in sys.modules\n"
            "m = linkguard.inductor\n"
            "assert callable(m.use) and callable(m.restore) and linkguard.testing.assert_holds\n"
            "assert 'torch' not in sys.modules, sorted(k for k in sys.modules if k.startswith('torch'))\n"
            "print('ok')\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = run(os.path.join(venv, "bin", "python"), "-c", code, env=env, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_a_portable_finding_carries_the_paths_tried(tmp_path):
    """Finding.tried: every path ld.so tried for an unresolved name, in its
    order, with its reason (check's JSON "tried"; docs/inspect.md); and
    inspect(tree=True, why=True) gives each dependency's."""
    import subprocess
    from conftest import LLVM_BIN
    cc = os.path.join(LLVM_BIN, "clang")
    t = tmp_path / "t"
    (t / "bin").mkdir(parents=True)
    (t / "lib").mkdir()
    (tmp_path / "x.c").write_text("int x(void) { return 0; }\n")
    (tmp_path / "app.c").write_text("int x(void);\nint main(void) { return x(); }\n")
    subprocess.run([cc, "-shared", "-fPIC", str(tmp_path / "x.c"), "-o", str(tmp_path / "libx.so")],
                   check=True)
    subprocess.run([cc, str(tmp_path / "app.c"), "-L" + str(tmp_path), "-l:libx.so",
                    "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/../lib", "-o", str(t / "bin" / "app")],
                   check=True)
    r = linkguard.check(t, portable=True)
    f = [f for f in r.findings if f.dependency == "libx.so"][0]
    assert f.tried and f.tried_not_listed == 0, f
    assert f.tried[-1] == linkguard.Tried(path=f"{t}/bin/../lib/libx.so",
                                          via="DT_RUNPATH $ORIGIN/../lib", reason="missing"), f.tried
    i = linkguard.inspect(t, tree=True, why=True)
    dep = [d for d in i.raw["files"][0]["dependencies"] if d["dependency"] == "libx.so"][0]
    assert [x["path"] for x in dep["tried"]] == [x.path for x in f.tried], dep
