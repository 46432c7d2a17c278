# Helpers for tests/e2e/*.bash suites. Sourced by tests/e2e/run.
#
# Environment from ctest: LINKGUARD_BIN (the built binary),
# LINKGUARD_SOURCE_DIR, LINKGUARD_LLVM_BINDIR (/usr/lib/llvm-19/bin),
# LINKGUARD_BUILD_DIR.

: "${LINKGUARD_LLVM_BINDIR:=/usr/lib/llvm-19/bin}"
: "${LINKGUARD_SOURCE_DIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
LLVM_BIN=$LINKGUARD_LLVM_BINDIR
CLANGXX=$LLVM_BIN/clang++   # the real compiler, LLVM 19 (the default clang++ is 14)
CLANG=$LLVM_BIN/clang
FAKE_COMPILERS=$LINKGUARD_SOURCE_DIR/tests/fake-compilers
# Logging off unless a test turns it on: stdout/stderr comparisons stay exact.
export LINKGUARD_LOG=${LINKGUARD_LOG:-off}
unset LINKGUARD_CXX LINKGUARD_CC LINKGUARD_MODE LINKGUARD_RULES LINKGUARD_AOT \
      LINKGUARD_CONFIG LINKGUARD_LOG_FILE _LINKGUARD_DEPTH CXX CC
# What CMake (3.17-3.22+) and make read from the environment into a
# project the suites configure: a developer's CMAKE_BUILD_TYPE=Debug or
# CXXFLAGS=-g makes cmake_binutils' builds differ from its reference
# (environment leak; a test that wants one sets it itself).
# MACOSX_DEPLOYMENT_TARGET bounds `check --portable`'s macOS slices.
unset MACOSX_DEPLOYMENT_TARGET
unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS CMAKE_BUILD_TYPE CMAKE_CONFIGURATION_TYPES \
      CMAKE_GENERATOR CMAKE_GENERATOR_PLATFORM CMAKE_GENERATOR_TOOLSET CMAKE_TOOLCHAIN_FILE \
      CMAKE_C_COMPILER_LAUNCHER CMAKE_CXX_COMPILER_LAUNCHER CMAKE_C_LINKER_LAUNCHER \
      CMAKE_CXX_LINKER_LAUNCHER CMAKE_EXPORT_COMPILE_COMMANDS CMAKE_OSX_ARCHITECTURES

E2E_TESTS_RUN=0
E2E_FAILED=0
E2E_CURRENT=""

e2e_finish() {
  local status=$?
  # A suite that started daemons stops them here, passed or failed.
  if declare -F "SUITE_${E2E_SUITE}_TEARDOWN" >/dev/null; then
    "SUITE_${E2E_SUITE}_TEARDOWN"
  fi
  if [ "$E2E_FAILED" -ne 0 ] || [ "$status" -ne 0 ]; then
    echo "FAILED: suite $E2E_SUITE, test \"$E2E_CURRENT\"; work dir kept: $E2E_ROOT" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
  rm -rf "$E2E_ROOT"
  echo "suite $E2E_SUITE: $E2E_TESTS_RUN passed, 0 failed"
  exit 0
}

# TEST "title": starts a test in a fresh directory and runs the suite's SETUP.
TEST() {
  E2E_CURRENT=$1
  E2E_TESTS_RUN=$((E2E_TESTS_RUN + 1))
  local dir=$E2E_ROOT/t$E2E_TESTS_RUN
  mkdir -p "$dir" && cd "$dir" || exit 1
  echo "TEST: $1"
  if declare -F "SUITE_${E2E_SUITE}_SETUP" >/dev/null; then
    "SUITE_${E2E_SUITE}_SETUP"
  fi
}

test_failed() {
  echo "  FAIL: $*" >&2
  E2E_FAILED=1
  exit 1
}

expect_equal() { # actual expected [what]
  [ "$1" = "$2" ] || test_failed "${3:-value}: expected [$2], got [$1]"
}
expect_contains() { # haystack needle [what]
  case "$1" in *"$2"*) ;; *) test_failed "${3:-output} should contain [$2]; it is: $1" ;; esac
}
expect_not_contains() { # haystack needle [what]
  case "$1" in *"$2"*) test_failed "${3:-output} should not contain [$2]; it is: $1" ;; *) ;; esac
}
expect_exists() { [ -e "$1" ] || test_failed "$1 should exist"; }
expect_missing() { [ ! -e "$1" ] || test_failed "$1 should not exist"; }
expect_same_file() { cmp -s "$1" "$2" || test_failed "$1 and $2 differ"; }
# validate SCHEMA JSON-FILE: the document is valid against docs/schema/SCHEMA.
validate() {
  python3 - "$LINKGUARD_SOURCE_DIR/docs/schema/$1" "$2" <<'EOF' || test_failed "$2 against $1"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
for e in errors:
    print("  %s: %s" % ("/".join(map(str, e.absolute_path)), e.message), file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
}
# c_so OUT BODY [FLAGS...]: an ELF shared library from one line of C
# ($CLANG, the suite's; FLAGS go to its link).
c_so() {
  local out=$1 body=$2
  shift 2
  mkdir -p "$(dirname "$out")"
  printf '%s\n' "$body" >"$E2E_ROOT/so.c"
  "$CLANG" -shared -fPIC -o "$out" "$E2E_ROOT/so.c" "$@" || test_failed "building $out"
}
# run_try_load STATUS TITLE ARGS...: linkguard try-load ARGS, its output in
# out.txt/err.txt, its status checked (124: it hung past 60 s).
run_try_load() {
  local want=$1 title=$2
  shift 2
  timeout 60 "$LINKGUARD_BIN" try-load "$@" >out.txt 2>err.txt
  expect_equal "$?" "$want" "$title: $(tail -n 3 out.txt err.txt)"
}
# expect_status CODE CMD ARGS...: runs CMD, checks its exit status.
expect_status() {
  local want=$1; shift
  "$@"
  local got=$?
  [ "$got" -eq "$want" ] || test_failed "exit status of [$*]: expected $want, got $got"
}

# --- portable forms of GNU-only tools (macOS has BSD sed/stat and no
# timeout). python3's real executable is resolved now (not a pyenv-style
# shim, which needs PATH): tests run commands with PATH changed.
LG_PYTHON3=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null || echo python3)

