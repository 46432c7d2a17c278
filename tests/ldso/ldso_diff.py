#!/usr/bin/env python3
"""Differential test of linkguard's ELF load closure against the real ld.so.

issue 37, "Tests": random ELF trees, each program run under the real ld.so
(/lib64/ld-linux-x86-64.so.2, Debian 12's glibc 2.36) with an empty
environment, what it mapped compared image by image with
`linkguard inspect --tree --json TREE` and `linkguard check --portable --no-one-definer --json
TREE`.

Subcommands
  run [--seeds A-B | --seed N ...] [--jobs J] [--keep DIR] [--json OUT]
      generate, build, judge; print per-shape counts and every disagreement.
  case FILE.json ...      rebuild and judge named regression cases (tree specs).
  spec SEED               print the tree spec a seed generates.
  build SEED|FILE DIR     build one tree (to look at it by hand).
  minimize SEED OUT.json  shrink a disagreeing seed's spec, keeping its causes.
Environment: LINKGUARD_BIN (the binary judged), LDSO_POOL (the pool's cache
directory, default $TMPDIR/linkguard-ldso-pool-<hash of this file>).

How a tree is made. A pool of prebuilt images (clang-19, lld) is built once:
each slotted image carries eight DT_NEEDED entries whose strings are 250-byte
placeholders. A tree's image is a copy whose .dynamic is rewritten in place:
each slot becomes a DT_NEEDED, DT_SONAME, DT_RPATH or DT_RUNPATH with the
string wanted (written over its placeholder), the other entries follow, the
rest is DT_NULL; entries placed after a DT_NULL (ld.so stops reading there)
and twice-given tags (the last wins in ld.so) are shapes of their own. The
same rewrite patchelf would do (--set-soname, --add-needed, --force-rpath),
without a process per image: 10,000 trees fit in minutes.

The oracle. Every root is run by ld.so with `env -i` (no LD_LIBRARY_PATH):
an executable directly (it is tests/ldso/probe.c: it prints the name of
every object dl_iterate_phdr reports), a library root (an image nothing in
the tree loads) through a dlopen(RTLD_NOW) helper outside the tree. A tree
whose search paths hold an absolute or empty entry, or that has an absolute
symbolic link, is run twice in a private mount namespace (`unshare -m`):
  A "host present": /srv/lgfuzz/lib (a tmpfs) and the current directory hold
    a copy of every library name of the tree, /usr/lib/llvm-14/lib as it is;
  A2 "the machine's directories as they are, the current directory's copies":
    run A's default with /srv empty and /usr/lib/llvm-14/lib unshadowed
    (a runtime name behind an absolute and an empty entry);
  B "host absent, tree moved": /srv and /usr/lib/llvm-14/lib are empty tmpfs,
    the current directory is empty, and the tree is bind-mounted at another
    path while its own path is hidden (an unpacked copy elsewhere).
  C "tree moved, old path holds a copy" (a tree with an absolute link): as B,
    with a copy of the tree at its old path (the build machine, an older
    install): an absolute link into the tree reaches the copy, a file outside
    the shipment (the probes print each object's real path, resolved in the
    run's own mounts).
A root that maps a file from a legacy hwcaps subdirectory (tls/, x86_64/,
haswell/, avx512_1/: searched by glibc 2.36, dropped in 2.37) is host-dependent
too (it maps something else under a newer glibc); so is one for which ld.so's
own trace (LD_DEBUG=libs, run A) shows a directory searched for a name whose
legacy subdirectory this CPU does not try (avx512_1/, haswell/, xeon_phi/)
holds another loadable copy: a CPU that tries it maps that copy.
A tree with glibc-hwcaps subdirectories is also run through
`ld.so --glibc-hwcaps-mask M` for M = none, x86-64-v2, x86-64-v3:x86-64-v2,
x86-64-v4:x86-64-v3:x86-64-v2 (a CPU of each level searches the levels below
it too; a library root: the dlopen helper under that ld.so), in runs A, B
and C.
Variants compare the files outside the tree by path, except a runtime name
(BASELINE) from the system's directories or an absolute search directory:
the machine's own C library, compared by name (docs/check.md).

Roots: the tree's executables (and PIEs), plugins/plugin.so, and every x86-64
ET_DYN image `inspect --tree` lists as a root (an image nothing in the tree
loads: check judges each, so the oracle dlopens each). A name outside
BASELINE (below: glibc's own libraries) that ld.so found outside the tree
(Debian's libgomp.so.1, a copy in the current directory) counts as "not OK":
it loaded only because this host has it.

The agreement (per root R that is an x86-64 ELF image; the main program
itself, ld.so and the vDSO are left out on both sides):
  oracle: OK_v (ld.so loaded R and everything it needs, and the process ran)
          and MAP_v (the set of files it mapped: files of the tree by their
          real path, files outside by their path) for each run variant v;
          HOSTDEP = the variants do not all agree on (OK_v, MAP_v);
          OMP2 = a successful run mapped two OpenMP runtimes (two files of
          the tree that define __kmpc_fork_call or GOMP_parallel, or one of
          them and a system one).
  linkguard: its root record for R (matched by real path), each dependency
          at any depth: SHIPPED = real paths of `file` where placement is
          shipped; SYSTEM = dependency names where placement is system;
          HD = some placement is host-dependent; BAD = some placement is
          unresolved, non-portable or unknown.
  agree(R) :=
    HOSTDEP                  -> HD                          ("host-dependence missed")
    else not OK (the default variant failed: cannot open shared object file,
         file too short, invalid ELF header, wrong ELF class,
         cannot dynamically load position-independent executable,
         cannot dlopen() this object, ...)
                             -> BAD or HD (a failure is never "holds")
                                                           ("false shipped")
    else                     -> not BAD and not HD and
                                SHIPPED == the tree files of MAP and
                                SYSTEM == basenames of the files outside
                                the tree in MAP (system libraries compared by
                                name only)                 ("closure differs",
                                                            "false violation")
  verdict: `check --portable` exits 0 ("holds") iff every root R is OK, not
    HOSTDEP and not OMP2; a violation (exit 1) or undecided (92) otherwise.
    0 where the oracle says no is "false holds"; non-0 where it says yes is
    "false alarm".
  unique: `check --unique openmp` (no --portable: no host-dependence to
    stand behind) exits non-0 where a root maps two OpenMP runtimes in some
    variant with nothing of the host's planted (each glibc-hwcaps mask of
    run A, or of run B where the tree needs the namespace); 0 there is
    "false holds (--unique)". (Not the other way: a glibc 2.36 legacy
    machine this CPU is not may map them.)
A root linkguard does not list, or lists that the oracle does not know, is a
disagreement ("root missing" / "root extra").
"""

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
LDSO = "/lib64/ld-linux-x86-64.so.2"
CLANG = os.environ.get("LDSO_CLANG", "/usr/lib/llvm-19/bin/clang")
NSLOTS = 8
SLOTLEN = 250
HOST_LLVM = "/usr/lib/llvm-14/lib"  # Debian's libomp-dev: libomp.so.5 lives here
HOST_SRV = "/srv/lgfuzz/lib"
# Each a CPU of that level: it searches its level and every one below.
MASKS = ["none", "x86-64-v2", "x86-64-v3:x86-64-v2", "x86-64-v4:x86-64-v3:x86-64-v2"]

DT_NULL, DT_NEEDED, DT_STRTAB, DT_SONAME, DT_RPATH, DT_RUNPATH = 0, 1, 5, 14, 15, 29
TAGS = {"NEEDED": DT_NEEDED, "SONAME": DT_SONAME, "RPATH": DT_RPATH, "RUNPATH": DT_RUNPATH}


def slot_string(k):
    # No placeholder is a suffix of another (lld merges string tails).
    return ("LGSLOT%d" % k + chr(ord("a") + k) * (SLOTLEN - 7)).encode()


# --------------------------------------------------------------------------
# The pool
# --------------------------------------------------------------------------
LIB_C = "int lgf_value = 1;\n"
OMP_C = ("void __kmpc_fork_call(void) {}\nint omp_get_num_threads(void) { return 1; }\n"
         "int __kmpc_global_thread_num(void) { return 0; }\n")
GOMP_C = ("void GOMP_parallel(void) {}\nint omp_get_num_threads(void) { return 1; }\n"
          "void GOMP_barrier(void) {}\n")
