#!/usr/bin/env python3
"""Writes issue 37's crafted ELF tree (part 5: the closure's bound).

    crafted_runpath.py OUT [--entries 4000] [--names 200] [--links 38]

OUT/app is an ~80 KB x86-64 executable whose DT_RUNPATH has ENTRIES
entries, $ORIGIN/l0/d0 ... $ORIGIN/l0/d3999, and which needs NAMES
libraries (libcrafted0.so ...) that no entry holds. OUT/l0 is the head of a
chain of LINKS symbolic links (l0 -> l1 -> ... -> lib; Linux follows 40),
and OUT/lib/d0 ... are real, empty directories: every entry is a directory
that exists, reached through the whole chain, so neither "no such
directory" nor a cache of missing directories ends a name's search early.
A loader (or linkguard) tries entries x names candidates, each through
LINKS links, before it can say that no name resolves.

Built with clang-19 and lld (the stub libraries that give the DT_NEEDED
entries are removed afterwards). scripts/bench measures check --portable
on OUT/app (a file) and OUT (a tree) against the bound of issue 37.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--entries", type=int, default=4000)
    ap.add_argument("--names", type=int, default=200)
    ap.add_argument("--links", type=int, default=38)
    ap.add_argument("--clang", default=os.environ.get("CLANG", "clang-19"))
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "lib"))
    for i in range(a.entries):
        os.mkdir(os.path.join(out, "lib", f"d{i}"))
    # l0 -> l1 -> ... -> l{links-1} -> lib: LINKS links.
    for k in range(a.links):
        target = f"l{k + 1}" if k + 1 < a.links else "lib"
        os.symlink(target, os.path.join(out, f"l{k}"))
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.c")
        with open(empty, "w") as f:
            f.write("int crafted_stub;\n")
        obj = os.path.join(tmp, "empty.o")
        subprocess.run([a.clang, "-fPIC", "-c", empty, "-o", obj], check=True)
        stubs = os.path.join(tmp, "stubs")
        os.mkdir(stubs)
        # lld itself (the one beside clang), not the driver: 200 links.
        clang_dir = os.path.dirname(shutil.which(a.clang) or a.clang)
        lld = shutil.which("ld.lld", path=clang_dir) or shutil.which("ld.lld-19") or "ld.lld"
        for j in range(a.names):
            name = f"libcrafted{j}.so"
            subprocess.run([lld, "-shared", obj, "-soname", name,
                            "-o", os.path.join(stubs, name)], check=True)
        main_c = os.path.join(tmp, "main.c")
        with open(main_c, "w") as f:
            f.write("int main(void) { return 0; }\n")
        runpath = ":".join(f"$ORIGIN/l0/d{i}" for i in range(a.entries))
        # In a response file: one argument may not pass 128 KiB (execve).
        rsp = os.path.join(tmp, "link.rsp")
        with open(rsp, "w") as f:
            f.write("-Wl,--no-as-needed\n")
            f.writelines(f"-l:libcrafted{j}.so\n" for j in range(a.names))
            f.write(f"-Wl,--enable-new-dtags '-Wl,-rpath,{runpath}'\n")
        subprocess.run([a.clang, "-fuse-ld=lld", main_c, "-o", os.path.join(out, "app"),
                        "-L" + stubs, "@" + rsp], check=True)
    size = os.path.getsize(os.path.join(out, "app"))
    print(f"{out}/app: {size} bytes, {a.entries} DT_RUNPATH entries, {a.names} names, "
          f"a {a.links}-link chain")


if __name__ == "__main__":
    sys.exit(main())
