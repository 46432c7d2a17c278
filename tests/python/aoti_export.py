"""The real thing (scripts/portability aoti, in a Debian 13 chroot with its
python3-torch): export a small model with AOTInductor through one of the
documented recipes, load it, compare with eager, and prove from
linkguard's log that every compile and link step inductor ran went through
linkguard and reached the real compiler unchanged.

    python aoti_export.py WORKDIR [use|cxx|run]

  use  linkguard.inductor.use() (the default);
  cxx  CXX=<prefix>/bin/linkguard-g++ set by the caller (README, Linux);
  run  started as `linkguard run -- python aoti_export.py WORKDIR run`.
For cxx and run, inductor names $CXX, which must be the GCC drop-in: its
name test then takes it for g++ and adds g++'s own flags, which g++ gets.

Every command inductor starts is recorded (subprocess.Popen, which
subprocess.run/check_output use); each one it started through the drop-in
must appear in linkguard's trace log as a plan that ran the real compiler
with exactly the same arguments and appended nothing, and vice versa.
"""

import json
import os
import subprocess
import sys
import time

work = os.path.abspath(sys.argv[1])
recipe = sys.argv[2] if len(sys.argv) > 2 else "use"
if recipe not in ("use", "cxx", "run"):
    raise SystemExit(f"aoti_export.py: unknown recipe {recipe!r}; expected use, cxx or run")
os.makedirs(work, exist_ok=True)
log = os.path.join(work, "linkguard.log")
if os.path.exists(log):
    os.unlink(log)
os.environ["LINKGUARD_LOG"] = "trace"  # the plan of each step, as JSON
if recipe != "use":
    # The drop-in is $CXX already (set by the caller, or by `linkguard run`);
    # each step it runs logs its plan here.
    os.environ["LINKGUARD_LOG_FILE"] = log
    cxx = os.environ.get("CXX", "")
    if os.path.basename(cxx) != "linkguard-g++":
        raise SystemExit(f"aoti_export.py {recipe}: CXX={cxx!r}, expected the GCC drop-in linkguard-g++")

started = []
_Popen = subprocess.Popen


class RecordingPopen(_Popen):  # type: ignore[misc,valid-type]
    def __init__(self, args, *a, **k):
        started.append(args)
        super().__init__(args, *a, **k)


subprocess.Popen = RecordingPopen  # type: ignore[misc]

import torch  # noqa: E402
import torch._inductor.config as inductor_config  # noqa: E402

import contextlib  # noqa: E402
import shutil  # noqa: E402

import linkguard  # noqa: E402

inductor_config.compile_threads = 1  # every step in this process, where it is recorded
inductor_config.force_disable_caches = True  # a real compile, not a cache hit


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 32)
        self.b = torch.nn.Linear(32, 4)

    def forward(self, x):
        return torch.sigmoid(self.b(torch.relu(self.a(x)))) * 2.0


torch.manual_seed(0)
model = Small().eval()
x = torch.randn(5, 16)
t0 = time.monotonic()
if recipe == "use":
    switch = linkguard.inductor.use(log_file=log)  # `import linkguard` alone: a lazy attribute
    dropin, real = switch.dropin, switch.real_compiler
    print(f"inductor: {switch}", flush=True)
else:
    switch = contextlib.nullcontext()
    from torch._inductor import cpp_builder  # noqa: E402
    dropin, real = cpp_builder.get_cpp_compiler(), shutil.which("g++") or "g++"
    assert dropin == os.environ["CXX"], (dropin, os.environ["CXX"])
    assert cpp_builder._is_gcc(dropin) and not cpp_builder._is_clang(dropin), dropin
    print(f"inductor ({recipe}): CXX={dropin}, real compiler {real}", flush=True)
with torch.no_grad():
    with switch:
        ep = torch.export.export(model, (x,))
        pkg = torch._inductor.aoti_compile_and_package(ep, package_path=os.path.join(work, "small.pt2"))
    t1 = time.monotonic()
    loaded = torch._inductor.aoti_load_package(pkg)
    got, want = loaded(x), model(x)
torch.testing.assert_close(got, want)
print(f"exported in {t1 - t0:.1f} s; the loaded package equals eager: max |diff| "
      f"{(got - want).abs().max().item():.3g}")

# What inductor started through the drop-in ...
via_dropin = []
for args in started:
    argv = [os.fspath(a) for a in args] if isinstance(args, (list, tuple)) else None
    if argv is None:  # a shell string: inductor uses argument lists, say so if not
        raise SystemExit(f"inductor started a shell command: {args!r}")
    if argv and argv[0] == dropin:
        via_dropin.append(argv)
# ... and what linkguard ran.
plans = []
with open(log, encoding="utf-8") as f:
    for line in f:
        if " trace: plan: " in line:
            plans.append(json.loads(line.split(" trace: plan: ", 1)[1]))
print(f"inductor started {len(via_dropin)} compiler commands through {dropin}; "
      f"linkguard logged {len(plans)} plans")
phases = sorted(p["phase"] for p in plans)
print("phases: " + ", ".join(f"{ph} x{phases.count(ph)}" for ph in sorted(set(phases))))
assert "link" in phases and "compile" in phases, phases
bad = [p for p in plans if p["appended"] or p["insertedBeforeLibraries"] or p["action"] != "exec"
       or p["compiler"] != real or p["argv"][0] != real]
assert not bad, f"steps linkguard changed or ran elsewhere: {bad}"
ran = sorted(tuple(p["argv"][1:]) for p in plans)
asked = sorted(tuple(a[1:]) for a in via_dropin)
assert ran == asked, "linkguard's steps differ from inductor's commands:\n" + "\n".join(
    difflib_line for difflib_line in __import__("difflib").unified_diff(
        [" ".join(a) for a in asked], [" ".join(r) for r in ran], "inductor", "linkguard", lineterm=""))
# inductor still took the compiler for what it is: g++'s own flags
# (cpp_builder adds them when _is_gcc(name)) are on its steps.
if os.path.basename(real).startswith("g++"):
    assert any("-fno-tree-loop-vectorize" in a for a in asked), "inductor no longer saw g++"
for p in plans:
    if p["phase"] in ("compile", "link"):
        print(f"  {p['phase']}: {p['compiler']} ... -o {p.get('output')}: {p['actionText']}")
# And linkguard reads what was made: the model library inside the package.
r = linkguard.inspect(pkg)
print(f"{pkg}: {len(r.files)} binary member(s): " + ", ".join(f["path"].split("!", 1)[1] for f in r.files))
print("every compile and link step went through linkguard, unchanged")
