"""linkguard from Python: a thin typed layer over the binary's ``--json``.

Every verdict comes from the ``linkguard`` executable installed with this
package (``linkguard check|inspect|try-load --json``); nothing is judged in
Python. A result keeps the binary's whole JSON document as ``.raw``.

    >>> import linkguard
    >>> r = linkguard.check("model.dylib", forbid=["openmp"], portable=True)
    >>> r.holds, [f.message for f in r.findings]

Usage errors (exit 64: an unknown option, a bad pattern, no contract) raise
:class:`UsageError` with linkguard's own message. A file that cannot be read
or is not a binary does not raise: the result does not hold and lists it in
``.errors`` (a contract that could not be checked did not hold).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._binary import binary, run

if TYPE_CHECKING:  # imported on first use (__getattr__ below), for type checkers now
    from . import inductor as inductor, testing as testing

try:  # the installed distribution's version; a source checkout has none
    from importlib.metadata import PackageNotFoundError, version as _dist_version

    try:
        __version__ = _dist_version("linkguard")
    except PackageNotFoundError:
        __version__ = "0+unknown"
except ImportError:  # pragma: no cover (Python < 3.8)
    __version__ = "0+unknown"

__all__ = [
    "CheckResult", "Finding", "FileError", "InspectResult", "LinkguardError", "Tried",
    "TryLoadResult", "UsageError", "binary", "check", "inspect", "try_load",
    "inductor", "testing",
]

# The submodules, loaded when first named (PEP 562): ``import linkguard`` then
# ``linkguard.inductor.use()`` works, and ``import linkguard`` alone loads
# neither (linkguard.inductor imports torch only inside use()).
_LAZY = ("inductor", "testing")


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# linkguard's exit codes (docs/exit-codes.md) that this layer treats specially.
EXIT_USAGE = 64


class LinkguardError(Exception):
    """linkguard could not answer: its exit code and its own message."""

    def __init__(self, message: str, exit_code: int, argv: Sequence[str]) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.argv = list(argv)


class UsageError(LinkguardError):
    """Exit 64: linkguard rejected the command line (``linkguard: error: ...``)."""


@dataclass(frozen=True)
class Tried:
    """One path the loader tried for a dependency, in its order (docs/inspect.md):
    ``reason`` is ``accepted``, ``missing``, ``missing-directory``,
    ``wrong-architecture``, ``not-loadable``, ``outside-root``,
    ``host-dependent``, ``undecided``, ``unreadable`` or ``system``."""

    path: str
    via: str
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class Finding:
    """One finding of ``check`` or ``try-load``.

    ``file`` is the file given (for a container's member, the container);
    ``member`` the path inside the archive, or None; ``path`` linkguard's
    name for it (``PKG!member``, ``FILE@0xOFFSET``). ``kind`` is
    ``violation``, ``kept``, ``unknown`` or ``allowed`` (a violation an
    ``[[allow]]`` entry of linkguard.toml accepts; its reason is in ``raw``);
    ``advice`` its fix (docs/check.md).
    ``tried``: for a portable finding about a search, every path the loader
    tried, in its order (at most 256; ``tried_not_listed`` more).
    """

    file: str
    member: Optional[str]
    kind: str
    dependency: Optional[str]
    message: str
    rule: str
    path: str
    slice: Optional[str] = None
    symbols: Tuple[str, ...] = ()
    advice: str = ""
    tried: Tuple[Tried, ...] = ()
    tried_not_listed: int = 0


@dataclass(frozen=True)
class FileError:
    """A file linkguard could not judge: ``unreadable``, ``malformed``, ``unsupported``."""

    path: str
    kind: str
    message: str


@dataclass(frozen=True)
class CheckResult:
    """``linkguard check --json``: ``holds`` only when the exit code is 0."""

    holds: bool
    findings: List[Finding]
    errors: List[FileError]
    exit_code: int
    raw: Dict[str, Any] = field(repr=False)
    stderr: str = field(default="", repr=False)

    @property
    def violations(self) -> List[Finding]:
        return [f for f in self.findings if f.kind == "violation"]

    def __bool__(self) -> bool:
        return self.holds


@dataclass(frozen=True)
class InspectResult:
    """``linkguard inspect --json``: ``files`` as linkguard reports them."""

    files: List[Dict[str, Any]]
    errors: List[FileError]
    exit_code: int
    raw: Dict[str, Any] = field(repr=False)

    def dependencies(self, path: Optional[str] = None) -> List[str]:
        """The dependency names of every slice of every file (or of PATH), in load order."""
        out: List[str] = []
        for f in self.files:
            if path is not None and f.get("path") != path:
                continue
            for s in f.get("slices") or []:
                out.extend(d["name"] for d in s.get("dependencies") or [])
        return out


@dataclass(frozen=True)
class TryLoadResult:
    """``linkguard try-load --json``: ``holds`` when it loaded and the contract held."""

    holds: bool
    outcome: str
    findings: List[Finding]
    images: List[Dict[str, Any]]
    problem: Optional[str]
    exit_code: int
    raw: Dict[str, Any] = field(repr=False)

    def __bool__(self) -> bool:
        return self.holds


def _strs(name: str, values: Union[str, Iterable[str], None]) -> List[str]:
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    out = list(values)
    for v in out:
        if not isinstance(v, str):
            raise TypeError(f"{name}: expected strings, got {v!r}")
    return out


def _fspaths(paths: Sequence[Any]) -> List[str]:
    import os

    if not paths:
        raise TypeError("at least one path is needed")
    return [os.fspath(p) for p in paths]


def _run_json(args: List[str]) -> Tuple[Dict[str, Any], int, str]:
    proc = run(args)
    err = proc.stderr.decode("utf-8", "replace")
    first = next((line for line in err.splitlines() if line.startswith("linkguard: error:")), err.strip())
    if proc.returncode == EXIT_USAGE:
        raise UsageError(first, proc.returncode, args)
    try:
        doc = json.loads(proc.stdout.decode("utf-8"))
    except ValueError:
        raise LinkguardError(first or f"linkguard {args[0]} printed no JSON (exit {proc.returncode})",
                             proc.returncode, args) from None
    if not isinstance(doc, dict):
        raise LinkguardError(f"linkguard {args[0]}: unexpected JSON", proc.returncode, args)
    return doc, proc.returncode, err


def _errors(doc: Dict[str, Any]) -> List[FileError]:
    return [FileError(e.get("path", ""), e.get("kind", ""), e.get("message", "")) for e in doc.get("errors") or []]


def _origin(record: Dict[str, Any], name: str) -> Tuple[str, Optional[str]]:
    """The file and member a record's image came from, as the binary says in
    its "container" (null for a plain file, then NAME): never split from a
    printed name, where a '!' in a directory's name is no separator."""
    container = record.get("container") or {}
    return container.get("path") or name, container.get("member")


def _size(name: str, value: Union[int, str]) -> str:
    """--max-inflated's SIZE: bytes as an int, or linkguard's own spelling ("4G")."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(f"{name}: expected a size in bytes or a string such as '4G', got {value!r}")
    return str(value)


def check(*paths: Any, forbid: Iterable[str] = (), require: Iterable[str] = (),
          forbid_unreferenced: Iterable[str] = (), unused: bool = False, mps_aot: bool = False,
          portable: bool = False, bundle_root: Optional[Any] = None, search: Iterable[str] = (),
          provided: Iterable[str] = (), system_list: Optional[Any] = None,
          scan: bool = False, executable: Optional[Any] = None, unique: Iterable[str] = (),
          max_inflated: Optional[Union[int, str]] = None, no_signatures: bool = False,
          no_one_definer: bool = False,
          signatures: Optional[str] = None, macos_min: Optional[str] = None,
          platform_tag: Optional[str] = None, root: Iterable[str] = ()) -> CheckResult:
    """``linkguard check --json`` over PATHS (files, containers, ``PKG!member``, trees).

    Every option of ``linkguard check`` is a keyword (docs/check.md), its
    name with ``_`` for ``-``: ``executable=`` for ``--executable``,
    ``unique=["openmp"]`` for ``--unique openmp``, ``max_inflated="4G"``;
    a repeatable option takes a string or a list of them. ``--json`` is
    always given; ``--quiet`` shapes the text only. ``holds`` is True only
    when linkguard exits 0 and its summary holds.
    """
    import os

    args = ["check", "--json"]
    if executable is not None:
        args.append(f"--executable={os.fspath(executable)}")
    args += [f"--unique={g}" for g in _strs("unique", unique)]
    if max_inflated is not None:
        args.append(f"--max-inflated={_size('max_inflated', max_inflated)}")
    args += [f"--forbid={p}" for p in _strs("forbid", forbid)]
    args += [f"--require={p}" for p in _strs("require", require)]
    args += [f"--forbid-unreferenced={p}" for p in _strs("forbid_unreferenced", forbid_unreferenced)]
    if unused:
        args.append("--unused")
    if mps_aot:
        args.append("--mps-aot")
    if portable:
        args.append("--portable")
    if bundle_root is not None:
        args.append(f"--bundle-root={os.fspath(bundle_root)}")
    args += [f"--search={d}" for d in _strs("search", search)]
    args += [f"--provided={p}" for p in _strs("provided", provided)]
    if system_list is not None:
        args.append(f"--system-list={os.fspath(system_list)}")
    if scan:
        args.append("--scan")
    if no_signatures:
        args.append("--no-signatures")
    if no_one_definer:
        args.append("--no-one-definer")
    if signatures is not None:
        args.append(f"--signatures={signatures}")
    if macos_min is not None:
        args.append(f"--macos-min={macos_min}")
    if platform_tag is not None:
        args.append(f"--platform-tag={platform_tag}")
    args += [f"--root={r}" for r in _strs("root", root)]
    args += ["--", *_fspaths(paths)]
    doc, code, err = _run_json(args)
    findings: List[Finding] = []
    for f in doc.get("files") or []:
        file, member = _origin(f, f.get("path", ""))
        for g in f.get("findings") or []:
            findings.append(Finding(
                file=file,
                member=member,
                kind=g.get("kind", ""),
                dependency=g.get("dependency"),
                message=g.get("message", ""),
                rule=g.get("rule", ""),
                path=f.get("path", ""),
                slice=g.get("slice"),
                symbols=tuple(g.get("symbols") or ()),
                advice=g.get("advice", ""),
                tried=tuple(Tried(path=t.get("path", ""), via=t.get("via", ""),
                                  reason=t.get("reason", ""), detail=t.get("detail", ""))
                            for t in g.get("tried") or ()),
                tried_not_listed=int(g.get("triedNotListed") or 0),
            ))
    summary = doc.get("summary") or {}
    holds = code == 0 and summary.get("holds") is True
    return CheckResult(holds=holds, findings=findings, errors=_errors(doc), exit_code=code, raw=doc,
                       stderr=err)


def inspect(*paths: Any, symbols: bool = False, rpaths: bool = False, arch: Optional[str] = None,
            scan: bool = False, tree: bool = False, search: Iterable[str] = (),
            executable: Optional[Any] = None,
            max_inflated: Optional[Union[int, str]] = None,
            root: Iterable[str] = (), why: bool = False) -> InspectResult:
    """``linkguard inspect --json`` over PATHS: dependencies in load order per slice.

    Every option of ``linkguard inspect`` is a keyword (``tree=True`` is
    ``--tree``: the load closure; its document is in ``.raw``; with
    ``why=True`` each dependency also has ``tried``, every path the loader
    tried, and ``triedNotListed``).
    """
    import os

    args = ["inspect", "--json"]
    if tree:
        args.append("--tree")
    if why:
        args.append("--why")
    args += [f"--root={r}" for r in _strs("root", root)]
    args += [f"--search={d}" for d in _strs("search", search)]
    if executable is not None:
        args.append(f"--executable={os.fspath(executable)}")
    if max_inflated is not None:
        args.append(f"--max-inflated={_size('max_inflated', max_inflated)}")
    if symbols:
        args.append("--symbols")
    if rpaths:
        args.append("--rpaths")
    if arch is not None:
        args.append(f"--arch={arch}")
    if scan:
        args.append("--scan")
    args += ["--", *_fspaths(paths)]
    doc, code, _ = _run_json(args)
    return InspectResult(files=list(doc.get("files") or []), errors=_errors(doc), exit_code=code, raw=doc)


def try_load(path: Any, forbid: Iterable[str] = (), require: Iterable[str] = (),
             call: Optional[str] = None, hide: Iterable[Any] = (), keep_env: bool = False,
             lazy: bool = False, scan: bool = False, timeout: Optional[int] = None,
             max_inflated: Optional[Union[int, str]] = None) -> TryLoadResult:
    """``linkguard try-load --json PATH``: load it in a fresh process and judge what it maps.

    Every option of ``linkguard try-load`` is a keyword (``timeout=`` in
    whole seconds, 0: never).
    """
    import os

    args = ["try-load", "--json"]
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, int):
            raise TypeError(f"timeout: expected whole seconds, got {timeout!r}")
        args.append(f"--timeout={timeout}")
    if max_inflated is not None:
        args.append(f"--max-inflated={_size('max_inflated', max_inflated)}")
    args += [f"--forbid={p}" for p in _strs("forbid", forbid)]
    args += [f"--require={p}" for p in _strs("require", require)]
    if call is not None:
        args.append(f"--call={call}")
    args += [f"--hide={os.fspath(h)}" for h in hide]
    if keep_env:
        args.append("--keep-env")
    if lazy:
        args.append("--lazy")
    if scan:
        args.append("--scan")
    args += ["--", os.fspath(path)]
    doc, code, _ = _run_json(args)
    name = doc.get("name") or os.fspath(path)
    file, member = _origin(doc, name)
    findings = [Finding(file=file, member=member, kind=g.get("kind", ""),
                        dependency=g.get("image"), message=g.get("message", ""),
                        rule=g.get("rule", ""), path=name, advice=g.get("advice", ""))
                for g in doc.get("findings") or []]
    holds = code == 0 and doc.get("outcome") == "holds"
    return TryLoadResult(holds=holds, outcome=str(doc.get("outcome")), findings=findings,
                         images=list(doc.get("images") or []), problem=doc.get("problem"),
                         exit_code=code, raw=doc)
