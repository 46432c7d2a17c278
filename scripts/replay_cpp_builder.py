#!/usr/bin/env python3
"""Replay a PyTorch inductor cpp_builder AOT build for macOS/MPS, without torch.

A real client for linkguard: it runs the commands the way
torch/_inductor/cpp_builder.py does, so a wrapper that works here works
under cpp_builder too:

  * the compiler is $CXX (cpp_builder's config.cpp.cxx default on macOS is
    "clang++"), probed with [CXX, "--version"] as cpp_compiler_search does
    (so CXX must be one executable, not "ccache clang++");
  * each command is one string in CppBuilder.get_command_line's order,
      {compiler} {sources} {definitions} {cflags} {includes} {passthrough} {output}
    plus " {ldflags} {libraries} {library dirs}" on the link only;
    definitions render as "-D NAME " (some with an extra space, "-D  USE_MPS");
  * it is run as _run_compile_cmd runs it: shlex.split, then
    subprocess.run(cmd, cwd=<output_dir>/<name>_CxxBuild, check=True,
    stdout=PIPE, stderr=STDOUT), environment inherited;
  * AOT mode: wrapper, kernel and constants are compiled with "-c -o x.o",
    then the objects are linked with "-o model.so".

The cross-target flags (-target arm64-apple-macos11 -isysroot SDK
-fuse-ld=lld) ride in the passthrough slot, and -nostdlib++ in ldflags,
because the test SDK has no libc++ stub.

usage: replay_cpp_builder.py --sdk DIR [--omp-dir DIR] [--expect dropped|kept]
                             [--uses-openmp] [--otool PATH] [--keep]
Exit status: 0 when the build succeeds (and matches --expect), 1 when the
result differs from --expect, 2 when a command fails (its output printed).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

WRAPPER = """\
// Shaped like an AOTInductor wrapper: the entry points a runner dlopens.
extern "C" int aoti_torch_mps_set_arg(void *handle, int index, void *tensor);
extern "C" float model_kernel(const float *in, int n);
extern "C" const float model_constants[4];
extern "C" int AOTInductorModelContainerRun(void *handle, float *out) {
  aoti_torch_mps_set_arg(handle, 0, out);
  *out = model_kernel(model_constants, 4);
  return 0;
}
"""
KERNEL = """\
extern "C" float model_kernel(const float *in, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  return s;
}
"""
KERNEL_OMP = """\
extern "C" int omp_get_max_threads(void);
extern "C" float model_kernel(const float *in, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  return s * (float)omp_get_max_threads();
}
"""
CONSTS = 'extern "C" const float model_constants[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n'

# BuildOption contents for an MPS AOT build on macOS, as cpp_builder renders
# them (../shared/fixtures/cpp_builder_darwin_mps.txt).
DEFINITIONS = ["TORCH_INDUCTOR_CPP_WRAPPER", "STANDALONE_TORCH_HEADER",
               " C10_USING_CUSTOM_GENERATED_MACROS", " USE_MPS"]
CFLAGS = ["shared", "fPIC", "undefined dynamic_lookup", "O3", "DNDEBUG",
          "Wall", "std=c++17", "Wno-unused-variable", "Wno-unknown-pragmas",
          "Xclang -fopenmp"]
LIBRARIES = ["omp"]


def command_line(compiler, sources, output_flags, target, passthrough,
                 do_link, ldflags=(), lib_dirs=()):
    """CppBuilder.__init__ + get_command_line for a non-Windows host."""
    definitions_args = "".join(f"-D {d} " for d in DEFINITIONS)
    cflags_args = "".join(f"-{c} " for c in CFLAGS)
    include_dirs_args = ""
    passthrough_args = "".join(f"{p} " for p in passthrough)
    output = f"{output_flags} {target}"
    cmd = (f"{compiler} {sources} {definitions_args} {cflags_args} "
           f"{include_dirs_args} {passthrough_args} {output}")
    if do_link:
        ldflags_args = "".join(f"-{f} " for f in ldflags)
        libraries_args = "".join(f"-l{lib} " for lib in LIBRARIES)
        libraries_dirs_args = "".join(f"-L{d} " for d in lib_dirs)
        cmd += f" {ldflags_args} {libraries_args} {libraries_dirs_args}"
    return cmd


def run_compile_cmd(cmd_line, cwd):
    """cpp_builder._run_compile_cmd, minus the OpenMP hint."""
    cmd = shlex.split(cmd_line)
    try:
        subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    except subprocess.CalledProcessError as e:
        sys.stderr.write(f"replay: command failed ({e.returncode}): {cmd_line}\n")
        sys.stderr.write(e.stdout.decode("utf-8", "replace"))
        sys.exit(2)


def build(name, sources, output_flags, ext, output_dir, **kw):
    """CppBuilder.build: a <name>_CxxBuild cwd, created and removed."""
    target = os.path.join(output_dir, name + ext)
    tmp = os.path.join(output_dir, f"{name}_CxxBuild")
    os.makedirs(tmp, exist_ok=True)
    cmd = command_line(kw.pop("compiler"), " ".join(sources), output_flags,
                       target, **kw)
    print(f"replay: {cmd}")
    run_compile_cmd(cmd, cwd=tmp)
    shutil.rmtree(tmp)
    return target


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sdk", required=True, help="dir with usr/lib/libSystem.tbd")
    ap.add_argument("--omp-dir", help="dir with libomp.tbd (default SDK/omp)")
    ap.add_argument("--expect", choices=["dropped", "kept"],
                    help="whether libomp must be gone from the model")
    ap.add_argument("--uses-openmp", action="store_true",
                    help="the kernel calls omp_get_max_threads")
    ap.add_argument("--otool", default="/usr/lib/llvm-19/bin/llvm-otool")
    ap.add_argument("--keep", action="store_true", help="keep the output dir")
    args = ap.parse_args()
    sdk = os.path.abspath(args.sdk)
    omp_dir = os.path.abspath(args.omp_dir or os.path.join(sdk, "omp"))

    compiler = os.environ.get("CXX", "clang++")
    # cpp_compiler_search: the compiler must answer [CXX, "--version"].
    version = subprocess.check_output([compiler, "--version"]).decode()
    print(f"replay: CXX={compiler}: {version.splitlines()[0]}")
    # Off macOS, _is_clang is a regex on the compiler string; on macOS the
    # -undefined dynamic_lookup flags also hinge on "clang" in the name.
    if not re.search(r"(clang|clang\+\+)", compiler):
        sys.stderr.write(f"replay: warning: {compiler} does not look like clang "
                         "to cpp_builder\n")

    output_dir = tempfile.mkdtemp(prefix="replay_cpp_builder.")
    try:
        sources = {"wrapper": WRAPPER,
                   "kernel": KERNEL_OMP if args.uses_openmp else KERNEL,
                   "consts": CONSTS}
        passthrough = ["-target arm64-apple-macos11", f"-isysroot {sdk}",
                       "-fuse-ld=lld"]
        objects = []
        for part, text in sources.items():
            src = os.path.join(output_dir, f"cmodel.{part}.cpp")
            with open(src, "w") as f:
                f.write(text)
            objects.append(build(f"cmodel.{part}", [src], "-c -o", ".o",
                                 output_dir, compiler=compiler,
                                 passthrough=passthrough, do_link=False))
        so = build("cmodel", objects, "-o", ".so", output_dir,
                   compiler=compiler, passthrough=passthrough, do_link=True,
                   ldflags=["nostdlib++"], lib_dirs=[omp_dir])

        deps = subprocess.check_output([args.otool, "-L", so]).decode()
        print(deps, end="")
        has_omp = "libomp" in deps
        print(f"replay: libomp {'kept' if has_omp else 'dropped'}")
        if args.expect and (args.expect == "kept") != has_omp:
            sys.stderr.write(f"replay: expected libomp {args.expect}\n")
            return 1
        return 0
    finally:
        if args.keep:
            print(f"replay: output kept in {output_dir}")
        else:
            shutil.rmtree(output_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