# lg_timeout SECONDS CMD ARGS...: coreutils timeout's contract without
# coreutils: CMD's exit status (128+N if it died by signal N), or 124 when it
# ran longer than SECONDS (it is then killed).
lg_timeout() {
  "$LG_PYTHON3" -c '
import subprocess, sys
try:
    r = subprocess.run(sys.argv[2:], timeout=float(sys.argv[1])).returncode
except subprocess.TimeoutExpired:
    sys.exit(124)
sys.exit(128 - r if r < 0 else r)' "$@"
}

# lg_status CMD ARGS...: prints "exit N" or "signal NAME" for how CMD ended
# (stdin, stdout and stderr inherited); bash's $? cannot tell "died by
# SIGSEGV" from "exited 139".
lg_status() {
  "$LG_PYTHON3" -c '
import signal, subprocess, sys
r = subprocess.run(sys.argv[1:]).returncode
print("signal " + signal.Signals(-r).name if r < 0 else "exit %d" % r)' "$@"
}

# sed_i EXPR FILE: sed -i (GNU) / sed -i '' (BSD), the same on both.
sed_i() { sed -e "$1" "$2" >"$2.sed-i" && mv "$2.sed-i" "$2"; }

# file_size FILE: bytes (GNU stat -c %s / BSD stat -f %z).
file_size() { wc -c <"$1" | tr -d ' '; }

# --- Mach-O cross-link fixtures: write_sdk, write_tbd, macho_flags,
# write_aoti_model, AOTI_MPS_CFLAGS (shared with scripts/demo).
# shellcheck source=../../scripts/lib/macho_sdk.sh
. "$LINKGUARD_SOURCE_DIR/scripts/lib/macho_sdk.sh"

# adhoc_resign FILE...: re-sign linker-signed (ad-hoc) Mach-O fixtures in
# place after a test edited them, as `codesign -f -s -` would on a Mac, so
# that `check --portable` (rule code-signature) judges what the test meant
# to judge, not the edit (tests/tools/adhoc_resign.py).
adhoc_resign() {
  python3 "$LINKGUARD_SOURCE_DIR/tests/tools/adhoc_resign.py" "$@" ||
    test_failed "adhoc_resign $*"
}

# probe_chained_fixups: prints a reason when clang++-19 cannot cross-link a
# Mach-O dylib with -fixup_chains here (for a suite's PROBE); silent when it can.
probe_chained_fixups() {
  local d
  d=$(mktemp -d)
  write_sdk "$d/sdk"
  echo 'int f() { return 1; }' >"$d/p.cpp"
  # shellcheck disable=SC2046
  if ! $CLANGXX $(macho_flags "$d/sdk") -shared -nostdlib++ "$d/p.cpp" -o "$d/p.dylib" \
      -Wl,-fixup_chains >/dev/null 2>&1; then
    echo "clang++-19 cannot cross-link Mach-O with -fixup_chains here"
  fi
  rm -rf "$d"
}

# evil_linker_fixture (trust*.bash): in the test directory, evil.sh -- a
# "linker" that only leaves ./pwned when something runs it -- EVIL_RULE, a
# rules file that adds --ld-path= naming it, and m.o to link.
evil_linker_fixture() {
  printf '#!/bin/sh\ntouch "%s/pwned"\nexit 0\n' "$PWD" >evil.sh
  chmod +x evil.sh
  EVIL_RULE="[[rule]]
name = \"evil\"
[rule.add]
flags = [\"--ld-path=$PWD/evil.sh\"]
"
  echo 'int main() { return 0; }' >m.cpp
  "$CLANGXX" -c m.cpp -o m.o || test_failed "control: cannot compile m.cpp"
}

# hostile_env_values (env_*.bash): HOSTILE_CXX and HOSTILE_CC, values that
# must come back byte for byte from `eval "$(linkguard env)"` and run
# nothing: a newline followed by a command, quotes, $, backticks, (cmd),
# braces, globs, %, a backslash, a tab, an escape sequence, a carriage
# return, non-ASCII and trailing newlines.
hostile_env_values() {
  HOSTILE_CXX=$'clang++\ntouch pwned #'
  HOSTILE_CC=$'cc \'q\' "d" $HOME `touch pwned` (touch pwned) {a,b} * %s \\ \t\033[31m\r \xc3\xa9\n\n'
  printf '%s' "$HOSTILE_CXX" >want.cxx
  printf '%s' "$HOSTILE_CC" >want.cc
}

# install_to PREFIX [DESTDIR]: `cmake --install` of the build under test
# (LINKGUARD_BUILD_DIR) into PREFIX, its log in install.log.
install_to() {
  [ -f "${LINKGUARD_BUILD_DIR:-}/cmake_install.cmake" ] ||
    test_failed "LINKGUARD_BUILD_DIR has no cmake_install.cmake"
  DESTDIR=${2:-} cmake --install "$LINKGUARD_BUILD_DIR" --prefix "$1" >install.log 2>&1 ||
    test_failed "cmake --install failed: $(cat install.log)"
}
