# cmake/linkguard-toolchain.cmake on a real CMake project shaped like the
# standalone project AOTI emits (a SHARED library, USE_MPS as a compile
# definition, -Xclang -fopenmp, an `omp` link), configured for a Mach-O
# target with a cross toolchain file that the linkguard toolchain chainloads,
# with the Ninja and Makefile generators.
#
# The point: CMake passes compile definitions to compile lines only, so the
# link line of a USE_MPS target shows no -DUSE_MPS. The toolchain forwards
# the target's USE_MPS to the launcher (--assume-define=USE_MPS). Each
# wrapped build has a control: the same project without linkguard keeps
# /opt/llvm-openmp/lib/libomp.dylib, and so does a wrapped build whose
# forwarding is turned off.

# shellcheck source=cmake_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/cmake_lib.sh"

SUITE_cmake_toolchain_PROBE() {
  cmake_probe
  command -v make >/dev/null || { echo "make not installed"; return; }
}

# write_project DIR [uses_openmp]: the AOTI standalone shape.
write_project() {
  write_aoti_model "$1" "${2:-}"
  cat >"$1/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(aoti_model LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
include(CheckCXXSourceCompiles)
check_cxx_source_compiles("int main() { return 0; }" LG_TRY_COMPILE_WORKS)
if(NOT LG_TRY_COMPILE_WORKS)
  message(FATAL_ERROR "try_compile failed")
endif()
add_library(aoti_model SHARED model.wrapper.cpp model.kernel.cpp model.consts.cpp)
target_compile_definitions(aoti_model PRIVATE TORCH_INDUCTOR_CPP_WRAPPER
  STANDALONE_TORCH_HEADER C10_USING_CUSTOM_GENERATED_MACROS USE_MPS)
target_compile_options(aoti_model PRIVATE "SHELL:-Xclang -fopenmp")
target_link_options(aoti_model PRIVATE "SHELL:-undefined dynamic_lookup")
target_link_directories(aoti_model PRIVATE ${OMP_DIR})
target_link_libraries(aoti_model PRIVATE omp)
EOF
}

SUITE_cmake_toolchain_SETUP() {
  write_sdk "$PWD/sdk"
  write_cross_toolchain "$PWD/darwin.cmake" "$PWD/sdk"
  write_project "$PWD/proj"
}

# configure BUILD_DIR GENERATOR [CMAKE ARGS...]; output in BUILD_DIR.configure.log
configure() {
  local dir=$1 gen=$2; shift 2
  cmake -S proj -B "$dir" -G "$gen" -DOMP_DIR="$PWD/sdk/omp" \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@" >"$dir.configure.log" 2>&1 \
    || test_failed "configure of $dir failed: $(cat "$dir.configure.log")"
}

build() { # BUILD_DIR; verbose output in BUILD_DIR.build.log
  cmake --build "$1" --verbose >"$1.build.log" 2>&1 \
    || test_failed "build of $1 failed: $(cat "$1.build.log")"
}

configure_control() { configure "$1" "$2" -DCMAKE_TOOLCHAIN_FILE="$PWD/darwin.cmake" "${@:3}"; }
configure_wrapped() {
  configure "$1" "$2" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake" \
    -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN" "${@:3}"
}

deps() { "$LLVM_BIN/llvm-otool" -L "$1/libaoti_model.dylib"; }

# compile_commands.json as "file<TAB>command" lines with the build directory
# spelled BUILD, so two build trees compare.
compile_commands() {
  python3 - "$1" <<'EOF'
import json, sys, os
d = os.path.abspath(sys.argv[1])
for e in sorted(json.load(open(os.path.join(d, "compile_commands.json"))), key=lambda e: e["file"]):
    print(e["file"] + "\t" + e["command"].replace(d, "BUILD") + "\t" + e["directory"].replace(d, "BUILD"))
EOF
}

