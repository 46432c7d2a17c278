"""The linkguard wheel's native part, from a staged `cmake --install` tree.

scripts/wheel builds linkguard (static) and linkguard-loader, installs them
into a staging prefix and sets:

  LINKGUARD_WHEEL_STAGE  the staging prefix (bin/, libexec/, share/)
  LINKGUARD_WHEEL_PLAT   the platform tag (manylinux_2_34_x86_64,
                         macosx_11_0_arm64, ...)

The wheel then holds, as `cmake --install` lays them out:
  .data/scripts/  linkguard, linkguard-clang++, linkguard-clang, linkguard-g++,
                  linkguard-gcc (byte copies
                  of one static executable: a wheel cannot hold a symbolic
                  link, and a Python shim would add the interpreter's
                  start-up to every compile step)
  .data/data/     libexec/linkguard/linkguard-loader, share/man/man1/linkguard.1,
                  share/linkguard/cmake/linkguard-toolchain.cmake,
                  share/doc/linkguard/schema/ (the JSON Schemas, where
                  `check --help` says they are, baseline/ included)
                  share/doc/linkguard/*.md (what README.md points at)
and the pure Python package `linkguard`. Tag: py3-none-<platform> (the
Python code runs on any Python 3; the binaries decide the platform).
"""

import os
import re

from setuptools import setup

try:
    from setuptools.command.build_scripts import build_scripts
except ImportError:  # setuptools < 69 (Debian 12's 66): distutils' own, through setuptools' shim
    from distutils.command.build_scripts import build_scripts
from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
STAGE = os.environ.get("LINKGUARD_WHEEL_STAGE", "")
PLAT = os.environ.get("LINKGUARD_WHEEL_PLAT", "")
DRIVERS = ["linkguard", "linkguard-clang++", "linkguard-clang", "linkguard-g++", "linkguard-gcc"]
DOCS = "share/doc/linkguard"
DATA = [
    "libexec/linkguard/linkguard-loader",
    "share/man/man1/linkguard.1",
    "share/linkguard/cmake/linkguard-toolchain.cmake",
]


def version():
    if os.environ.get("LINKGUARD_WHEEL_VERSION"):
        return os.environ["LINKGUARD_WHEEL_VERSION"]
    with open(os.path.join(HERE, "..", "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(linkguard\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise SystemExit("setup.py: no project(linkguard VERSION ...) in ../CMakeLists.txt")
    return m.group(1)


def schemas():
    """The staged JSON Schemas (share/doc/linkguard/schema, baseline/ too)."""
    top = os.path.join(STAGE, "share", "doc", "linkguard", "schema")
    out = []
    for dirpath, _, files in os.walk(top):
        out += [os.path.relpath(os.path.join(dirpath, f), STAGE) for f in sorted(files) if f.endswith(".json")]
    if not out:
        raise SystemExit(f"setup.py: no JSON Schema under {top}: run scripts/wheel, which stages the build")
    return sorted(out)


def staged(rel):
    path = os.path.join(STAGE, rel)
    if not os.path.isfile(path):
        raise SystemExit(f"setup.py: {path} is missing: run scripts/wheel, which stages the build")
    return path


class CopyScripts(build_scripts):
    """Copies the executables byte for byte (distutils would read a script's
    first line as text, looking for a Python shebang to rewrite)."""

    def run(self):
        self.mkpath(self.build_dir)
        for src in self.scripts:
            self.copy_file(src, os.path.join(self.build_dir, os.path.basename(src)))


class PlatformWheel(bdist_wheel):
    """py3-none-PLAT: not pure (the binaries), not tied to a Python ABI."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        if not PLAT:
            raise SystemExit("setup.py: LINKGUARD_WHEEL_PLAT is not set: run scripts/wheel")
        return "py3", "none", PLAT


if STAGE:
    # The five names are one executable, copied: staged() resolves bin/'s
    # symbolic links to the file itself.
    scripts_dir = os.path.join(os.environ.get("LINKGUARD_WHEEL_WORK", HERE), "build", "linkguard-scripts")
    os.makedirs(scripts_dir, exist_ok=True)
    scripts = []
    for name in DRIVERS:
        dst = os.path.join(scripts_dir, name)
        with open(staged("bin/" + name), "rb") as s, open(dst + ".tmp", "wb") as d:
            d.write(s.read())
        os.chmod(dst + ".tmp", 0o755)
        os.replace(dst + ".tmp", dst)
        scripts.append(dst)
    data_files = [(os.path.dirname(rel), [staged(rel)]) for rel in DATA + schemas()]
    # The documentation README.md (the wheel's description) points at, where
    # `cmake --install` puts it: <prefix>/share/doc/linkguard/*.md.
    docs = os.path.dirname(staged(DOCS + "/python.md"))
    data_files.append((DOCS, sorted(os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))))
else:  # an sdist or a metadata query: no binaries
    scripts, data_files = [], []

setup(
    version=version(),
    scripts=scripts,
    data_files=data_files,
    cmdclass={"build_scripts": CopyScripts, "bdist_wheel": PlatformWheel},
)
