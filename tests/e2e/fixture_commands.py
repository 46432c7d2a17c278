#!/usr/bin/env python3
"""Turn the cpp_builder fixture lines into commands that really run here.

Reads tests/data/cpp_builder_darwin_mps.txt (the copy of
../shared/fixtures/cpp_builder_darwin_mps.txt), splits each command with
shlex as cpp_builder does, and rewrites only what must point at this test's
files: sources and objects become the test-built model, outputs go to OUTDIR,
and the Mach-O cross-link flags (-target, -isysroot, -fuse-ld=lld, -L to the
.tbd stubs) are appended. Flags that decide the rule are left untouched.

Writes OUTDIR/<name>.args (NUL-separated arguments, without the compiler
word) and prints "name phase inject" lines.
"""
import os
import shlex
import sys


def entries(path):
    name = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                fields = [x.strip() for x in line[3:].split("|")]
                name = fields[0]
                labels = dict(x.split("=", 1) for x in fields[1:])
            elif name and line.strip():
                yield name, labels["phase"], labels["inject"], shlex.split(line)
                name = None


def rewrite(args, model, sdk, outdir, name):
    out = []
    objects = iter(["model.wrapper.o", "model.kernel.o", "model.consts.o"])
    skip_next = False
    for i, a in enumerate(args):
        if skip_next:
            skip_next = False
            continue
        if a == "-o":
            target = args[i + 1]
            ext = os.path.splitext(target)[1] or ".out"
            out += ["-o", os.path.join(outdir, name + ext)]
            skip_next = True
        elif a.endswith(".o"):
            out.append(os.path.join(model, next(objects)))
        elif a.endswith(".cpp"):
            out.append(os.path.join(model, "model.kernel.cpp"))
        elif a.endswith(".h"):
            out.append(os.path.join(model, "hdr.h"))
        else:
            out.append(a)
    out += ["-target", "arm64-apple-macos11", "-isysroot", sdk, "-fuse-ld=lld",
            "-L" + os.path.join(sdk, "omp")]
    return out


def main():
    fixtures, model, sdk, outdir = sys.argv[1:5]
    for name, phase, inject, argv in entries(fixtures):
        args = argv[1:]
        if phase != "probe":
            args = rewrite(args, model, sdk, outdir, name)
        with open(os.path.join(outdir, name + ".args"), "wb") as f:
            for a in args:
                f.write(a.encode() + b"\0")
        print(name, phase, inject)


if __name__ == "__main__":
    main()
