# The MPS AOT rule end to end: every cpp_builder fixture line runs through
# linkguard for real (Mach-O cross-link on Linux), is compared with the plain
# compiler, and its output is read back. Every "dropped" has a control in
# which the plain compiler keeps libomp, so no test passes for the wrong
# reason.

SUITE_mps_rule_PROBE() {
  [ -x "$CLANGXX" ] || { echo "$CLANGXX not installed"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || { echo "ld64.lld-19 not installed"; return; }
  [ -x "$LINKGUARD_BIN" ] || echo "linkguard not built"
}

SUITE_mps_rule_SETUP() {
  LG_DIR=$(dirname "$LINKGUARD_BIN")
  WRAP=$LG_DIR/linkguard-clang++
  write_sdk "$PWD/sdk"
  write_tbd "$PWD/sdk/omp/libtorch.tbd" @rpath/libtorch.dylib __ZN5torch4initEv
  write_tbd "$PWD/sdk/omp/libtorch_cpu.tbd" @rpath/libtorch_cpu.dylib __ZN5torch3cpuEv
  write_aoti_model "$PWD/model"
  echo '#pragma once' >"$PWD/model/hdr.h"
  read -r -a MACHO <<<"$(macho_flags "$PWD/sdk")"
  for tu in wrapper kernel consts; do
    "$CLANGXX" "${MACHO[@]}" "model/model.$tu.cpp" "${AOTI_MPS_CFLAGS[@]}" \
      -c -o "model/model.$tu.o" 2>/dev/null || test_failed "compiling the model"
  done
  mkdir -p plain guarded
  python3 "$LINKGUARD_SOURCE_DIR/tests/e2e/fixture_commands.py" \
    "$LINKGUARD_SOURCE_DIR/tests/data/cpp_builder_darwin_mps.txt" \
    "$PWD/model" "$PWD/sdk" "$PWD/plain" >fixtures.txt || test_failed "reading fixtures"
}

# load_args NAME: ARGS=( the fixture's rewritten arguments ).
load_args() { mapfile -d '' ARGS <"plain/$1.args"; }

# deps FILE: the dependency names linkguard reads, one per line.
deps() { "$LINKGUARD_BIN" inspect "$1" | tail -n +3 | sed 's/^[[:space:]]*//; s/ (compat.*//'; }
otool_deps() { "$LLVM_BIN/llvm-otool" -L "$1" | tail -n +3 | sed 's/^[[:space:]]*//; s/ (compat.*//'; }

SUITE_mps_rule() {
  TEST "explain agrees with every fixture's phase and inject label"
  while read -r name phase inject; do
    load_args "$name"
    json=$(LINKGUARD_CXX=$CLANGXX "$LINKGUARD_BIN" explain --json -- linkguard-clang++ "${ARGS[@]}")
    got_phase=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["phase"])' <<<"$json")
    got_inject=$(python3 -c 'import json,sys; print("yes" if json.load(sys.stdin)["inject"] else "no")' <<<"$json")
    expect_equal "$got_phase" "$phase" "$name: phase"
    expect_equal "$got_inject" "$inject" "$name: inject"
  done <fixtures.txt

  TEST "inject=yes links drop libomp and keep libSystem; the plain compiler keeps libomp"
  local n=0
  while read -r name phase inject; do
    [ "$phase" = link ] && [ "$inject" = yes ] || continue
    n=$((n + 1))
    load_args "$name"
    "$CLANGXX" "${ARGS[@]}" 2>/dev/null || test_failed "$name: plain link failed"
    out=plain/$name.so
    mv "$out" "plain/$name.control.so"
    expect_contains "$(deps "plain/$name.control.so")" /opt/llvm-openmp/lib/libomp.dylib "$name control"
    LINKGUARD_CXX=$CLANGXX "$WRAP" "${ARGS[@]}" 2>stderr.txt || test_failed "$name: linkguard link failed: $(cat stderr.txt)"
    expect_not_contains "$(deps "$out")" libomp "$name through linkguard"
    expect_not_contains "$(otool_deps "$out")" libomp "$name (llvm-otool)"
    expect_contains "$(deps "$out")" /usr/lib/libSystem.B.dylib "$name through linkguard"
  done <fixtures.txt
  expect_equal "$((n > 0))" 1 "number of inject=yes link fixtures"

  TEST "inject=no steps reach the compiler byte-identical and link the same as the plain compiler"
  while read -r name phase inject; do
    [ "$inject" = no ] || continue
    load_args "$name"
    rm -f direct.rec wrapped.rec
    FAKE_RECORD=direct.rec "$FAKE_COMPILERS/recording-compiler" "${ARGS[@]}"
    # The fake compiler writes no output, so verify (on for Mach-O shared
    # links) says it cannot read one: expected here, hence 2>/dev/null.
    FAKE_RECORD=wrapped.rec LINKGUARD_CXX=$FAKE_COMPILERS/recording-compiler "$WRAP" "${ARGS[@]}" 2>/dev/null ||
      test_failed "$name: linkguard failed"
    expect_same_file wrapped.rec direct.rec
    if [ "$phase" = link ]; then
      "$CLANGXX" "${ARGS[@]}" 2>/dev/null || test_failed "$name: plain link failed"
      out=$(ls plain/"$name".so)
      mv "$out" plain/"$name".control.so
      LINKGUARD_CXX=$CLANGXX "$WRAP" "${ARGS[@]}" 2>/dev/null || test_failed "$name: linkguard link failed"
      expect_equal "$(deps "$out")" "$(deps plain/"$name".control.so | sed "s|$name.control.so|$name.so|")" "$name load commands"
    fi
  done <fixtures.txt

  TEST "a model that calls OpenMP keeps libomp, passes enforce, and inspect names the symbol"
  write_aoti_model model-omp uses_openmp
  for tu in wrapper kernel consts; do
    "$CLANGXX" "${MACHO[@]}" "model-omp/model.$tu.cpp" "${AOTI_MPS_CFLAGS[@]}" -c -o "model-omp/$tu.o" 2>/dev/null
  done
  LINKGUARD_MODE=enforce LINKGUARD_CXX=$CLANGXX "$WRAP" model-omp/*.o "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}" \
    -lomp -L"$PWD/sdk/omp" -o omp.so 2>stderr.txt
  expect_equal "$?" 0 "enforce status for a referenced libomp"
  expect_contains "$(deps omp.so)" /opt/llvm-openmp/lib/libomp.dylib
  expect_contains "$("$LINKGUARD_BIN" inspect --symbols omp.so)" _omp_get_max_threads

  TEST "a forced violation (-needed-lomp) fails enforce with 86 and removes the output"
  LINKGUARD_CXX=$CLANGXX "$WRAP" model/*.o "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}" \
    -Wl,-needed-lomp -L"$PWD/sdk/omp" -o needed.so 2>stderr.txt
  expect_equal "$?" 86 "exit status under enforce"
  expect_missing needed.so
  expect_contains "$(cat stderr.txt)" /opt/llvm-openmp/lib/libomp.dylib
  expect_contains "$(cat stderr.txt)" "removed needed.so"

  TEST "the same violation under verify warns and keeps the output"
  LINKGUARD_MODE=verify LINKGUARD_CXX=$CLANGXX "$WRAP" model/*.o "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}" \
    -Wl,-needed-lomp -L"$PWD/sdk/omp" -o needed.so 2>stderr.txt
  expect_equal "$?" 0 "exit status under verify"
  expect_exists needed.so
  expect_contains "$(cat stderr.txt)" "linkguard: warning:"

  TEST "LINKGUARD_RULES=off and LINKGUARD_MODE=off leave libomp in place"
  for var in LINKGUARD_RULES=off LINKGUARD_MODE=off LINKGUARD_RULE_MPS_AOT=off; do
    env "$var" LINKGUARD_CXX="$CLANGXX" "$WRAP" model/*.o "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}" \
      -lomp -L"$PWD/sdk/omp" -o off.so 2>/dev/null || test_failed "$var: link failed"
    expect_contains "$(deps off.so)" libomp "$var"
  done

  TEST "a user CXX is honoured and still gets the rule"
  rm -f rec
  FAKE_RECORD=$PWD/rec FAKE_REAL=$CLANGXX CXX=$FAKE_COMPILERS/recording-compiler \
    "$WRAP" model/*.o "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}" -lomp -L"$PWD/sdk/omp" -o cxx.so 2>/dev/null ||
    test_failed "link through CXX failed"
  expect_contains "$(tr '\0' ' ' <rec)" "-Wl,-dead_strip_dylibs" "argv the user's compiler received"
  expect_not_contains "$(deps cxx.so)" libomp

  TEST "the flag inside a response file is not added twice"
  printf '%s\n' -Wl,-dead_strip_dylibs >flags.rsp
  rm -f rec
  FAKE_RECORD=$PWD/rec FAKE_REAL=$CLANGXX LINKGUARD_CXX=$FAKE_COMPILERS/recording-compiler \
    "$WRAP" model/*.o "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}" @flags.rsp -lomp -L"$PWD/sdk/omp" -o rsp.so 2>/dev/null ||
    test_failed "link with a response file failed"
  expect_not_contains "$(tr '\0' ' ' <rec)" "-Wl,-dead_strip_dylibs" "argv (flag only in the @file)"
  expect_not_contains "$(deps rsp.so)" libomp

  TEST "a failing link passes through untouched and nothing is verified"
  LINKGUARD_CXX=$CLANGXX "$WRAP" model/*.o "${AOTI_MPS_CFLAGS[@]}" "${MACHO[@]}" \
    -lnosuchlib -o fail.so 2>stderr.txt
  expect_equal "$?" 1 "the compiler's own status"
  expect_contains "$(cat stderr.txt)" nosuchlib
  expect_not_contains "$(cat stderr.txt)" "linkguard:"
}
