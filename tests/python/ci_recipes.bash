#!/usr/bin/env bash
# ctest docs.ci_recipes: the hosted CI recipes in docs/ci/ (not run here)
# pass yamllint (strict, docs/ci/.yamllint) and have the shape of a GitHub
# Actions workflow (on, jobs, each job's runs-on and steps, each step a
# `uses` or a `run`). Control: a copy with a broken indentation must fail,
# so the linter really ran. Exit 125 without yamllint or python3-yaml.
set -euo pipefail
src=$LINKGUARD_SOURCE_DIR
command -v yamllint >/dev/null || { echo "SKIP: yamllint is not installed (Debian: yamllint)"; exit 125; }
/usr/bin/python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml is not installed"; exit 125; }
cfg=$src/docs/ci/.yamllint
yamllint -c "$cfg" -s "$src"/docs/ci/*.yml
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