DLOPEN_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
static int cb(struct dl_phdr_info *i, size_t s, void *d) { (void)s; (void)d;
  char *r = i->dlpi_name[0] ? realpath(i->dlpi_name, NULL) : NULL;
  printf("@@map %s\n@@real %s\n", i->dlpi_name, r ? r : ""); free(r); return 0; }
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  if (!dlopen(argv[1], RTLD_NOW)) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 127; }
  printf("@@loaded\n");
  dl_iterate_phdr(cb, 0);
  return 0;
}
"""

POOL_KINDS = ["lib", "omp", "gomp", "nodlopen", "exe"]


def pool_dir():
    h = hashlib.sha256(open(__file__, "rb").read() + open(os.path.join(HERE, "probe.c"), "rb").read()
                       ).hexdigest()[:12]
    return os.environ.get("LDSO_POOL") or os.path.join(
        tempfile.gettempdir(), "linkguard-ldso-pool-" + h)


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), r.stderr.decode(errors="replace")))
    return r


def build_pool(d):
    if os.path.exists(os.path.join(d, "done")):
        return d
    tmp = d + ".tmp%d" % os.getpid()
    os.makedirs(tmp, exist_ok=True)
    w = lambda n, t: open(os.path.join(tmp, n), "w").write(t)
    w("lib.c", LIB_C)
    w("omp.c", OMP_C)
    w("gomp.c", GOMP_C)
    w("dlopen.c", DLOPEN_C)
    shutil.copy(os.path.join(HERE, "probe.c"), os.path.join(tmp, "probe.c"))
    stubs = []
    for k in range(NSLOTS):
        s = os.path.join(tmp, "stub%d.so" % k)
        sh([CLANG, "-shared", "-nostdlib", "-fuse-ld=lld", "-o", s, os.path.join(tmp, "lib.c"),
            "-Wl,-soname," + slot_string(k).decode()])
        stubs.append(s)
    common = ["-fuse-ld=lld", "-Wl,--no-as-needed", "-Wl,-z,now"] + stubs
    lib = ["-shared", "-nostdlib", "-fPIC"]
    sh([CLANG] + lib + ["-o", os.path.join(tmp, "lib.so"), os.path.join(tmp, "lib.c")] + common)
    sh([CLANG] + lib + ["-o", os.path.join(tmp, "omp.so"), os.path.join(tmp, "omp.c")] + common)
    sh([CLANG] + lib + ["-o", os.path.join(tmp, "gomp.so"), os.path.join(tmp, "gomp.c")] + common)
    sh([CLANG] + lib + ["-Wl,-z,nodlopen", "-o", os.path.join(tmp, "nodlopen.so"),
                        os.path.join(tmp, "lib.c")] + common)
    sh([CLANG, "-O1", "-fPIE", "-pie", "-o", os.path.join(tmp, "exe"),
        os.path.join(tmp, "probe.c")] + common)
    # Plain images (no slots): the dlopen helper, the host copies, the decoys.
    sh([CLANG, "-O1", "-fuse-ld=lld", "-o", os.path.join(tmp, "dlopen"), os.path.join(tmp, "dlopen.c")])
    sh([CLANG, "-shared", "-nostdlib", "-fPIC", "-fuse-ld=lld", "-o", os.path.join(tmp, "plain.so"),
        os.path.join(tmp, "lib.c")])
    sh([CLANG, "-c", "-fPIC", "-o", os.path.join(tmp, "obj.o"), os.path.join(tmp, "lib.c")])
    for tgt, name in (("aarch64-linux-gnu", "aarch64.so"), ("i386-linux-gnu", "i386.so")):
        sh([CLANG, "-target", tgt, "-shared", "-nostdlib", "-fPIC", "-fuse-ld=lld", "-o",
            os.path.join(tmp, name), os.path.join(tmp, "lib.c")])
    meta = {}
    for k in POOL_KINDS:
        meta[k] = slot_layout(open(os.path.join(tmp, k + ("" if k == "exe" else ".so")), "rb").read())
    json.dump(meta, open(os.path.join(tmp, "layout.json"), "w"))
    open(os.path.join(tmp, "done"), "w").write("ok\n")
    try:
        os.rename(tmp, d)
    except OSError:  # another worker won
        shutil.rmtree(tmp, ignore_errors=True)
    return d


def slot_layout(data):
    """Where .dynamic and the slot strings are: {dyn_off, dyn_count, entries
    (tag, val) not slots, slots: [file offset of each slot's string]}."""
    assert data[:4] == b"\x7fELF" and data[4] == 2
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    loads, dyn = [], None
    for i in range(phnum):
        p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align = \
            struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == 1:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == 2:
            dyn = (p_offset, p_filesz)

    def v2o(v):
        for va, off, sz in loads:
            if va <= v < va + sz:
                return v - va + off
        raise ValueError("vaddr %x" % v)
    n = dyn[1] // 16
    ents = [struct.unpack_from("<qQ", data, dyn[0] + 16 * i) for i in range(n)]
    strtab = v2o(next(v for t, v in ents if t == DT_STRTAB))
    keep, slots = [], [None] * NSLOTS
    for t, v in ents:
        if t == DT_NULL:
            continue
        if t == DT_NEEDED:
            s = data[strtab + v:strtab + v + 16]
            if s.startswith(b"LGSLOT"):
                slots[int(chr(s[6]))] = v
                continue
        keep.append((t, v))
    assert all(s is not None for s in slots)
    return {"dyn_off": dyn[0], "dyn_count": n, "keep": keep, "strtab": strtab, "slots": slots}


def rewrite(data, lay, entries, after_null=()):
    """entries / after_null: [(TAG, string)], at most NSLOTS in all."""
    data = bytearray(data)
    assert len(entries) + len(after_null) <= NSLOTS
    new = []
    for k, (tag, s) in enumerate(list(entries) + list(after_null)):
        b = s.encode()
        assert len(b) < SLOTLEN, s
        off = lay["strtab"] + lay["slots"][k]
        data[off:off + SLOTLEN + 1] = b + b"\0" * (SLOTLEN + 1 - len(b))
        new.append((TAGS[tag], lay["slots"][k]))
    head = new[:len(entries)] + [tuple(e) for e in lay["keep"]]
    allents = head + ([(DT_NULL, 0)] + new[len(entries):] if after_null else [])
    assert len(allents) < lay["dyn_count"]
    allents += [(DT_NULL, 0)] * (lay["dyn_count"] - len(allents))
    for i, (t, v) in enumerate(allents):
        struct.pack_into("<qQ", data, lay["dyn_off"] + 16 * i, t, v)
    return bytes(data)


# --------------------------------------------------------------------------
# The generator: seed -> spec (JSON, reproducible) -> tree
# --------------------------------------------------------------------------
LIB_NAMES = ["libA.so.1", "libB.so.2", "libC.so", "libD.so.1", "libE.so.3", "libF.so",
             "libomp.so.5", "libgomp.so.1", "libm.so.6"]  # libm: a system name shadowed
LIB_DIRS = ["lib", "lib", "lib", "lib", "lib", "lib64", "opt/x/lib", "lib/sub", "other"]
DECOYS = ["empty", "text", "short", "obj", "aarch64", "i386", "dir", "pie"]
HWCAPS = ["glibc-hwcaps/x86-64-v2", "glibc-hwcaps/x86-64-v3", "glibc-hwcaps/x86-64-v4"]
LEGACY = ["tls", "x86_64", "haswell", "avx512_1", "tls/x86_64"]
ORIGIN_ENTRIES = ["$ORIGIN", "$ORIGIN/../lib", "${ORIGIN}/../lib", "$ORIGIN/../lib64",
                  "$ORIGIN/sub", "$ORIGIN/../opt/x/lib", "$ORIGIN/../other", "$ORIGIN/..",
                  "$ORIGIN/../missing", "$ORIGIN/../../lib", "${ORIGIN}", "$ORIGIN/../lib/"]
HOST_ENTRIES = [HOST_LLVM, HOST_SRV]


def gen_spec(seed):
    r = random.Random(seed)
    files = []  # {path, kind, ...}
    shapes = set()
    nnames = r.randint(2, 6)
    names = r.sample(LIB_NAMES[:6], nnames)
    if r.random() < 0.3:
        names.append("libomp.so.5")
    if r.random() < 0.25:
        names.append("libgomp.so.1")
    if r.random() < 0.05:
        names.append("libm.so.6")

    def search(usual=None):
        ents = []
        for _ in range(r.choice([0, 1, 1, 2, 2, 3])):
            x = r.random()
            if x < 0.1:
                ents.append("")
            elif x < 0.22:
                ents.append(r.choice(HOST_ENTRIES))
            else:
                ents.append(r.choice(ORIGIN_ENTRIES))
        # most trees are meant to load: the usual entry, somewhere
        if usual and r.random() < 0.6:
            ents.insert(r.randint(0, len(ents)), usual)
        return ":".join(ents) if ents else None

    def dyn(kind, soname=None):
        d = {"needed": [], "soname": soname}
        usual = "$ORIGIN/../lib" if kind == "exe" else "$ORIGIN"
        k = r.random()
        if k < 0.45:
            d["runpath"] = search(usual)
        elif k < 0.8:
            d["rpath"] = search(usual)
        elif k < 0.92:
            d["rpath"] = search(usual)
            d["runpath"] = search(usual)
        return d

    # libraries: each name gets 0..3 copies in different places
    order = list(names)
    for nm in names:
        ncopies = r.choice([0, 1, 1, 1, 2, 2, 3])
        if ncopies == 0:
            shapes.add("missing")
        dirs = []
        while len(dirs) < ncopies:
            dd = r.choice(LIB_DIRS)
            if dd not in dirs:
                dirs.append(dd)
        for dd in dirs:
            x = r.random()
            if x < 0.12:
                dd = dd + "/" + r.choice(HWCAPS)
            elif x < 0.2:
                dd = dd + "/" + r.choice(LEGACY)
            kind = "lib"
            if nm.startswith("libomp"):
                kind = "omp"
            elif nm.startswith("libgomp"):
                kind = "gomp"
            elif r.random() < 0.08:
                kind = "nodlopen"
            if r.random() < 0.14:
                kind = r.choice(DECOYS)
            soname = nm
            y = r.random()
            if y < 0.15:
                soname = None
            elif y < 0.25:
                soname = r.choice(names)  # shared / crossed sonames
            f = {"path": dd + "/" + nm, "kind": kind}
            if kind in ("lib", "omp", "gomp", "nodlopen", "pie"):
                f.update(dyn(kind, soname))
                pool = [n for n in order if n != nm] + (["libc.so.6"] if r.random() < 0.1 else [])
                f["needed"] = r.sample(pool, min(len(pool), r.choice([0, 0, 1, 1, 2, 3])))
            files.append(f)
    # symlinks to libraries
    libs = [f for f in files if f["kind"] not in ("dir",)]
    for _ in range(r.choice([0, 0, 1, 2])):
        if not libs:
            break
        t = r.choice(libs)
        d = r.choice(["lib", "lib64", "opt/x/lib", "lib/sub"])
        link = d + "/" + r.choice(names)
        if any(f["path"] == link for f in files):
            continue
        files.append({"path": link, "kind": "symlink", "target": t["path"],
                      "absolute": r.random() < 0.3})
    # executables
    for i in range(r.choice([1, 1, 2, 3])):
        d = "bin"
        real = None
        if r.random() < 0.15:
            real = "libexec/app%d" % i
        f = {"path": real or "bin/app%d" % i, "kind": "exe"}
        f.update(dyn("exe"))
        # an executable's needs: 1..4 names; first names more often (deep chains)
        f["needed"] = r.sample(order, min(len(order), r.choice([1, 1, 2, 3, 4])))
        files.append(f)
        if real:
            files.append({"path": "%s/app%d" % (d, i), "kind": "symlink", "target": real,
                          "absolute": r.random() < 0.3})
    # odd .dynamic: a twice-given tag (the last wins), a needed after DT_NULL
    for f in files:
        if f["kind"] in ("lib", "omp", "gomp", "nodlopen", "exe", "pie"):
            if r.random() < 0.04:
                f["dup_runpath"] = search() or "$ORIGIN"
            if r.random() < 0.04 and names:
                f["after_null"] = r.choice(names)
    # a dlopen root: an image nothing loads (a plugin)
    if r.random() < 0.15:
        k = r.choice(["lib", "nodlopen"])
        f = {"path": "plugins/plugin.so", "kind": k}
        f.update(dyn(k, "plugin.so"))
        f["needed"] = r.sample(order, min(len(order), r.choice([0, 1, 2])))
        files.append(f)
    return {"seed": seed, "files": files}


def shapes_of(spec):
    s = set()
    for f in spec["files"]:
        k, p = f["kind"], f["path"]
        if k in DECOYS:
            s.add("decoy-" + k)
        if k == "nodlopen":
            s.add("nodlopen")
        if k in ("omp", "gomp"):
            s.add(k)
        if k == "symlink":
            s.add("symlink-abs" if f.get("absolute") else "symlink-rel")
            if f["target"].startswith("libexec/"):
                s.add("exe-via-link")
        for h in HWCAPS:
            if "/" + h + "/" in "/" + p:
                s.add("hwcaps-" + h.split("/")[-1])
        for l in LEGACY:
            if ("/" + l + "/") in ("/" + p) and "glibc-hwcaps" not in p:
                s.add("legacy-" + l.replace("/", "-"))
        for key in ("rpath", "runpath", "dup_runpath"):
            v = f.get(key)
            if v is None:
                continue
            s.add(key)
            ents = v.split(":")
            if "" in ents:
                s.add("entry-empty")
            if any(e.startswith("/") for e in ents):
                s.add("entry-absolute")
            if any("${ORIGIN}" in e for e in ents):
                s.add("origin-braced")
            if any("$ORIGIN" in e for e in ents):
                s.add("origin")
        if f.get("rpath") is not None and f.get("runpath") is not None:
            s.add("rpath+runpath")
        if f.get("after_null"):
            s.add("needed-after-null")
        if f.get("soname") and f["soname"] != os.path.basename(p) and k not in ("symlink",):
            s.add("soname-differs")
        if p.startswith("plugins/"):
            s.add("dlopen-root")
    sonames = [f.get("soname") for f in spec["files"] if f.get("soname")]
    if len(sonames) != len(set(sonames)):
        s.add("shared-soname")
    # depth of the needed graph by name (a chain of >= 3 links)
    need = {}
    for f in spec["files"]:
        need.setdefault(os.path.basename(f["path"]), set()).update(f.get("needed", []))
    def depth(n, seen):
        if n in seen:
            return 0
        return 1 + max([depth(m, seen | {n}) for m in need.get(n, ())] or [0])
    for f in spec["files"]:
        if f["kind"] == "exe" and depth(os.path.basename(f["path"]), frozenset()) >= 4:
            s.add("deep-chain")
    if any(f.get("needed") and "libc.so.6" in f["needed"] for f in spec["files"] if f["kind"] != "exe"):
        s.add("system-name")
    if any("libm.so.6" in os.path.basename(f["path"]) for f in spec["files"]):
        s.add("system-name-shadowed")
    return sorted(s)


class Pool:
    def __init__(self, d):
        self.d = d
        self.layout = json.load(open(os.path.join(d, "layout.json")))
        self.bytes = {}
        for k in POOL_KINDS:
            self.bytes[k] = open(os.path.join(d, k + ("" if k == "exe" else ".so")), "rb").read()
        for k in ("plain.so", "obj.o", "aarch64.so", "i386.so"):
            self.bytes[k] = open(os.path.join(d, k), "rb").read()


def image_bytes(pool, f):
    k = f["kind"]
    base = {"pie": "exe"}.get(k, k)
    ents = []
    if f.get("soname"):
        ents.append(("SONAME", f["soname"]))
    for n in f.get("needed", []):
        if n == "libc.so.6" and base == "exe":
            continue
        ents.append(("NEEDED", n))
    if f.get("rpath") is not None:
        ents.append(("RPATH", f["rpath"]))
    if f.get("runpath") is not None:
        ents.append(("RUNPATH", f["runpath"]))
    if f.get("dup_runpath") is not None:
        ents.append(("RUNPATH" if f.get("runpath") is not None or f.get("rpath") is None else "RPATH",
                     f["dup_runpath"]))
    an = [("NEEDED", f["after_null"])] if f.get("after_null") else []
    # NSLOTS entries at most, and one DT_NULL more when one is hidden after it
    ents = ents[:NSLOTS - 2 * len(an)]
    return rewrite(pool.bytes[base], pool.layout[base], ents, an)


def build_tree(pool, spec, root):
    os.makedirs(root, exist_ok=True)
    for f in spec["files"]:
        p = os.path.join(root, f["path"])
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if os.path.lexists(p):
            continue
        k = f["kind"]
        if k == "symlink":
            tgt = f["target"]
            if f.get("absolute"):
                tgt = os.path.join(root, tgt)
            else:
                tgt = os.path.relpath(os.path.join(root, tgt), os.path.dirname(p))
            os.symlink(tgt, p)
            continue
        if k == "dir":
            os.makedirs(p, exist_ok=True)
            continue
        if k in ("lib", "omp", "gomp", "nodlopen", "exe", "pie"):
            data = image_bytes(pool, f)
        elif k == "empty":
            data = b""
        elif k == "text":
            # longer than an ELF header: ld.so says "invalid ELF header"
            # (a shorter one is "file too short", the "short" kind)
            data = (b"/* GNU ld script\n   Use the shared library, but some functions are only in\n"
                    b"   the static library, so try that secondarily.  */\nGROUP ( libc.so.6 )\n")
        elif k == "short":
            data = b"\x7fELF\x02\x01\x01" + b"\0" * 20
        elif k == "obj":
            data = pool.bytes["obj.o"]
        else:
            data = pool.bytes[k + ".so"]
        with open(p, "wb") as fh:
            fh.write(data)
        os.chmod(p, 0o755)


# --------------------------------------------------------------------------
# The oracle
# --------------------------------------------------------------------------
def needs_namespace(spec):
    for f in spec["files"]:
        if f["kind"] == "symlink" and f.get("absolute"):
            return True
        for key in ("rpath", "runpath", "dup_runpath"):
            v = f.get(key)
            if v is not None and any(e == "" or e.startswith("/") or "../.." in e
                                     for e in v.split(":")):
                return True
    return False


def outside_dirs(spec, root):
    """Directories outside the tree that a $ORIGIN entry reaches ($ORIGIN/../..
    from bin/): the machine's, wherever the tree is unpacked. Run A puts a
    copy of every name in each (a tmpfs in the private namespace); an
    ancestor of the tree is left alone (a mount there would hide the tree)."""
    out = set()
    dirs = {os.path.dirname(f["path"]) for f in spec["files"]}
    for f in spec["files"]:
        for key in ("rpath", "runpath", "dup_runpath"):
            for e in (f.get(key) or "").split(":"):
                if "ORIGIN" not in e:
                    continue
                for d in dirs | {os.path.dirname(f["path"])}:
                    base = os.path.join(root, d)
                    p = os.path.normpath(e.replace("${ORIGIN}", base).replace("$ORIGIN", base))
                    if p == root or p.startswith(root + "/") or (root + "/").startswith(p + "/"):
                        continue
                    out.add(p)
    return sorted(out)


def machine_own(x):
    """A runtime name (BASELINE) from the system's directories or from an
    absolute search directory is the machine's own C library, wherever the
    machine keeps it (docs/check.md: linkguard calls it system behind an
    absolute entry): the variants compare it by name. From the current
    directory or a directory above the tree it stays a path. (Run A plants
    a runtime name in an absolute directory only where the tree ships a
    copy of that name, which the machine's then displaces: run_oracle.)"""
    if os.path.basename(x) in BASELINE and x.startswith(SYSTEM_DIRS + (HOST_SRV + "/", HOST_LLVM + "/")):
        return "system:" + os.path.basename(x)
    return x


def has_abs_link(spec):
    return any(f["kind"] == "symlink" and f.get("absolute") for f in spec["files"])


OLDCOPY = "/old-path-copy"
DEBUG_LINE = re.compile(r"^\s*\d+:\s(.*)$")
# glibc 2.36 elf/dl-hwcaps.c _dl_important_hwcaps (legacy part) with
# sysdeps/x86/dl-hwcap.h: "tls", the platform (AT_PLATFORM x86_64,
# haswell, xeon_phi) and the hwcap names (avx512_1, x86_64), each present
# or not, in that nesting: every subdirectory some x86-64 CPU searches.
LEGACY_SUBDIRS = sorted({"/".join(x for x in (t, p, a, c) if x)
                         for t in ("tls", "") for p in ("x86_64", "haswell", "xeon_phi", "")
                         for a in ("avx512_1", "") for c in ("x86_64", "")} - {""})


def elf_skipped(p):
    """True when ld.so's open_verify skips P and searches on: a missing
    file (a dangling link) or an ELF file of another class or machine."""
    try:
        with open(p, "rb") as fh:
            h = fh.read(20)
    except FileNotFoundError:
        return True
    except OSError:
        return False  # a directory, a FIFO...: ends the search, a change
    return (len(h) == 20 and h[:4] == b"\x7fELF" and
            (h[4] != 2 or struct.unpack_from("<H", h, 18)[0] != 62))


def elf_nodlopen(p):
    """True when P is an ELF image marked -z nodlopen (DF_1_NOOPEN): a
    dlopen root's loader refuses it as it refuses the root's every
    dependency (glibc _dl_map_object_from_fd)."""
    try:
        out = subprocess.run(["readelf-19" if shutil.which("readelf-19") else "readelf",
                              "-dW", p], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "NOOPEN" in out


def legacy_alternative(trace):
    """From ld.so's LD_DEBUG=libs lines: for each name it searched, each
    directory it tried (not a subdirectory of another), a legacy
    subdirectory copy it did not try
    that exists, is not skipped by open_verify and is not the file it
    loaded. Such a copy is what another CPU's ld.so takes first."""
    out = []
    blocks = []
    for line in trace:
        m = re.match(r"find library=(\S+) \[\d+\]; searching", line)
        if m:
            blocks.append((m.group(1), []))
            continue
        m = re.match(r"\s*trying file=(.*)$", line)
        if m and blocks:
            blocks[-1][1].append(m.group(1))
    subs = LEGACY_SUBDIRS + ["glibc-hwcaps/x86-64-v%d" % k for k in (2, 3, 4)]
    for name, tried in blocks:
        seen = set(tried)
        got = next((t for t in reversed(tried) if os.path.isfile(t)), None)
        # The directories searched: each tried file's, less the ones that
        # are a subdirectory of another (ld.so remembers a subdirectory
        # found missing and tries only the directory itself next time).
        dirs = list(dict.fromkeys(os.path.dirname(t) for t in tried))
        bases = [d for d in dirs if not any(d == b + "/" + sub for b in dirs for sub in subs)]
        for d in bases:
            for sub in LEGACY_SUBDIRS:
                c = os.path.join(d, sub, name)
                if c in seen or not os.path.lexists(c) or elf_skipped(c):
                    continue
                if got and os.path.exists(c) and os.path.samefile(c, got):
                    continue
                out.append(c)
    return out


def legacy_searched(trace, root):
    """From ld.so's LD_DEBUG=libs lines: the files its search opened under
    a name with a legacy subdirectory in it (relative to the tree: the
    last file tried for a name, when it exists). A file reached through a
    link is tried under the link's name: a tree file whose real path
    passes through haswell/ but that was found as lib/libC.so was not
    picked by the legacy search, and any glibc finds it the same way."""
    out = []
    blocks = []
    for line in trace:
        m = re.match(r"find library=(\S+) \[\d+\]; searching", line)
        if m:
            blocks.append([])
            continue
        m = re.match(r"\s*trying file=(.*)$", line)
        if m and blocks:
            blocks[-1].append(m.group(1))
    for tried in blocks:
        if tried and os.path.isfile(tried[-1]):
            rel = "/" + os.path.relpath(tried[-1], root)
            if any(p in rel for p in LEGACY_PARTS):
                out.append(tried[-1])
    return out


def has_hwcaps(spec):
    return any("glibc-hwcaps/" in f["path"] for f in spec["files"])


def oracle_roots(spec, root, extra=()):
    """Executables of the tree (by real path), the plugin roots and the
    library roots linkguard lists (images nothing in the tree loads: check
    judges each, so the oracle dlopens each)."""
    out = {}

    for f in spec["files"]:
        if f["kind"] in ("exe", "pie") or f["path"].startswith("plugins/"):
            p = os.path.join(root, f["path"])
            out.setdefault(os.path.realpath(p), (f["path"], f["kind"] != "lib" and f["kind"] != "nodlopen"))
    for rel in extra:
        p = os.path.join(root, rel)
        if os.path.isfile(p) and is_x86_64_dyn(p):
            out.setdefault(os.path.realpath(p), (rel, False))
    return out


def is_x86_64_dyn(p):
    """An ELF64 ET_DYN for x86-64: what dlopen could load (an ET_REL .o is
    listed by linkguard as an image, but nothing loads it)."""
    with open(p, "rb") as fh:
        h = fh.read(20)
    return (len(h) == 20 and h[:4] == b"\x7fELF" and h[4] == 2 and
            struct.unpack_from("<HH", h, 16) == (3, 62))


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def run_oracle(pool, spec, root, work, extra=()):
    roots = oracle_roots(spec, root, extra)
    ns = needs_namespace(spec)
    hw = has_hwcaps(spec)
    names = sorted({os.path.basename(f["path"]) for f in spec["files"]} |
                   {n for f in spec["files"] for n in f.get("needed", [])} - {"libc.so.6"})
    hostcopies = os.path.join(work, "hostcopies")
    empty = os.path.join(work, "emptycwd")
    os.makedirs(empty, exist_ok=True)
    if ns:
        os.makedirs(hostcopies, exist_ok=True)
        # A runtime name (BASELINE) in an absolute directory is the
        # machine's own C library (docs/check.md), unless the tree ships a
        # copy of that name, which the machine's then displaces: only
        # then is it planted there (else run A would hide what the
        # current directory's copy does behind it).
        shipped = {os.path.basename(f["path"]) for f in spec["files"]}
        for n in names:
            if n not in BASELINE or n in shipped:
                shutil.copy(os.path.join(pool.d, "plain.so"), os.path.join(hostcopies, n))
        # The current directory and the directories above the tree also get
        # the runtime's own libc, a real copy (the process still runs):
        # ld.so takes it before the system's (linkguard: host-dependent).
        # An absolute directory does not: linkguard takes the C/C++
        # runtime behind one as the machine's own (docs/check.md).
        cwdcopies = os.path.join(work, "cwdcopies")
        os.makedirs(cwdcopies, exist_ok=True)
        for n in names:
            shutil.copy(os.path.join(pool.d, "plain.so"), os.path.join(cwdcopies, n))
        shutil.copy(os.path.realpath("/lib/x86_64-linux-gnu/libc.so.6"),
                    os.path.join(cwdcopies, "libc.so.6"))
    helper = os.path.join(pool.d, "dlopen")
    lines = ["exec 2>&1"]

    def runs(label, base, cwd, masks):
        lines.append("cd %s" % shq(cwd))
        for rp, (rel, is_exe) in sorted(roots.items()):
            path = os.path.join(base, rel)
            for m in masks:
                if is_exe:
                    cmd = ("%s --glibc-hwcaps-mask %s %s" % (LDSO, m, shq(path))) if m else shq(path)
                else:
                    cmd = ("%s --glibc-hwcaps-mask %s %s %s" % (LDSO, m, shq(helper), shq(path))) if m \
                        else "%s %s" % (shq(helper), shq(path))
                lines.append("echo '@@run %s %s %s'" % (label, m or "default", rel))
                # ld.so's own trace of the default run: the files it tried,
                # for the legacy subdirectories this CPU does not search.
                dbg = "LD_DEBUG=libs " if label == "A" and not m else ""
                lines.append("env -i %s%s </dev/null" % (dbg, cmd))
                lines.append("echo \"@@rc $?\"")
    masks = [None] + (MASKS if hw else [])
    # Every variant each root must have: a set-up step that failed (set -e)
    # ends the script, and the runs after it would be missing unnoticed.
    labels = (["A", "A2", "B"] + (["C"] if has_abs_link(spec) else [])) if ns else ["A"]
    expected = {"%s:%s" % (lb, m or "default") for lb in labels
                for m in ([None] if lb == "A2" else masks)}
    reloc = "/mnt/lgfuzz-reloc"
    if ns:
        # Run A: the host holds a copy of every name in each absolute
        # directory a tree searches: /srv/lgfuzz/lib (a tmpfs) and, over
        # /usr/lib/llvm-14/lib, an overlay whose copies shadow its files.
        lines += ["set -e", "mount -t tmpfs lgfuzz /srv", "mkdir -p %s" % HOST_SRV,
                  "cp %s/* %s/" % (shq(hostcopies), HOST_SRV),
                  "mount -t overlay lgfuzz -o lowerdir=%s:%s %s" % (
                      shq(hostcopies), HOST_LLVM, HOST_LLVM)]
        for d in outside_dirs(spec, root):
            lines += ["mkdir -p %s" % shq(d), "mount -t tmpfs lgfuzz %s" % shq(d),
                      "cp %s/* %s/" % (shq(cwdcopies), shq(d))]
        lines += ["set +e"]
        runs("A", root, cwdcopies, masks)
        # Run A2: /srv and /usr/lib/llvm-14/lib as the machine has them,
        # the current directory's copies still there: what a runtime name
        # behind both an absolute and an empty entry loads where the
        # machine has no copy in the first (run A's copy there hid the
        # current directory's; seeds 22853, 23282, 26297).
        overlay = "mount -t overlay lgfuzz -o lowerdir=%s:%s %s" % (
            shq(hostcopies), HOST_LLVM, HOST_LLVM)
        lines += ["set -e", "umount /srv", "umount %s" % HOST_LLVM,
                  "mount -t tmpfs lgfuzz /srv", "set +e"]
        runs("A2", root, cwdcopies, [None])
        lines += ["set -e", overlay, "set +e"]  # as run B's set-up expects it
        lines += ["set -e", "umount /srv", "umount %s" % HOST_LLVM, "mount -t tmpfs lgfuzz /srv",
                  "mount -t tmpfs lgfuzz %s" % HOST_LLVM,
                  "mount -t tmpfs lgfuzz /mnt", "mkdir -p %s" % reloc,
                  "mount --bind %s %s" % (shq(root), reloc),
                  "mount -t tmpfs lgfuzz %s" % shq(root), "set +e"]
        runs("B", reloc, empty, masks)
        if has_abs_link(spec):
            # Run C: the tree unpacked elsewhere while its old path still
            # holds another copy (the build machine, an older install): an
            # absolute link into the tree reaches that copy.
            lines += ["set -e", "cp -a %s/. %s/" % (reloc, shq(root)), "set +e"]
            runs("C", reloc, empty, masks)
        cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c", "\n".join(lines)]
    else:
        runs("A", root, empty, masks)
        cmd = ["sh", "-c", "\n".join(lines)]
    out = subprocess.run(cmd, capture_output=True, timeout=300).stdout.decode(errors="replace")
    # parse
    res = {}  # rel -> {variant: (ok, frozenset(map), errtext)}
    traces = {}  # rel -> ld.so's LD_DEBUG=libs lines of run A:default
    cur = None
    for line in out.split("\n"):
        if line.startswith("@@run "):
            _, lab, m, rel = line.split(" ", 3)
            cur = {"v": lab + ":" + m, "rel": rel, "maps": set(), "err": [], "loaded": False}
            continue
        if cur is None:
            continue
        if line.startswith("@@rc "):
            rc = int(line[5:])
            v = cur["v"]
            ok = rc == 0
            res.setdefault(cur["rel"], {})[v] = (ok, frozenset(cur["maps"]), "\n".join(cur["err"]))
            if "trace" in cur:
                traces[cur["rel"]] = cur["trace"]
            cur = None
            continue
        if line == "@@loaded" or line == "":
            continue
        if line.startswith("@@map "):
            p = line[6:]
            if not p:
                continue
            if p.startswith(root + "/") and cur["v"].startswith("C:"):
                p = OLDCOPY + p  # the old path's copy: outside the shipment
            elif p.startswith(reloc + "/"):
                p = root + p[len(reloc):]
            cur["maps"].add(p)
            cur["last"] = p
        elif line.startswith("@@real "):
            # The file the name led to, resolved in the run's own mounts:
            # in run C a path into the tree's old place is the other copy.
            r = line[7:]
            if cur["v"].startswith("C:") and r.startswith(root + "/") and cur.get("last"):
                cur["maps"].discard(cur["last"])
                cur["maps"].add(OLDCOPY + r)
        elif DEBUG_LINE.match(line):
            if cur["v"] == "A:default":
                cur.setdefault("trace", []).append(DEBUG_LINE.match(line).group(1))
        else:
            cur["err"].append(line)
    final = {}
    for rp, (rel, is_exe) in roots.items():
        vs = res.get(rel, {})
        d = vs.get("A:default")
        if d is None:
            final[rp] = {"rel": rel, "exe": is_exe, "ok": False, "err": "no run", "hostdep": False,
                         "tree": set(), "outside": set(), "variants": {}}
            continue
        ok, maps, err = d
        norm = {}
        for v, (o, m, e) in vs.items():
            norm[v] = (o, frozenset(classify_maps(m, root, helper)[0]) if o else frozenset(),
                       frozenset(machine_own(x) for x in classify_maps(m, root, helper)[1])
                       if o else frozenset())
        hostdep = len(set(norm.values())) > 1
        # glibc 2.37 dropped the legacy hwcaps subdirectories (tls/, x86_64/,
        # haswell/, avx512_1/) that this ld.so (2.36) searches: a root that
        # maps a file from one loads something else there.
        legacy = any(p in "/" + os.path.relpath(x, root) for v in norm.values()
                     for x in v[1] if x != rp for p in LEGACY_PARTS)
        # Mapped from a directory named like a legacy subdirectory is not
        # yet picked by the legacy search (a link in the directory itself
        # can lead there): a tolerance, not a demand. linkguard may say
        # host-dependent (the search order says glibc 2.37 goes elsewhere)
        # or not (the file was reached another way); both are judged by
        # the closure below.
        # A copy in a legacy subdirectory this CPU's ld.so does not search
        # (avx512_1/, haswell/, xeon_phi/ and their combinations) of a
        # directory it searched for that name: a CPU whose ld.so searches
        # it maps that copy instead.
        alt = legacy_alternative(traces.get(rel, []))
        # A dlopen root that fails here: a -z nodlopen copy another CPU
        # tries fails it the same way (seed 20578), no other load.
        if not is_exe and not ok:
            alt = [c for c in alt if not elf_nodlopen(c)]
        if alt:
            hostdep = True
            norm["legacy-alternative"] = (None, frozenset(alt), frozenset())
        legacy_only = legacy and not hostdep
        # What the search itself took from a legacy subdirectory (run A's
        # trace): unlike a real path through one, which a link can lead to.
        picked = legacy_searched(traces.get(rel, []), root)
        tree_maps, out_maps = classify_maps(maps, root, helper)
        if not is_exe:  # the dlopen helper's own libc
            out_maps = {x for x in out_maps if os.path.basename(x) != "libc.so.6"}
        final[rp] = {"missing_runs": sorted(expected - set(vs)),
                     "rel": rel, "exe": is_exe, "ok": ok, "err": err.strip(), "hostdep": hostdep,
                     "legacy_only": legacy_only, "legacy_searched": picked,
                     "tree": tree_maps, "outside": out_maps,
                     "variants": {v: {"ok": o, "tree": sorted(os.path.relpath(x, root) for x in t),
                                      "outside": sorted(s)} for v, (o, t, s) in norm.items()}}
    return final


def classify_maps(maps, root, helper):
    tree, outside = set(), set()
    for m in maps:
        if m.startswith("linux-vdso") or m in (LDSO, "/lib64/ld-linux-x86-64.so.2"):
            continue
        rp = os.path.realpath(m)
        if rp == os.path.realpath(LDSO) or rp == helper:
            continue
        # By the file reached: "TREE/bin/../../lib/x" is outside the tree.
        if rp.startswith(root + "/"):
            tree.add(rp)
        else:
            outside.add(m)
    return tree, outside


# --------------------------------------------------------------------------
# linkguard and the comparison
# --------------------------------------------------------------------------
def run_linkguard(lg, root):
    env = dict(os.environ, LINKGUARD_LOG="off")
    a = subprocess.run([lg, "inspect", "--tree", "--json", root], capture_output=True, env=env,
                       timeout=120)
    # The oracle is where ld.so loads each library, not what the libraries
    # define: every image of the pool defines lgf_value, so rule one-definer
    # (tests/e2e/one_definer.bash) is left out of the verdict compared.
    c = subprocess.run([lg, "check", "--portable", "--no-one-definer", "--json", root],
                       capture_output=True, env=env, timeout=120)
    # --unique openmp alone: no host-dependence verdict to stand behind
    # (compare: the machines' runtimes).
    u = subprocess.run([lg, "check", "--unique", "openmp", root], capture_output=True, env=env,
                       timeout=120)
    try:
        doc = json.loads(a.stdout)
    except ValueError:
        doc = None
    try:
        cdoc = json.loads(c.stdout)
    except ValueError:
        cdoc = None
    return doc, a.returncode, cdoc, c.returncode, u.returncode


def flatten(deps, out, parent=None):
    for d in deps:
        d["_parent"] = parent
        out.append(d)
        flatten(d.get("dependencies", []), out, d.get("file"))
    return out


OMP_KINDS = ("omp", "gomp")
SYSTEM_DIRS = ("/lib/x86_64-linux-gnu/", "/usr/lib/x86_64-linux-gnu/", "/lib64/", "/usr/lib64/")
# What every x86-64 glibc system has (the names linkguard may call "system"
# without shipping them). A run that needed anything else from outside the
# tree (Debian's libgomp.so.1, a copy in the current directory) loaded only
# because this host has it.
BASELINE = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1",
            "libresolv.so.2", "libutil.so.1", "ld-linux-x86-64.so.2"}


def compare(spec, root, oracle, doc, check_rc, unique_rc=None):
    """-> list of disagreements {kind, root, detail}."""
    dis = []
    omp_real = {os.path.realpath(os.path.join(root, f["path"])) for f in spec["files"]
                if f["kind"] in OMP_KINDS}
    # `check --unique openmp` (no --portable): a root that maps two OpenMP
    # runtimes on a machine the harness runs with nothing of the host's
    # planted (each glibc-hwcaps mask; run B where the tree needs the
    # namespace: the host's directories empty) is a violation there,
    # whatever the default run maps (a CPU between this one and the
    # baseline: 44395c2).
    if unique_rc == 0:
        ns = needs_namespace(spec)
        for rp, o in sorted(oracle.items()):
            for v, r in sorted(o.get("variants", {}).items()):
                if not r.get("ok") or not v.startswith("B:" if ns else "A:"):
                    continue
                n = len({os.path.realpath(os.path.join(root, t)) for t in r["tree"]} & omp_real)
                n += sum(1 for x in r["outside"]
                         if os.path.basename(x).startswith(("libomp", "libgomp", "libiomp")))
                if n >= 2:
                    dis.append({"kind": "false holds (--unique)", "root": o["rel"], "rp": rp,
                                "detail": "check --unique openmp exit 0; ld.so (%s) mapped %s" % (
                                    v, r["tree"] + r["outside"])})
                    break
    if doc is None:
        return [{"kind": "linkguard gave no JSON", "root": "", "detail": ""}]
    recs = {}
    for f in doc.get("files", []):
        if f.get("container"):
            continue
        recs.setdefault(os.path.realpath(f["path"] if os.path.isabs(f["path"])
                                         else os.path.join(root, f["path"])), f)
    omp_files = {os.path.realpath(os.path.join(root, f["path"])) for f in spec["files"]
                 if f["kind"] in OMP_KINDS}
    expect_holds = True
    tolerated = False  # a legacy-subdirectory host-dependence this ld.so cannot show
    for rp, o in sorted(oracle.items()):
        rel = o["rel"]
        rec = recs.get(rp)
        omp2 = o["ok"] and (len(o["tree"] & omp_files) + sum(
            1 for x in o["outside"] if os.path.basename(x).startswith(("libomp", "libgomp", "libiomp"))) >= 2)
        o["omp2"] = omp2
        if not o["ok"] or o["hostdep"] or omp2 or any(
                os.path.basename(x) not in BASELINE for x in o["outside"]):
            expect_holds = False
        if o.get("missing_runs"):
            dis.append({"kind": "harness: runs missing", "root": rel, "rp": rp,
                        "detail": ", ".join(o["missing_runs"])})
        if rec is None:
            dis.append({"kind": "root missing", "root": rel, "rp": rp, "detail": "ld.so: %s" % (
                "ok" if o["ok"] else o["err"])})
            continue
        deps = flatten(rec.get("dependencies", []), [])
        pl = [d.get("placement") for d in deps]
        hd = "host-dependent" in pl
        # A root the loader refuses itself (a -z nodlopen image dlopen
        # opens, a foreign PT_INTERP) is as bad as a failed dependency.
        bad = any(p in ("unresolved", "non-portable", "unknown") for p in pl) or bool(
            rec.get("refusals"))
        shipped = set()
        system = set()
        for d in deps:
            if d.get("placement") == "shipped" and d.get("file"):
                fp = d["file"] if os.path.isabs(d["file"]) else os.path.join(root, d["file"])
                shipped.add(os.path.realpath(fp))
            elif d.get("placement") == "system":
                system.add(os.path.basename(d.get("dependency", "")))
        if not o["exe"]:
            system.discard("libc.so.6")
        shipped.discard(rp)  # the root answers a need of its own by its soname
        lgsay = describe_lg(deps, root)
        hostlib = sorted(x for x in o["outside"] if os.path.basename(x) not in BASELINE)
        # Where run A differs from B only by a non-glibc library of this
        # host's system directories (Debian's libomp.so.5 links into the
        # /usr/lib/llvm-14/lib that B hides), "unresolved" is as right as
        # host-dependent, as it is for a run without the host entry.
        a = o.get("variants", {}).get("A:default") or {"outside": []}
        # By where it came from: a glibc name from the current directory or
        # a planted host directory is the host's copy, not the system's.
        # (The files as mapped, not as the variants compare them: a copy
        # planted in an absolute directory is no system directory's.)
        sysonly = all(x.startswith(SYSTEM_DIRS) for x in o["outside"])
        if o["hostdep"] and not (bad and sysonly and not any(
                k.startswith(("A:", "A2:")) and k != "A:default" and v != a for k, v in o["variants"].items())
                and "legacy-alternative" not in o["variants"]
                and not any(os.path.dirname(os.path.relpath(x, root)) != os.path.dirname(rel)
                            for x in o.get("legacy_searched", []))):
            # (A file beside the root is its $ORIGIN's, whatever its
            # directory is called: other/x86_64/ is no legacy subdirectory.
            # By the name ld.so's search tried, not the real path: a link
            # into haswell/ is found the same way by every glibc. A legacy
            # copy this CPU skips is host-dependence of its own.)
            if not hd:
                dis.append({"kind": "host-dependence missed (said %s)" % (
                            "a violation" if bad else "holds"), "root": rel, "rp": rp,
                            "detail": "ld.so variants: %s; linkguard: %s" % (
                                json.dumps(o["variants"], sort_keys=True), lgsay)})
        elif not o["ok"] or hostlib:
            if not (bad or hd):
                dis.append({"kind": "false shipped", "root": rel, "rp": rp,
                            "detail": "ld.so: %s; linkguard: %s" % (
                                o["err"] if not o["ok"] else "loaded %s from this host" % hostlib, lgsay)})
        else:
            tree = {x for x in o["tree"] if x != rp}
            outside = {os.path.basename(x) for x in o["outside"]}
            # A copy in a legacy subdirectory (tls/, x86_64/, haswell/,
            # xeon_phi/, avx512_1/) that some CPU or glibc before 2.37
            # picks: linkguard's host-dependent is right although this
            # ld.so (2.36, this CPU) shows one result.
            hdfiles = {os.path.realpath(d["file"] if os.path.isabs(d["file"]) else
                                        os.path.join(root, d["file"]))
                       for d in deps if d.get("placement") == "host-dependent" and d.get("file")}
            hdnames = {os.path.basename(d.get("dependency", "")) for d in deps
                       if d.get("placement") == "host-dependent"}
            def legacy_hd(d):
                return (d.get("placement") == "host-dependent" and
                        any(p in d.get("reason", "") for p in LEGACY_PARTS + ("/xeon_phi/",)) and
                        "only on machines whose ld.so searches that subdirectory" in
                        d.get("reason", ""))
            # What a legacy copy brings in loads only where that copy does:
            # its own findings are that machine's, not this one's.
            under = set()
            for d in deps:  # flatten: parents before children
                if d.get("_parent") in under or legacy_hd(d):
                    if d.get("file"):
                        under.add(d["file"])
                    d["_legacy"] = d.get("_parent") in under and not legacy_hd(d)
            bad_here = any(d.get("placement") in ("unresolved", "non-portable", "unknown") and
                           not d.get("_legacy") for d in deps) or bool(rec.get("refusals"))
            hd_legacy = hd and not bad_here and all(
                legacy_hd(d) for d in deps
                if d.get("placement") == "host-dependent" and not d.get("_legacy"))
            tolerated |= hd_legacy
            if (bad or hd) and not hd_legacy:
                dis.append({"kind": "false violation", "root": rel, "rp": rp,
                            "detail": "ld.so loaded %s; linkguard: %s" % (
                                sorted(os.path.relpath(x, root) for x in tree) + sorted(outside), lgsay)})
            elif hd_legacy and tree <= shipped | hdfiles and outside <= system | hdnames:
                pass  # the legacy copy or the baseline's: this ld.so shows one
            elif tree != shipped or outside != system:
                dis.append({"kind": "closure differs", "root": rel, "rp": rp,
                            "detail": "ld.so mapped %s + system %s; linkguard: %s" % (
                                sorted(os.path.relpath(x, root) for x in tree), sorted(outside), lgsay)})
    for rp, rec in recs.items():
        if rp not in oracle and rec.get("arch") in ("x86_64", "x86-64") and rec.get("executable"):
            dis.append({"kind": "root extra", "root": os.path.relpath(rp, root), "detail": ""})
    omp2_any = any(o.get("omp2") for o in oracle.values())
    if check_rc == 0 and not expect_holds:
        dis.append({"kind": "false holds", "root": "", "detail": "check --portable exit 0"})
    elif check_rc != 0 and expect_holds and not tolerated and not (
            check_rc == 65 and any(f["kind"] == "short" for f in spec["files"])):
        # (65: a file of the tree that starts like an ELF file and is cut
        # short is unreadable, which check reports whether or not a root
        # loads it: fail closed, never a false alarm.)
        dis.append({"kind": "false alarm", "root": "", "detail": "check --portable exit %d" % check_rc})
    return dis


ERRS = [("cannot be dlopen()ed", "DF_1_NOOPEN image as a dlopen root"),
        ("file too short", "open_verify: an empty/short candidate ends the search"),
        ("invalid ELF header", "open_verify: a non-ELF candidate ends the search"),
        ("only ET_DYN and ET_EXEC", "open_verify: an ET_REL candidate ends the search"),
        ("Error 21", "open_verify: a directory candidate ends the search"),
        ("Is a directory", "open_verify: a directory candidate ends the search"),
        ("position-independent executable", "a PIE chosen as a dependency is fatal")]
KIND_CAUSE = {"empty": ERRS[1][1], "short": ERRS[1][1], "text": ERRS[2][1], "obj": ERRS[3][1],
              "dir": ERRS[4][1], "pie": ERRS[6][1],
              "aarch64": "wrong machine/class: ld.so skips the candidate, linkguard ships it",
              "i386": "wrong machine/class: ld.so skips the candidate, linkguard ships it"}
LEGACY_PARTS = ("/tls/", "/x86_64/", "/haswell/", "/avx512_1/")


def cause_of(spec, root, oracle, doc, d):
    """A best guess at the ld.so rule behind a disagreement (for the table;
    the minimized reproducer is the evidence)."""
    byreal = {}
    for f in spec["files"]:
        if f["kind"] != "symlink":
            byreal[os.path.realpath(os.path.join(root, f["path"]))] = f
    k = d["kind"]
    if k in ("false holds", "false alarm"):
        if any(o.get("omp2") for o in oracle.values()):
            return "two OpenMP runtimes mapped in one process"
        return "verdict follows the roots' causes"
    o = oracle.get(d.get("rp"))
    if o is None:
        return k
    rec = None
    for f in (doc or {}).get("files", []):
        if os.path.realpath(f["path"]) == d.get("rp"):
            rec = f
    deps = flatten(rec.get("dependencies", []), [], rec["path"]) if rec else []

    def search_cause(name):
        for dep in deps:
            if dep.get("dependency") != name or dep.get("placement") != "shipped":
                continue
            f = byreal.get(os.path.realpath(dep.get("file") or ""))
            if f and f["kind"] in KIND_CAUSE:
                return KIND_CAUSE[f["kind"]] + " (linkguard ships it)"
            req = byreal.get(os.path.realpath(dep["_parent"] or ""))
            via = dep.get("via") or ""
            if req is None:
                return "search: requester not in the tree spec"
            if req.get("after_null") == name:
                return "DT_NEEDED after DT_NULL (ld.so stops reading .dynamic there)"
            tag, _, ent = via.partition(" ")
            own_rp = (req.get("rpath") or "").split(":") if req.get("rpath") is not None else []
            own_ru = (req.get("runpath") or "").split(":") if req.get("runpath") is not None else []
            if req.get("dup_runpath") is not None:
                return "a twice-given DT_RPATH/DT_RUNPATH (ld.so: the last wins)"
            if tag == "DT_RPATH" and req.get("runpath") is not None:
                return "DT_RPATH used although the requester has DT_RUNPATH"
            if tag == "DT_RUNPATH" and ent not in own_ru:
                return "DT_RUNPATH of another object used (ld.so: the requester's only)"
            if tag == "DT_RPATH" and ent not in own_rp:
                return "DT_RPATH of an object that is not the requester's loader chain"
            if any(x["kind"] == "symlink" and os.path.realpath(os.path.join(root, x["path"])) ==
                   os.path.realpath(os.path.join(root, req["path"])) for x in spec["files"]):
                return "$ORIGIN of an object reached through a symbolic link"
            return "search order (breadth-first / reuse by soname / l_loader chain)"
        return "linkguard found no shipped copy"

    if k.startswith("host-dependence"):
        vs = o.get("variants", {})
        a = vs.get("A:default")
        if any(v != a for key, v in vs.items() if key.startswith("A:")):
            return "hwcaps: another x86-64 level maps another copy"
        if any(p in "/" + x for v in vs.values() for x in v["tree"] for p in LEGACY_PARTS):
            return "legacy hwcaps subdirectory (tls/, x86_64/; glibc < 2.37 only)"
        outs = a["outside"] if a else []
        if any(x.startswith(("/srv/", HOST_LLVM)) for x in outs):
            return "absolute search entry reaches the host"
        if any(not x.startswith("/") for x in outs):
            return "empty search entry (the current directory)"
        return "absolute symbolic link / moved tree"
    if not o["ok"]:
        err = o["err"]
        m = None
        for pat, c in ERRS:
            if pat in err:
                m = c
        if "wrong ELF class" in err:
            m = KIND_CAUSE["i386"]
        if m and "shared libraries: /" not in err and "dlopen: /" not in err and m != ERRS[0][1]:
            # the error names a candidate path: an earlier candidate; else the name
            pass
        if m:
            return m
        if "cannot open shared object file" in err:
            name = err.split(": cannot open")[0].rsplit(": ", 1)[-1]
            return search_cause(name)
        return "ld.so: " + err[-80:]
    hostlib = sorted(x for x in o["outside"] if os.path.basename(x) not in BASELINE)
    if hostlib:
        return search_cause(os.path.basename(hostlib[0]))
    shipped = {os.path.realpath(x.get("file")) for x in deps
               if x.get("placement") == "shipped" and x.get("file")}
    tree = {x for x in o["tree"] if x != d.get("rp")}
    # glibc elf/get-dynamic-info.h: reading .dynamic stops at the first DT_NULL
    for dep in deps:
        par = byreal.get(os.path.realpath(dep["_parent"] or ""))
        if par and par.get("after_null") == dep.get("dependency"):
            return "DT_NEEDED after DT_NULL (ld.so stops reading .dynamic there)"
    # ld.so's _dl_map_object reuses a loaded object whose name or DT_SONAME
    # matches (the root's own soname too) before it searches
    by_soname = {}
    for x in set(tree) | {d.get("rp")}:
        f = byreal.get(x)
        if f and f.get("soname"):
            by_soname.setdefault(f["soname"], x)
    for dep in deps:
        n = dep.get("dependency")
        if n in by_soname and os.path.basename(by_soname[n]) != n and (
                dep.get("placement") != "shipped" or
                               os.path.realpath(dep.get("file") or "") != by_soname[n]):
            return "reuse by soname: a loaded object's DT_SONAME (its own too) satisfies the name"
    if k == "false violation":
        # a name linkguard could not place: where did ld.so find it?
        for dep in deps:
            if dep.get("placement") in ("unresolved", "non-portable", "unknown", "host-dependent"):
                n = dep.get("dependency")
                req = byreal.get(os.path.realpath(dep["_parent"] or ""))
                if (req and req.get("soname") == n) or any(
                        (byreal.get(x) or {}).get("soname") == n for x in tree):
                    return "reuse by soname: a loaded object's DT_SONAME (its own too) satisfies the name"
                hits = [x for x in tree if os.path.basename(x) == n or
                        (byreal.get(x) or {}).get("soname") == n]
                if any("/glibc-hwcaps/" in x for x in hits):
                    return "glibc-hwcaps subdirectory"
                if any(p in x for x in hits for p in LEGACY_PARTS):
                    return "legacy hwcaps subdirectory (tls/, x86_64/)"
                if hits:
                    req = byreal.get(os.path.realpath(dep["_parent"] or ""))
                    if req and req.get("rpath") is not None and req.get("runpath") is None:
                        return ("DT_RPATH of the loader chain (l_loader) not followed, or an already "
                                "loaded object reused by name")
                    return ("ld.so reuses an already loaded object by name, or finds a copy linkguard "
                            "does not (%s)" % dep.get("placement"))
                return "linkguard says %s for a name ld.so loaded from outside the tree" % dep.get("placement")
    both = (tree - shipped) | (shipped - tree)
    if any("/glibc-hwcaps/" in x for x in both):
        return "glibc-hwcaps subdirectory"
    if any(p in x for x in both for p in LEGACY_PARTS):
        return "legacy hwcaps subdirectory (tls/, x86_64/)"
    if any(os.path.basename(x) in BASELINE for x in tree - shipped):
        return "a system name shipped in the tree (ld.so loads the tree's copy)"
    for x in sorted(tree - shipped):
        f = byreal.get(x)
        if f and f.get("soname") and f["soname"] != os.path.basename(x):
            return "reuse by soname"
    for x in sorted(shipped - tree):
        f = byreal.get(x)
        if f and f["kind"] in KIND_CAUSE:
            return KIND_CAUSE[f["kind"]] + " (linkguard ships it)"
    names = sorted({os.path.basename(x) for x in both})
    return search_cause(names[0]) if names else "placement (%s)" % k


def describe_lg(deps, root):
    out = []
    for d in deps:
        s = "%s=%s" % (d.get("dependency"), d.get("placement"))
        if d.get("file"):
            s += "(%s via %s)" % (os.path.relpath(d["file"], root), d.get("via"))
        elif d.get("resolvedPath"):
            s += "(%s)" % d["resolvedPath"]
        out.append(s)
    return ", ".join(out) or "no dependencies"


# --------------------------------------------------------------------------
# driving
# --------------------------------------------------------------------------
_POOL = None


def judge(spec, lg, keep=None):
    global _POOL
    if _POOL is None:
        _POOL = Pool(build_pool(pool_dir()))
    base = keep or tempfile.mkdtemp(prefix="lgldso.", dir=os.environ.get("LDSO_TMP"))
    os.makedirs(base, exist_ok=True)
    root = os.path.realpath(os.path.join(base, "tree%s" % spec.get("seed", "")))
    work = os.path.join(base, "work")
    os.makedirs(work, exist_ok=True)
    try:
        build_tree(_POOL, spec, root)
        doc, irc, cdoc, crc, urc = run_linkguard(lg, root)
        extra = []
        for f in (doc or {}).get("files", []):
            if not f.get("executable") and f.get("arch") == "x86_64" and not f.get("container"):
                extra.append(os.path.relpath(f["path"], root))
        oracle = run_oracle(_POOL, spec, root, work, extra)
        dis = compare(spec, root, oracle, doc, crc, urc)
        for d in dis:
            d["cause"] = cause_of(spec, root, oracle, doc, d)
        return {"seed": spec.get("seed"), "name": spec.get("name"), "shapes": shapes_of(spec),
                "disagreements": dis, "check_rc": crc,
                "oracle": {o["rel"]: {"ok": o["ok"], "err": o["err"], "hostdep": o["hostdep"]}
                           for o in oracle.values()}}
    finally:
        if not keep:
            shutil.rmtree(base, ignore_errors=True)


def judge_seed(args):
    seed, lg = args
    try:
        return judge(gen_spec(seed), lg)
    except Exception as e:  # a harness failure is reported, never hidden
        return {"seed": seed, "shapes": [], "disagreements": [
            {"kind": "harness error", "root": "", "detail": repr(e)}]}


def minimize(spec, lg, want):
    """Greedy: drop files, names, search entries and tags while a
    disagreement whose kind + cause is `want` remains."""
    def still(sp):
        try:
            r = judge(sp, lg)
        except Exception:
            return False
        return any((d["kind"] + " / " + d.get("cause", "")) == want for d in r["disagreements"])
    cur = json.loads(json.dumps(spec))
    assert still(cur), "the seed does not show: " + want
    changed = True
    while changed:
        changed = False
        i = 0
        while i < len(cur["files"]):
            t = json.loads(json.dumps(cur))
            del t["files"][i]
            if still(t):
                cur, changed = t, True
            else:
                i += 1
        for i, f in enumerate(cur["files"]):
            for key in ("after_null", "dup_runpath", "rpath", "runpath", "soname", "absolute"):
                if f.get(key) is not None and f.get(key) is not False:
                    t = json.loads(json.dumps(cur))
                    t["files"][i].pop(key)
                    if still(t):
                        cur, changed = t, True
            j = 0
            while j < len(cur["files"][i].get("needed", [])):
                t = json.loads(json.dumps(cur))
                del t["files"][i]["needed"][j]
                if still(t):
                    cur, changed = t, True
                else:
                    j += 1
            for key in ("rpath", "runpath", "dup_runpath"):
                v = cur["files"][i].get(key)
                if v is None:
                    continue
                ents = v.split(":")
                j = 0
                while len(ents) > 1 and j < len(ents):
                    t = json.loads(json.dumps(cur))
                    t["files"][i][key] = ":".join(ents[:j] + ents[j + 1:])
                    if still(t):
                        cur, changed, ents = t, True, ents[:j] + ents[j + 1:]
                    else:
                        j += 1
    return cur


def parse_seeds(s):
    out = []
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        else:
            out.append(int(part))
    return out


def report(results, out=sys.stdout, limit=3):
    counts, kinds = {}, {}
    causes = {}
    for r in results:
        for s in r["shapes"]:
            counts[s] = counts.get(s, 0) + 1
        for d in r["disagreements"]:
            kinds.setdefault(d["kind"], []).append((r.get("seed"), r.get("name"), d))
            causes.setdefault(d.get("cause", "?"), []).append((r.get("seed"), r.get("name"), d))
    print("trees: %d  with disagreements: %d" % (
        len(results), sum(1 for r in results if r["disagreements"])), file=out)
    print("shapes (trees exercising each):", file=out)
    for s in sorted(counts):
        print("  %-24s %d" % (s, counts[s]), file=out)
    print("disagreements by kind:", file=out)
    for k in sorted(kinds):
        print("  %-24s %d" % (k, len(kinds[k])), file=out)
        for seed, name, d in kinds[k][:limit]:
            print("    %s %s: %s" % (name or "seed %s" % seed, d["root"], d["detail"][:600]), file=out)
    print("disagreements by cause (trees):", file=out)
    for c in sorted(causes, key=lambda c: -len({x[0] for x in causes[c]})):
        seeds = sorted({x[0] for x in causes[c] if x[0] is not None})
        print("  %4d  %s  (seeds %s)" % (len({(x[0], x[1]) for x in causes[c]}), c,
                                          " ".join(map(str, seeds[:8]))), file=out)
    return counts, kinds


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--seeds", default="1-150")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json")
    p.add_argument("--min-shape", type=int, default=0,
                   help="fail when a shape was exercised by fewer trees")
    p.add_argument("--limit", type=int, default=3)
    p = sub.add_parser("case")
    p.add_argument("files", nargs="+")
    p.add_argument("--keep")
    p = sub.add_parser("spec")
    p.add_argument("seed", type=int)
    p = sub.add_parser("build")
    p.add_argument("what")
    p.add_argument("dir")
    p = sub.add_parser("judge")
    p.add_argument("what")
    p.add_argument("--keep")
    p = sub.add_parser("pool")
    p = sub.add_parser("minimize")
    p.add_argument("seed", type=int)
    p.add_argument("want", help="'KIND / CAUSE' as `run --json` records them")
    p.add_argument("out")
    p.add_argument("--note", default="")
    a = ap.parse_args()
    lg = os.environ.get("LINKGUARD_BIN", "linkguard")
    if a.cmd == "pool":
        print(build_pool(pool_dir()))
        return 0
    if a.cmd == "minimize":
        spec = minimize(gen_spec(a.seed), lg, a.want)
        spec = {"seed": a.seed, "shows": a.want, "note": a.note, "files": spec["files"]}
        with open(a.out, "w") as fh:
            json.dump(spec, fh, indent=1)
            fh.write("\n")
        r = judge(spec, lg)
        print(json.dumps(r["disagreements"], indent=1))
        return 0
    if a.cmd == "spec":
        print(json.dumps(gen_spec(a.seed), indent=1))
        return 0
    if a.cmd in ("build", "judge"):
        spec = json.load(open(a.what)) if a.what.endswith(".json") else gen_spec(int(a.what))
        if a.cmd == "build":
            pool = Pool(build_pool(pool_dir()))
            build_tree(pool, spec, os.path.abspath(a.dir))
            return 0
        r = judge(spec, lg, a.keep)
        print(json.dumps(r, indent=1))
        return 1 if r["disagreements"] else 0
    build_pool(pool_dir())
    probe_dir = tempfile.mkdtemp(prefix="lgldso-probe.", dir=os.environ.get("LDSO_TMP"))
    doc = run_linkguard(lg, probe_dir)[0]
    os.rmdir(probe_dir)
    if doc is None:  # not linkguard (a copy under another name is a compiler masquerade)
        print("%s inspect --tree --json gave no JSON: not a linkguard binary?" % lg, file=sys.stderr)
        return 2
    if a.cmd == "case":
        results = []
        for fn in a.files:
            spec = json.load(open(fn))
            spec["name"] = os.path.basename(fn)[:-5]
            results.append(judge(spec, lg, a.keep))
        report(results, limit=100)
        return 1 if any(r["disagreements"] for r in results) else 0
    seeds = parse_seeds(a.seeds)
    t0 = time.time()
    with ProcessPoolExecutor(a.jobs) as ex:
        results = list(ex.map(judge_seed, [(s, lg) for s in seeds], chunksize=4))
    dt = time.time() - t0
    counts, kinds = report(results, limit=a.limit)
    print("time: %.1f s for %d trees (%.1f s per 1,000, %d jobs)" % (
        dt, len(seeds), dt * 1000 / max(1, len(seeds)), a.jobs))
    if a.json:
        json.dump(results, open(a.json, "w"), indent=0)
    st = 1 if any(r["disagreements"] for r in results) else 0
    if a.min_shape:
        few = [s for s, n in counts.items() if n < a.min_shape]
        if few:
            print("shapes exercised by fewer than %d trees: %s" % (a.min_shape, few))
            st = 1
    return st


if __name__ == "__main__":
    sys.exit(main())
