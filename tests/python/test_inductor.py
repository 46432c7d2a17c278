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
