# The README's first screen (issue 30, "Done when"): what a PyTorch user and
# a CMake user read there works as written. The PyTorch user's two Python
# lines run against a stand-in for torch._inductor (tests/python/
# test_inductor.py's, upstream's config.cpp.cxx and cpp_builder predicates),
# inductor's MPS AOT compile and link steps then run through the compiler
# inductor now names, the library goes into a .pt2 as an export writes it,
# and the README's check line runs verbatim on it. The CMake line is
# e2e.cmake_setup's ("the README's CMake line, on an install"), which reads
# it from this same screen.

README_SCREEN=40 # lines: what a terminal shows before scrolling

SUITE_readme_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  for tool in clang++ ld64.lld; do
    [ -x "$LLVM_BIN/$tool" ] || { echo "$LLVM_BIN/$tool not found"; return; }
  done
  command -v python3 >/dev/null || { echo "python3 not found"; return; }
}

# first_screen: the README's first screen.
first_screen() { head -n "$README_SCREEN" "$LINKGUARD_SOURCE_DIR/README.md"; }

# block LANG: the lines of the ```LANG blocks on the first screen.
block() { first_screen | sed -n "/^\`\`\`$1\$/,/^\`\`\`\$/p" | grep -v '^```'; }

SUITE_readme() {
  TEST "the first screen: the PyTorch user's two lines, then check --mps-aot model.pt2, on a .pt2 exported through them"
  local py sh
  py=$(block python)
  sh=$(block sh | grep -m1 '^linkguard check ')
  expect_contains "$py" "import linkguard.inductor" "the first screen's Python lines"
  expect_contains "$py" "linkguard.inductor.use()" "the first screen's Python lines"
  expect_equal "$(printf '%s\n' "$py" | grep -c .)" 2 "two lines"
  expect_contains "$sh" "linkguard check --mps-aot model.pt2" "the first screen's check line"
  expect_contains "$(first_screen)" \
    "cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/linkguard/cmake/linkguard-toolchain.cmake" \
    "the first screen's CMake line"

  # The stand-in torch package, and linkguard where the wheel puts it: a
  # directory on PATH holding the three names (python/linkguard/_binary.py).
  # (Only its FAKE assignment is run: the module itself needs pytest.)
  python3 - "$LINKGUARD_SOURCE_DIR/tests/python/test_inductor.py" fake <<'PY' || test_failed "writing the stand-in"
import ast, os, sys, textwrap
tree = ast.parse(open(sys.argv[1]).read())
node = next(n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "FAKE")
ns = {"textwrap": textwrap}
exec(compile(ast.Module(body=[node], type_ignores=[]), sys.argv[1], "exec"), ns)
FAKE = ns["FAKE"]
for rel, text in FAKE.items():
    p = os.path.join(sys.argv[2], rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(text)
PY
  mkdir bin && ln -s "$LINKGUARD_BIN" bin/linkguard
  write_sdk sdk
  write_aoti_model model
  local macho
  read -r -a macho <<<"$(macho_flags "$PWD/sdk")"
  # The export: the README's lines, then the steps cpp_builder runs with the
  # compiler inductor names (get_cpp_compiler), with its MPS AOT flags on
  # every phase, as tests/python/mps_model.bash renders them.
  {
    printf '%s\n' "$py"
    cat <<'PY'
import os, subprocess, sys
from torch._inductor import cpp_builder
cxx = cpp_builder.get_cpp_compiler()
flags, macho = sys.argv[1].split(), sys.argv[2].split()
for tu in ("wrapper", "kernel", "consts"):
    subprocess.check_call([cxx, *macho, "model/model.%s.cpp" % tu, *flags, "-c", "-o", "model/%s.o" % tu])
subprocess.check_call([cxx, "model/wrapper.o", "model/kernel.o", "model/consts.o", *flags, *macho,
                       "-nostdlib++", "-L" + os.path.abspath("sdk/omp"), "-lomp",
                       "-o", sys.argv[3]])
print(cxx)
PY
  } >export.py
  PATH=$PWD/bin:$PATH PYTHONPATH=$LINKGUARD_SOURCE_DIR/python:$PWD/fake CXX=$CLANGXX \
    XDG_CACHE_HOME=$PWD/cache python3 export.py "${AOTI_MPS_CFLAGS[*]}" "${macho[*]}" model.so \
    >export.out 2>export.err || test_failed "the export: $(cat export.err)"
  expect_not_contains "$(cat export.out)" "$CLANGXX" "the compiler inductor runs (the drop-in)"
  # A control linked by the compiler itself: the check line must say broken.
  # shellcheck disable=SC2068
  $CLANGXX model/wrapper.o model/kernel.o model/consts.o ${AOTI_MPS_CFLAGS[@]} ${macho[@]} \
    -nostdlib++ -L"$PWD/sdk/omp" -lomp -o plain.so || test_failed "the control link"
  mkdir -p pkg/model/data/aotinductor/model ctl/model/data/aotinductor/model
  cp model.so pkg/model/data/aotinductor/model/model.so
  cp plain.so ctl/model/data/aotinductor/model/model.so
  local d
  for d in pkg ctl; do
    (cd "$d" && python3 -c 'import zipfile
with zipfile.ZipFile("model.pt2", "w") as z:
    z.write("model/data/aotinductor/model/model.so")') || test_failed "zipping $d/model.pt2"
  done
  local words out status
  read -r -a words <<<"${sh%% #*}" # the words a shell runs: the comment is not one
  out=$(cd pkg && PATH=$PWD/../bin:$PATH "${words[@]}" 2>&1); status=$?
  expect_equal "$status" 0 "the README's check on the export through linkguard: $out"
  expect_contains "$out" "model.pt2!model/data/aotinductor/model/model.so: holds" "check's output"
  out=$(cd ctl && PATH=$PWD/../bin:$PATH "${words[@]}" 2>&1); status=$?
  expect_equal "$status" 1 "the README's check on the export without linkguard: $out"
  expect_contains "$out" "libomp.dylib is still a dependency" "check's output"

  TEST "Use it: the macOS recipe and the Linux one by name, each drop-in of inductor's compiler's family"
  # Each CXX= line of the section, with the platform the text before it
  # names; inductor's name test (cpp_builder._is_clang/_is_gcc) on it.
  python3 - "$LINKGUARD_SOURCE_DIR/README.md" <<'PY' || test_failed "README's Use it (above)"
import re, sys
text = open(sys.argv[1]).read()
use = text.split("\n## Use it\n", 1)[1].split("\n## ", 1)[0]
recipes = {}
for m in re.finditer(r"export CXX=(\S+)", use):
    before = use[:m.start()]
    platform = max(("macOS", "Linux"), key=before.rfind)
    recipes[platform] = m.group(1)
is_clang = lambda c: bool(re.search(r"(clang|clang\+\+)", c))
is_gcc = lambda c: not is_clang(c) and bool(re.search(r"(gcc|g\+\+|gnu-c\+\+)", c))
bad = 0
want = {"macOS": ("clang++", is_clang), "Linux": ("g++", is_gcc)}  # inductor's default compiler there
for platform, (compiler, same_family) in want.items():
    cxx = recipes.get(platform)
    if cxx is None or not same_family(cxx) or not same_family(compiler):
        print(f"README's Use it: the {platform} recipe is {cxx!r}; inductor's {compiler} needs a "
              f"drop-in of its family", file=sys.stderr); bad = 1
if "linkguard run -- python" not in use:
    print("README's Use it does not name `linkguard run -- python ...`", file=sys.stderr); bad = 1
sys.exit(bad)
PY
}
