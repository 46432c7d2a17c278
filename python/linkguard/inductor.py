"""Two lines for PyTorch inductor (AOTInductor, ``torch.compile`` on CPU):

    import linkguard.inductor
    linkguard.inductor.use()          # or: with linkguard.inductor.use(): ...

``use()`` points ``torch._inductor.config.cpp.cxx`` at a linkguard drop-in
and hands linkguard the compiler inductor would have used (the compiler
``cpp_builder.get_cpp_compiler()`` finds from the current ``cpp.cxx``,
which defaults to ``$CXX``) as ``LINKGUARD_CXX``: your choice of compiler
is kept, and every compile and link step inductor runs goes through
linkguard.

The drop-in is a symbolic link to the ``linkguard`` executable that carries
the real compiler's own file name (``g++``, ``g++-12``, ``clang++``,
``clang++-19``, ``c++``), in a directory whose path names no compiler
family. inductor decides flags from the compiler: from its name on Linux
(``cpp_builder._is_gcc``, ``_is_clang``) and from ``--version`` on macOS
(``_is_apple_clang``; linkguard passes ``--version`` to the real compiler).
``use()`` asks inductor's own predicates about the drop-in and about the
real compiler and refuses (``RuntimeError``) if any answer differs, so
nothing inductor derives from the compiler changes.

The switch stays in force until ``linkguard.inductor.restore()`` (or the
switch's own ``restore()``, or the end of the ``with`` block), which puts
back ``cpp.cxx`` and the environment as they were.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from typing import Any, Dict, List, Optional, Tuple, Type

from ._binary import binary

__all__ = ["Switch", "use", "restore", "dropin_dir"]

# Substrings inductor's name tests look for (cpp_builder._is_gcc, _is_clang,
# _is_intel_compiler, MSVC): the drop-in directory's path must hold none of
# them, or the drop-in's name would test differently from the compiler's.
_FAMILY_WORDS = ("clang", "gcc", "g++", "gnu-c++", "icx", "icpx", "cl.exe")


def _cache_root() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "linkguard", "inductor")


def dropin_dir(linkguard_binary: Optional[str] = None) -> str:
    """The directory holding the drop-in links for this ``linkguard`` executable.

    Stable across runs (inductor's caches key on the compiler's path), one
    per executable: ``$XDG_CACHE_HOME/linkguard/inductor/<hash>``. Falls back
    to a directory under ``/tmp`` when the cache path names a compiler family.
    """
    exe = linkguard_binary or binary()
    tag = hashlib.sha256(os.path.realpath(exe).encode()).hexdigest()[:16]
    for root in (_cache_root(), os.path.join("/tmp", f"linkguard-{os.getuid()}", "inductor")):
        d = os.path.join(root, tag)
        if not any(w in d.lower() for w in _FAMILY_WORDS):
            return d
    raise RuntimeError("linkguard.inductor: no drop-in directory whose path names no compiler family")


def _make_dropin(name: str, exe: str) -> str:
    d = dropin_dir(exe)
    os.makedirs(d, mode=0o700, exist_ok=True)
    # inductor will run what this directory holds: it must be ours alone
    # (the /tmp fallback could have been made by someone else).
    st = os.lstat(d)
    if not os.path.isdir(d) or os.path.islink(d) or st.st_uid != os.getuid() or st.st_mode & 0o022:
        raise RuntimeError(f"linkguard.inductor: {d} is not a directory of this user's that only "
                           "this user can write; remove it or set XDG_CACHE_HOME")
    link = os.path.join(d, name)
    target = os.path.realpath(exe)
    try:
        if os.readlink(link) == target:
            return link
    except OSError:
        pass
    tmp = f"{link}.{os.getpid()}.tmp"
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    os.symlink(target, tmp)
    os.replace(tmp, link)  # atomic: a concurrent use() sees the old or the new link
    return link


def _inductor() -> Tuple[Any, Any]:
    try:
        from torch._inductor import config, cpp_builder  # type: ignore[import]
    except ImportError as e:  # pragma: no cover (exercised where torch is missing)
        raise ImportError("linkguard.inductor needs PyTorch (torch._inductor)") from e
    return config, cpp_builder


def _predicates(cpp_builder: Any) -> List[str]:
    # _is_apple_clang runs --version; inductor asks it on macOS only.
    names = ["_is_gcc", "_is_clang", "_is_intel_compiler", "_is_msvc_cl"]
    if sys.platform == "darwin":
        names.append("_is_apple_clang")
    return [n for n in names if callable(getattr(cpp_builder, n, None))]


def _ask(cpp_builder: Any, name: str, compiler: str) -> Any:
    fn = getattr(cpp_builder, name)
    try:
        return bool(fn(compiler))
    except Exception as e:  # noqa: BLE001 -- compare the failure too
        return f"error: {type(e).__name__}"


class Switch:
    """The state ``use()`` put in place; ``restore()`` or ``with`` undoes it."""

    def __init__(self, dropin: str, real_compiler: str, previous_cxx: Any,
                 previous_env: Dict[str, Optional[str]]) -> None:
        self.dropin = dropin
        self.real_compiler = real_compiler
        self._previous_cxx = previous_cxx
        self._previous_env = previous_env
        self._active = True
        _in_force.append(self)

    def restore(self) -> None:
        """Puts ``cpp.cxx`` and ``LINKGUARD_CXX`` (and the log file) back."""
        if not self._active:
            return
        config, _ = _inductor()
        config.cpp.cxx = self._previous_cxx
        for k, v in self._previous_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        self._active = False
        if self in _in_force:
            _in_force.remove(self)

    def __enter__(self) -> "Switch":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException],
                 tb: Any) -> None:
        self.restore()

    def __repr__(self) -> str:
        state = "active" if self._active else "restored"
        return f"<linkguard.inductor.Switch {state}: {self.dropin} -> LINKGUARD_CXX={self.real_compiler}>"


# The switches use() put in force and not yet restored, oldest first.
_in_force: List[Switch] = []


def restore() -> None:
    """Undoes every ``use()`` still in force, newest first: ``cpp.cxx`` and the
    environment are as they were before the first. Nothing in force: nothing
    to do."""
    while _in_force:
        _in_force[-1].restore()


def use(compiler: Optional[str] = None, *, log_file: Optional[str] = None) -> Switch:
    """Routes inductor's C++ compile and link steps through linkguard.

    ``compiler``: the real compiler (default: the one inductor would use now,
    ``cpp_builder.get_cpp_compiler()`` over ``config.cpp.cxx``, i.e. ``$CXX``
    or ``g++``/``clang++``). ``log_file`` sets ``LINKGUARD_LOG_FILE`` (and
    ``LINKGUARD_LOG=debug`` unless set): each step linkguard runs is recorded there.
    Returns a :class:`Switch`, usable as a context manager.
    """
    config, cpp_builder = _inductor()
    exe = binary()
    previous_cxx = config.cpp.cxx
    word = compiler if compiler is not None else cpp_builder.get_cpp_compiler()
    name = os.path.basename(word)
    if word.startswith(dropin_dir(exe) + os.sep) and os.environ.get("LINKGUARD_CXX"):
        # use() again while in force (a notebook cell run twice): nothing to
        # change, and this switch's restore() changes nothing either.
        return Switch(word, os.environ["LINKGUARD_CXX"], previous_cxx, {})
    if name.startswith("linkguard") or word.startswith(dropin_dir(exe) + os.sep):
        raise RuntimeError(f"linkguard.inductor.use(): inductor's compiler {word} is linkguard "
                           "already; name the real compiler: use(compiler=...)")
    real = word if os.sep in word else shutil.which(word)
    if not real or not os.access(real, os.X_OK):
        raise FileNotFoundError(f"linkguard.inductor.use(): the compiler {word!r} was not found")
    real = os.path.abspath(real)
    dropin = _make_dropin(name, exe)

    keys = ["LINKGUARD_CXX"] + (["LINKGUARD_LOG_FILE", "LINKGUARD_LOG"] if log_file else [])
    previous_env = {k: os.environ.get(k) for k in keys}
    os.environ["LINKGUARD_CXX"] = real
    if log_file:
        os.environ["LINKGUARD_LOG_FILE"] = os.path.abspath(log_file)
        os.environ.setdefault("LINKGUARD_LOG", "debug")
    switch = Switch(dropin, real, previous_cxx, previous_env)

    # Everything inductor decides from the compiler must come out the same
    # for the drop-in as for the compiler it stands for.
    differ = [f"{p}: {a!r} for {word}, {b!r} for {dropin}"
              for p in _predicates(cpp_builder)
              for a, b in [(_ask(cpp_builder, p, word), _ask(cpp_builder, p, dropin))] if a != b]
    if differ:
        switch.restore()
        raise RuntimeError("linkguard.inductor.use(): inductor would treat the drop-in differently "
                           "from the compiler: " + "; ".join(differ))
    config.cpp.cxx = (dropin,)
    return switch
