#!/usr/bin/env bash
# ctest docs.ci_recipes: the hosted CI recipes in docs/ci/ pass yamllint
# (strict, docs/ci/.yamllint), and actionlint where it is installed (Debian
# 12 does not package it); have the shape of a GitHub Actions workflow (on,
# jobs, each job's runs-on and steps, each step a `uses` or a `run`); and
# every runs-on, its matrix expanded, names a runner image GitHub offers
# today (CURRENT below, cited). Then the recipe for checking your own
# artifacts (docs/ci/check-artifacts.yml) runs here: each `run:` step in
# order, as the runner runs it (bash -eo pipefail, GITHUB_PATH, GITHUB_ENV,
# RUNNER_TEMP), on a small CMake project, installing the wheel
# tests/python/run.bash built (offline); its check must hold and its JSON
# validate, and a control tree with an absolute dependency must fail the
# step after its JSON validated. Controls: a broken copy fails yamllint, a
# retired image fails the runs-on check. Exit 125 without yamllint or
# python3-yaml; the recipe's run is skipped (125) without the wheel.
set -euo pipefail
src=$LINKGUARD_SOURCE_DIR
command -v yamllint >/dev/null || { echo "SKIP: yamllint is not installed (Debian: yamllint)"; exit 125; }
/usr/bin/python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml is not installed"; exit 125; }
cfg=$src/docs/ci/.yamllint
yamllint -c "$cfg" -s "$src"/docs/ci/*.yml
if command -v actionlint >/dev/null; then
  actionlint "$src"/docs/ci/*.yml
else
  echo "note: actionlint is not installed (Debian 12 does not package it); yamllint and the checks below ran"
fi
# runs-on: every label, its matrix expanded, is a GitHub-hosted image that
# exists today. CURRENT: the standard labels of actions/runner-images'
# README ("Available Images"); RETIRED: removed (macos-13 on 2025-12-04,
# github.blog/changelog/2025-09-19-github-actions-macos-13-runner-image-is-closing-down;
# ubuntu-20.04 on 2025-04-15; windows-2019 on 2025-06-30; macos-12 on 2024-12-03).
runs_on_check() {
  /usr/bin/python3 - "$@" <<'PY'
import re, sys, yaml
CURRENT = {"ubuntu-latest", "ubuntu-24.04", "ubuntu-22.04", "ubuntu-24.04-arm", "ubuntu-22.04-arm",
           "macos-latest", "macos-14", "macos-15", "macos-15-intel", "macos-26",
           "windows-latest", "windows-2022", "windows-2025"}
RETIRED = {"macos-11", "macos-12", "macos-13", "ubuntu-18.04", "ubuntu-20.04", "windows-2019"}
assert not CURRENT & RETIRED
bad = 0
for path in sys.argv[1:]:
    for jname, job in yaml.safe_load(open(path))["jobs"].items():
        labels = job["runs-on"]
        labels = labels if isinstance(labels, list) else [labels]
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        out = []
        for label in labels:
            m = re.fullmatch(r"\$\{\{\s*matrix\.([A-Za-z0-9_-]+)\s*\}\}", label)
            if not m:
                out.append(label); continue
            key = m.group(1)
            vals = list(matrix.get(key) or []) + [i[key] for i in matrix.get("include") or [] if key in i]
            if not vals:
                print(f"{path}: {jname}: runs-on {label}: no matrix value"); bad = 1
            out += vals
        for label in out:
            if label not in CURRENT:
                why = "retired" if label in RETIRED else "not a current GitHub-hosted image"
                print(f"{path}: {jname}: runs-on {label}: {why}"); bad = 1
sys.exit(bad)
PY
}
runs_on_check "$src"/docs/ci/*.yml
# The recipe for checking your own artifacts is linked from the README's
# first screen (its first 50 lines).
head -n 50 "$src/README.md" | grep -q '(docs/ci/check-artifacts.yml)' ||
  { echo "FAIL: README's first screen does not link docs/ci/check-artifacts.yml"; exit 1; }
/usr/bin/python3 - "$src"/docs/ci/*.yml <<'PY'
import sys, yaml
for path in sys.argv[1:]:
    doc = yaml.safe_load(open(path))
    assert isinstance(doc.get("name"), str), f"{path}: no name"
    # YAML 1.1 (PyYAML) reads the key `on` as True.
    assert "on" in doc or True in doc, f"{path}: no trigger (on:)"
    jobs = doc.get("jobs")
    assert isinstance(jobs, dict) and jobs, f"{path}: no jobs"
    for jname, job in jobs.items():
        assert "runs-on" in job, f"{path}: job {jname} has no runs-on"
        steps = job.get("steps")
        assert isinstance(steps, list) and steps, f"{path}: job {jname} has no steps"
        for i, step in enumerate(steps):
            assert ("uses" in step) != ("run" in step), f"{path}: {jname} step {i}: needs exactly one of uses/run"
    print(f"{path}: {len(jobs)} job(s), {sum(len(j['steps']) for j in jobs.values())} steps")
PY
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/^    runs-on:/   runs-on:/' "$src/docs/ci/linux.yml" >"$work/broken.yml"
if yamllint -c "$cfg" -s "$work/broken.yml" >/dev/null 2>&1; then
  echo "FAIL: yamllint accepted a workflow with broken indentation"; exit 1
fi
echo "control: a broken copy is rejected"
sed 's/runner: \[macos-15, /runner: [macos-13, /' "$src/docs/ci/check-artifacts.yml" >"$work/retired.yml"
grep -q 'macos-13,' "$work/retired.yml" || { echo "FAIL: the control did not put macos-13 in"; exit 1; }
if runs_on_check "$work/retired.yml" >/dev/null; then
  echo "FAIL: the runs-on check accepted macos-13"; exit 1
fi
echo "control: a retired runner image is rejected"

# The recipe for checking your own artifacts, run here.
wheel=${LG_TEST_WHEEL:-}
if [ -z "$wheel" ] && [ -n "${LINKGUARD_BUILD_DIR:-}" ]; then
  for w in "$LINKGUARD_BUILD_DIR"/python-wheel/dist/linkguard-*.whl; do
    [ -f "$w" ] && wheel=$w && break
  done
fi
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
  echo "SKIP: no wheel to install (tests/python/run.bash, ctest python.wheel, builds it): docs/ci/check-artifacts.yml was linted, not run"
  exit 125
fi
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null ||
  { echo "SKIP: python3-jsonschema is not installed: check-artifacts.yml was linted, not run"; exit 125; }
command -v cmake >/dev/null || { echo "SKIP: cmake is not installed: check-artifacts.yml was linted, not run"; exit 125; }
mkdir -p "$work/ws"
cat >"$work/ws/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(sample C)
add_library(greet SHARED greet.c)
add_executable(app main.c)
target_link_libraries(app PRIVATE greet)
if(APPLE)
  set_target_properties(app PROPERTIES INSTALL_RPATH "@loader_path/../lib")
else()
  set_target_properties(app PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
endif()
install(TARGETS app greet RUNTIME DESTINATION bin LIBRARY DESTINATION lib)
CMAKE
echo 'int greet(void) { return 0; }' >"$work/ws/greet.c"
echo 'int greet(void); int main(void) { return greet(); }' >"$work/ws/main.c"
/usr/bin/python3 - "$src/docs/ci/check-artifacts.yml" "$work" "$wheel" <<'PY'
import os, shutil, subprocess, sys, yaml
recipe, work, wheel = sys.argv[1:]
doc = yaml.safe_load(open(recipe))
job = doc["jobs"]["check"]
env = dict(os.environ)
env.update({k: str(v) for k, v in (doc.get("env") or {}).items()})
# Offline: the wheel this checkout built, jsonschema from the system's
# site-packages (the recipe's venv sees them).
env.update(LINKGUARD_WHEEL=wheel, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
           RUNNER_TEMP=os.path.join(work, "runner"), GITHUB_PATH=os.path.join(work, "github_path"),
           GITHUB_ENV=os.path.join(work, "github_env"))
os.makedirs(env["RUNNER_TEMP"])
ws = os.path.join(work, "ws")
steps = job["steps"]
def run(step, expect=0):
    for f in ("GITHUB_PATH", "GITHUB_ENV"):
        open(env[f], "w").close()
    print(f"--- {step.get('name', step['run'][:40])}", flush=True)
    assert "${{" not in step["run"], "a run step that needs the runner's expressions cannot run here"
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                       cwd=ws, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout, end="")
    if r.returncode != expect:
        sys.exit(f"FAIL: step {step.get('name')!r} exited {r.returncode}, not {expect}")
    for line in open(env["GITHUB_PATH"]).read().splitlines():
        env["PATH"] = line + os.pathsep + env["PATH"]
    for line in open(env["GITHUB_ENV"]).read().splitlines():
        k, _, v = line.partition("=")
        env[k] = v
    return r.stdout
ran = 0
for step in steps:
    if "uses" in step:
        print(f"--- {step['uses']}: not here (the workspace is the sample project; no upload)")
        continue
    out = run(step)
    ran += 1
assert ran >= 4, ran
assert "valid against urn:linkguard:schema:check:" in out, out
check = [s for s in steps if "linkguard check" in s.get("run", "")]
assert len(check) == 1
# Control: what ships gains a library with an absolute dependency outside
# the system: the step fails (exit 1), after the document validated.
stage = os.path.join(env["RUNNER_TEMP"], "stage")
# (no SONAME: the link records the path it was given)
with open(os.path.join(work, "dep.c"), "w") as f:
    f.write("int dep(void) { return 0; }\n")
with open(os.path.join(work, "bad.c"), "w") as f:
    f.write("int dep(void); int bad(void) { return dep(); }\n")
subprocess.run(["cc", "-shared", "-fPIC", os.path.join(work, "dep.c"), "-o", os.path.join(work, "libdep.so")],
               check=True)
subprocess.run(["cc", "-shared", "-fPIC", os.path.join(work, "bad.c"), "-o", os.path.join(stage, "lib", "libbad.so"),
                os.path.join(work, "libdep.so")], check=True)
out = run(check[0], expect=1)
assert "valid against urn:linkguard:schema:check:" in out and "libdep.so" in out, out
assert "violation" in out and "patchelf" in out, out  # the resolver's fix
print(f"check-artifacts.yml: {ran} run steps ran here; the control failed the check step as it should")
PY