# Configure, control and wrapped, then check everything the issue asks.
check_generator() {
  local gen=$1
  configure_control ctl "$gen"
  build ctl
  expect_contains "$(deps ctl)" /opt/llvm-openmp/lib/libomp.dylib "control: otool -L"

  configure_wrapped lg "$gen"
  local log
  log=$(cat lg.configure.log)
  # Compiler identification and try_compile ran with the user's compiler.
  expect_contains "$log" "The CXX compiler identification is Clang 19" "configure log"
  expect_contains "$log" "Performing Test LG_TRY_COMPILE_WORKS - Success" "configure log"
  expect_equal "$(grep '^CMAKE_CXX_COMPILER:' lg/CMakeCache.txt)" \
    "$(grep '^CMAKE_CXX_COMPILER:' ctl/CMakeCache.txt)" "the compiler stays the user's"
  build lg
  # The link went through linkguard, told about USE_MPS; compiles did not.
  expect_contains "$(cat lg.build.log)" "$LINKGUARD_BIN --assume-define=USE_MPS -- $CLANGXX" "build log"
  expect_equal "$(grep -c "$LINKGUARD_BIN" lg.build.log)" 1 "lines running linkguard (the link only)"
  local d
  d=$(deps lg)
  expect_not_contains "$d" libomp "wrapped: otool -L"
  expect_contains "$d" /usr/lib/libSystem.B.dylib "wrapped: otool -L"
  d=$("$LINKGUARD_BIN" inspect lg/libaoti_model.dylib) || test_failed "inspect exited $?"
  expect_not_contains "$d" libomp "wrapped: linkguard inspect"
  expect_contains "$d" /usr/lib/libSystem.B.dylib "wrapped: linkguard inspect"
  # Compile commands are the control's, byte for byte.
  expect_equal "$(compile_commands lg)" "$(compile_commands ctl)" "compile_commands.json"
}

