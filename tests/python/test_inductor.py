"""linkguard.inductor.use() against a stand-in for torch._inductor.

The stand-in has upstream's config.cpp.cxx default and cpp_builder's
get_cpp_compiler, cpp_compiler_search, _is_gcc, _is_clang (as in PyTorch
2.6-2.9's torch/_inductor/config.py and cpp_builder.py), so these tests run
where PyTorch is not installed; the real inductor, exporting and loading a
model, is scripts/aoti-chroot (Debian 13's python3-torch)."""

import os
import subprocess
import textwrap

import pytest

from conftest import LLVM_BIN

FAKE = {
    "torch/__init__.py": "",
    "torch/_inductor/__init__.py": "",
    "torch/_inductor/config.py": textwrap.dedent("""\
        import os, sys
        class cpp:
            cxx = (None, os.environ.get("CXX", "clang++" if sys.platform == "darwin" else "g++"))
        """),
    "torch/_inductor/cpp_builder.py": textwrap.dedent("""\
        import functools, os, re, subprocess, sys
        from torch._inductor import config

        @functools.lru_cache(1)
        def cpp_compiler_search(search):
            for cxx in search:
                try:
                    if cxx is None:
                        continue
                    subprocess.check_output([cxx, "--version"])
                    return cxx
                except (subprocess.SubprocessError, FileNotFoundError, ImportError):
                    continue
            raise RuntimeError("InvalidCxxCompiler")

        def get_cpp_compiler():
            search = tuple(config.cpp.cxx) if isinstance(config.cpp.cxx, (list, tuple)) else (config.cpp.cxx,)
            return cpp_compiler_search(search)

        @functools.cache
        def _is_apple_clang(cpp_compiler):
            v = subprocess.check_output([cpp_compiler, "--version"]).decode("utf8")
            return "Apple" in v.splitlines()[0]

        @functools.cache
        def _is_clang(cpp_compiler):
            if sys.platform == "darwin":
                return _is_apple_clang(cpp_compiler)
            return bool(re.search(r"(clang|clang\\+\\+)", cpp_compiler))

        @functools.cache
        def _is_gcc(cpp_compiler):
            if _is_clang(cpp_compiler):
                return False
            return bool(re.search(r"(gcc|g\\+\\+|gnu-c\\+\\+)", cpp_compiler))
        """),
}

SCRIPT = textwrap.dedent("""\
    import json, os, subprocess, sys
    import linkguard.inductor
    from torch._inductor import config, cpp_builder
    before = config.cpp.cxx
    out = {"before": list(before)}
    with linkguard.inductor.use(log_file=sys.argv[1]) as sw:
        cxx = cpp_builder.get_cpp_compiler()
        out.update(cxx=cxx, env=os.environ["LINKGUARD_CXX"],
                   gcc=cpp_builder._is_gcc(cxx), clang=cpp_builder._is_clang(cxx),
                   version=subprocess.check_output([cxx, "--version"], text=True).splitlines()[0])
        src = os.path.join(sys.argv[2], "k.cpp")
        open(src, "w").write("extern \\"C\\" int kernel(int x) { return x + 1; }\\n")
        obj, so = src[:-4] + ".o", src[:-4] + ".so"
        subprocess.check_call([cxx, "-O2", "-fPIC", "-c", src, "-o", obj])
        subprocess.check_call([cxx, "-shared", obj, "-o", so])
        out["so"] = so
        with linkguard.inductor.use() as again:  # twice: the same drop-in, nothing undone
            out["again"] = [cpp_builder.get_cpp_compiler(), again.real_compiler]
        out["after_again"] = [cpp_builder.get_cpp_compiler(), os.environ["LINKGUARD_CXX"]]
    out["after"] = list(config.cpp.cxx) if isinstance(config.cpp.cxx, tuple) else config.cpp.cxx
    out["env_after"] = os.environ.get("LINKGUARD_CXX")
    print(json.dumps(out))
    """)


@pytest.fixture
def fake_torch(tmp_path):
    root = tmp_path / "fake"
    for rel, text in FAKE.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def run_use(fake_torch, tmp_path, cxx, venv, cache=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINKGUARD_")}
    env.update(PYTHONPATH=str(fake_torch), CXX=cxx, XDG_CACHE_HOME=str(cache or tmp_path / "cache"))
    log = tmp_path / "lg.log"
    r = subprocess.run([os.path.join(venv, "bin", "python"), "-c", SCRIPT, str(log), str(tmp_path)],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    import json
    return json.loads(r.stdout), log.read_text()


def real(name):
    import shutil
    return os.path.realpath(shutil.which(name)) if shutil.which(name) else None


@pytest.mark.parametrize("cxx", ["g++", os.path.join(LLVM_BIN, "clang++"), "c++"])
def test_use_keeps_the_compiler_and_its_family(fake_torch, tmp_path, venv, cxx):
    import shutil
    if not shutil.which(cxx):
        pytest.skip(f"{cxx} is not installed")
    out, log = run_use(fake_torch, tmp_path, cxx, venv)
    name = os.path.basename(cxx)
    # inductor now runs a drop-in that carries the compiler's own name ...
    assert os.path.basename(out["cxx"]) == name and out["cxx"] != cxx
    assert os.path.realpath(out["cxx"]) == os.path.join(venv, "bin", "linkguard")
    # ... with the compiler it would have used as LINKGUARD_CXX,
    assert out["env"] == shutil.which(cxx)
    # and decides the same from the name and from --version.
    want_clang = "clang" in name
    want_gcc = not want_clang and ("g++" in name or "gcc" in name)
    assert (out["clang"], out["gcc"]) == (want_clang, want_gcc)
    direct = subprocess.check_output([cxx, "--version"], text=True).splitlines()[0]
    assert out["version"] == direct
    # Every step went through linkguard, to that compiler, unchanged.
    steps = [ln for ln in log.splitlines() if "real compiler:" in ln]
    phases = [ln.split(" debug: phase ", 1)[1].split(" ", 1)[0] for ln in log.splitlines() if " debug: phase " in ln]
    assert sorted(set(phases)) == ["compile", "link", "probe"] and phases.count("link") == 1
    assert len(steps) == len(phases)
    assert all(f"real compiler: {shutil.which(cxx)} (from LINKGUARD_CXX)" in ln and "form masquerade" in ln
               for ln in steps)
    assert os.path.isfile(out["so"])
    assert out["again"] == out["after_again"] == [out["cxx"], out["env"]]
    # restored at the end of the with-block
    assert out["after"] == out["before"] and out["env_after"] is None


def test_dropin_directory_never_names_a_family(fake_torch, tmp_path, venv):
    cache = tmp_path / "clang-cache"  # would make g++'s drop-in look like clang
    out, _ = run_use(fake_torch, tmp_path, "g++", venv, cache=cache)
    assert not out["cxx"].startswith(str(cache))
    assert out["gcc"] is True and out["clang"] is False


def test_refuses_linkguard_as_the_compiler(fake_torch, tmp_path, venv):
    env = dict(os.environ, PYTHONPATH=str(fake_torch), CXX=os.path.join(venv, "bin", "linkguard-clang++"),
               XDG_CACHE_HOME=str(tmp_path))
    r = subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                        "import linkguard.inductor; linkguard.inductor.use()"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode != 0 and "is linkguard already" in r.stderr


def test_refuses_a_dropin_directory_others_can_write(fake_torch, tmp_path, venv):
    """inductor runs what the drop-in directory holds: one that others can
    write (a /tmp fallback made by someone else) is refused."""
    cache = tmp_path / "cache"
    out, _ = run_use(fake_torch, tmp_path, "g++", venv, cache=cache)
    d = os.path.dirname(out["cxx"])
    os.chmod(d, 0o777)
    env = dict(os.environ, PYTHONPATH=str(fake_torch), CXX="g++", XDG_CACHE_HOME=str(cache))
    r = subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                        "import linkguard.inductor; linkguard.inductor.use()"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode != 0 and "only this user can write" in r.stderr


def test_import_linkguard_then_use_and_module_restore(fake_torch, tmp_path, venv):
    """docs/python.md's spelling: `import linkguard`, `linkguard.inductor.use()`,
    `linkguard.inductor.restore()`; torch is imported by use(), not by the
    import. restore() undoes every use() still in force, newest first.
    (Before: no linkguard.inductor attribute, no module-level restore().)"""
    code = textwrap.dedent("""\
        import json, os, sys
        import linkguard
        out = {"torch_at_import": "torch" in sys.modules}
        from torch._inductor import config
        before, env_before = config.cpp.cxx, os.environ.get("LINKGUARD_CXX")
        linkguard.inductor.use()
        linkguard.inductor.use()  # again while in force
        out["during"] = [list(config.cpp.cxx), os.environ.get("LINKGUARD_CXX")]
        linkguard.inductor.restore()
        out["restored"] = config.cpp.cxx == before and os.environ.get("LINKGUARD_CXX") == env_before
        linkguard.inductor.restore()  # nothing in force: nothing to do
        out["still"] = config.cpp.cxx == before
        print(json.dumps(out))
        """)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINKGUARD_")}
    env.update(PYTHONPATH=str(fake_torch), CXX="g++", XDG_CACHE_HOME=str(tmp_path / "cache"))
    r = subprocess.run([os.path.join(venv, "bin", "python"), "-c", code], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    import json
    out = json.loads(r.stdout)
    assert out["torch_at_import"] is False
    assert os.path.basename(out["during"][0][0]) == "g++" and out["during"][1].endswith("/g++")
    assert out["restored"] is True and out["still"] is True


# What inductor does with the compiler it names (cpp_builder, Linux): the
# flags of the family its name says, then one compile and link.
INDUCTOR_STEP = textwrap.dedent("""\
    import json, os, subprocess, sys
    from torch._inductor import cpp_builder
    cxx = cpp_builder.get_cpp_compiler()
    flags = ["-O3", "-fPIC", "-shared", "-Wall"]
    if cpp_builder._is_gcc(cxx):
        flags += ["-fno-tree-loop-vectorize", "-fexcess-precision=fast", "-pedantic"]
    if cpp_builder._is_clang(cxx):
        flags += ["-Werror=ignored-optimization-argument"]
    src, out = sys.argv[1], sys.argv[2]
    r = subprocess.run([cxx, src, *flags, "-o", out], stderr=subprocess.PIPE, text=True)
    print(json.dumps({"cxx": cxx, "gcc": cpp_builder._is_gcc(cxx), "clang": cpp_builder._is_clang(cxx),
                      "status": r.returncode, "stderr": r.stderr}))
    """)


def spy_on(tmp_path, name, real):
    """A directory with NAME first on PATH: records its argv (NUL-separated)
    and runs the real compiler with it."""
    d = tmp_path / "spy"
    d.mkdir(exist_ok=True)
    log = tmp_path / f"{name}.argv"
    (d / name).write_text(f'#!/bin/sh\nprintf "%s\\0" "$@" >>"{log}"\nprintf "\\n" >>"{log}"\n'
                          f'exec "{real}" "$@"\n')
    (d / name).chmod(0o755)
    return d, log


def calls(log):
    return [c.rstrip("\0").split("\0") for c in log.read_text().split("\0\n") if c] if log.exists() else []


@pytest.mark.parametrize("how", ["run", "env"])
def test_run_and_env_keep_inductors_g_plus_plus_and_its_argv(fake_torch, tmp_path, venv, how):
    """CXX unset on Linux: inductor runs g++. Under `linkguard run` (or after
    `eval "$(linkguard env)"`) inductor names a drop-in that its own name test
    takes for GCC, the flags are GCC's, and the real g++ receives exactly the
    argv it gets without linkguard. (Before: CXX=linkguard-clang++, so
    _is_clang, clang's flags, and clang++ from PATH in place of g++.)"""
    import json
    import shutil
    real = shutil.which("g++")
    if not real or not os.path.realpath(real).split("/")[-1].count("g++"):
        pytest.skip("no g++ on PATH")
    spy, log = spy_on(tmp_path, "g++", os.path.realpath(real))
    src = tmp_path / "k.cpp"
    src.write_text('extern "C" int kernel(int x) { return x + 1; }\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINKGUARD_") and k not in ("CXX", "CC")}
    env.update(PYTHONPATH=str(fake_torch), PATH=f"{spy}:{os.path.join(venv, 'bin')}:{env['PATH']}",
               XDG_STATE_HOME=str(tmp_path / "state"))
    py = os.path.join(venv, "bin", "python")
    plain = subprocess.run([py, "-c", INDUCTOR_STEP, str(src), str(tmp_path / "plain.so")], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert plain.returncode == 0, plain.stderr
    without = json.loads(plain.stdout)
    assert (without["cxx"], without["gcc"], without["clang"], without["status"]) == ("g++", True, False, 0)
    before = calls(log)
    log.unlink()
    lg = os.path.join(venv, "bin", "linkguard")
    if how == "run":
        cmd = [lg, "run", "--", py, "-c", INDUCTOR_STEP, str(src), str(tmp_path / "lg.so")]
    else:
        cmd = ["sh", "-c", f'eval "$("{lg}" env)" && exec "$0" -c "$1" "$2" "$3"',
               py, INDUCTOR_STEP, str(src), str(tmp_path / "lg.so")]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    through = json.loads(r.stdout)
    # inductor's own name test, on what run/env set CXX to:
    assert through["cxx"] == os.path.join(venv, "bin", "linkguard-g++")
    assert (through["gcc"], through["clang"], through["status"]) == (True, False, 0), through["stderr"]
    assert "warning" not in through["stderr"] and "warning" not in r.stderr
    # The real g++ received the same commands, argv[0] aside (the probe
    # inductor runs, then the compile and link).
    after = calls(log)
    assert any("-fno-tree-loop-vectorize" in c for c in before), before
    assert after == [[a.replace("plain.so", "lg.so") for a in c] for c in before], (before, after)
    assert os.path.isfile(tmp_path / "lg.so")


def test_linkguard_g_plus_plus_is_in_the_wheel_and_gcc_named(venv):
    """The GCC pair is installed beside the clang pair; inductor's name test
    takes each for its family."""
    import re
    for name, gcc, clang in [("linkguard-g++", True, False), ("linkguard-gcc", True, False),
                             ("linkguard-clang++", False, True), ("linkguard-clang", False, True)]:
        p = os.path.join(venv, "bin", name)
        assert os.access(p, os.X_OK), name
        is_clang = bool(re.search(r"(clang|clang\+\+)", p))
        is_gcc = not is_clang and bool(re.search(r"(gcc|g\+\+|gnu-c\+\+)", p))
        assert (is_gcc, is_clang) == (gcc, clang), p