SUITE_cmake_toolchain() {
  TEST "Ninja: libomp dropped through the launcher, compiles and checks unchanged"
  check_generator Ninja

  TEST "Unix Makefiles: libomp dropped through the launcher, compiles and checks unchanged"
  check_generator "Unix Makefiles"

  TEST "the link line alone does not show USE_MPS: forwarding off keeps libomp"
  configure_wrapped lg Ninja -DLINKGUARD_FORWARD_DEFINES=
  build lg
  expect_contains "$(cat lg.build.log)" "$LINKGUARD_BIN -- $CLANGXX" "build log"
  expect_not_contains "$(grep -- -dynamiclib lg.build.log)" USE_MPS "the CMake link line"
  expect_contains "$(deps lg)" /opt/llvm-openmp/lib/libomp.dylib "otool -L"

  TEST "LINKGUARD_LINK_DEFINES states USE_MPS for every link"
  configure_wrapped lg Ninja -DLINKGUARD_FORWARD_DEFINES= -DLINKGUARD_LINK_DEFINES=USE_MPS \
    -DLINKGUARD_ASSUME_AOT=ON
  build lg
  expect_contains "$(cat lg.build.log)" \
    "$LINKGUARD_BIN --assume-define=USE_MPS --assume-aot -- $CLANGXX" "build log"
  expect_contains "$(cat lg.configure.log)" "on every link (--assume-define=USE_MPS --assume-aot);" "configure output"
  expect_not_contains "$(deps lg)" libomp "otool -L"

  TEST "a model that calls OpenMP keeps libomp, and the build passes"
  rm -rf proj && write_project "$PWD/proj" uses_openmp
  configure_wrapped lg Ninja
  build lg
  expect_contains "$(cat lg.build.log)" "--assume-define=USE_MPS" "build log"
  expect_contains "$(deps lg)" /opt/llvm-openmp/lib/libomp.dylib "otool -L"

  TEST "a target without USE_MPS is linked through linkguard without the assumption"
  sed_i 's/ USE_MPS)/)/' proj/CMakeLists.txt
  configure_wrapped lg Ninja
  build lg
  expect_contains "$(cat lg.build.log)" "$LINKGUARD_BIN -- $CLANGXX" "build log"
  expect_contains "$(deps lg)" /opt/llvm-openmp/lib/libomp.dylib "otool -L"

  TEST "drop-in CMAKE_CXX_COMPILER=linkguard-clang++: compiles pass through, the link needs -DUSE_MPS"
  local lgxx
  lgxx=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  # The user's cross toolchain file, with linkguard's name as the compiler.
  write_cross_toolchain "$PWD/darwin-lg.cmake" "$PWD/sdk" "$lgxx" \
    "$(dirname "$LINKGUARD_BIN")/linkguard-clang"
  configure_control ctl Ninja
  build ctl
  export LINKGUARD_CXX=$CLANGXX
  configure dropin Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/darwin-lg.cmake"
  expect_contains "$(cat dropin.configure.log)" "The CXX compiler identification is Clang 19" "configure log"
  expect_contains "$(cat dropin.configure.log)" "Performing Test LG_TRY_COMPILE_WORKS - Success" "configure log"
  build dropin
  expect_contains "$(grep -- -dynamiclib dropin.build.log)" "$lgxx " "the link line"
  # CMake derived its tools from linkguard's name: the first link says so,
  # once for the build directory (driver/CMakeCompiler.h).
  expect_equal "$(grep -c 'this CMake build runs linkguard-clang++ as its compiler' dropin.build.log)" 1 \
    "the drop-in form said"
  # Compile lines carry -DUSE_MPS, the link line does not: no rule, libomp stays.
  expect_not_contains "$(grep -- -dynamiclib dropin.build.log)" USE_MPS "the CMake link line"
  expect_contains "$(deps dropin)" /opt/llvm-openmp/lib/libomp.dylib "otool -L without the link-side define"
  # Compile commands differ from the control only in the compiler word.
  expect_equal "$(compile_commands dropin | sed "s|$lgxx|$CLANGXX|")" "$(compile_commands ctl)" \
    "compile_commands.json"
  # What the user adds: the definition on the link line too (clang ignores a
  # -D on a link; linkguard reads it).
  echo 'target_link_options(aoti_model PRIVATE -DUSE_MPS)' >>proj/CMakeLists.txt
  configure dropin2 Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/darwin-lg.cmake"
  build dropin2
  expect_contains "$(grep -- -dynamiclib dropin2.build.log)" "-DUSE_MPS" "the CMake link line"
  expect_not_contains "$(grep -v 'this CMake build runs linkguard-clang++' dropin2.build.log)" \
    "warning:" "build log (the rule applied: no verify warning)"
  expect_not_contains "$(deps dropin2)" libomp "otool -L with target_link_options(-DUSE_MPS)"
  expect_contains "$(deps dropin2)" /usr/lib/libSystem.B.dylib "otool -L"
  unset LINKGUARD_CXX

  TEST "a chainloaded toolchain file that does not exist is a configure error"
  if cmake -S proj -B bad -G Ninja -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
      -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/nope.cmake" >bad.log 2>&1; then
    test_failed "configure should fail"
  fi
  expect_contains "$(cat bad.log)" "nope.cmake" "configure output"
  expect_contains "$(cat bad.log)" "does not exist" "configure output"

  TEST "a target made only of .mm files links as OBJCXX, through linkguard"
  rm -rf proj && write_project "$PWD/proj"
  for tu in wrapper kernel consts; do mv "proj/model.$tu.cpp" "proj/model.$tu.mm"; done
  sed_i 's/LANGUAGES CXX/LANGUAGES CXX OBJCXX/; s/\.cpp/.mm/g' proj/CMakeLists.txt
  configure_control ctl Ninja
  build ctl
  expect_contains "$(deps ctl)" /opt/llvm-openmp/lib/libomp.dylib "control: otool -L"
  expect_contains "$(cat ctl.build.log)" "-x objective-c++" "control: the sources compile as Objective-C++"
  configure_wrapped lg Ninja
  build lg
  expect_contains "$(cat lg.build.log)" "$LINKGUARD_BIN --assume-define=USE_MPS -- $CLANGXX" "build log"
  expect_not_contains "$(deps lg)" libomp "wrapped: otool -L"
  expect_contains "$(deps lg)" /usr/lib/libSystem.B.dylib "wrapped: otool -L"
}
