# CMake must see the same toolchain through linkguard. CMake derives ar,
# ranlib, the linker and the LTO archiver from the compiler's *name and
# folder* (CMakeFindBinUtils.cmake: prefix/suffix of "clang++-19", HINTS the
# compiler's folder; Compiler/Clang-FindBinUtils.cmake: llvm-ar-<version>
# with the same prefix). For each way of putting linkguard into a CMake
# build, a small project prints CMAKE_AR, CMAKE_CXX_COMPILER_AR,
# CMAKE_RANLIB, CMAKE_CXX_COMPILER_RANLIB, CMAKE_LINKER and the result of
# check_ipo_supported(), then builds an LTO static library and a program;
# everything must equal the build with CXX=clang++-19.

SUITE_cmake_binutils_PROBE() {
  command -v cmake >/dev/null || { echo "cmake not installed"; return; }
  command -v ninja >/dev/null || { echo "ninja not installed"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x /usr/bin/clang++-19 ] || { echo "/usr/bin/clang++-19 not installed"; return; }
  [ -x /usr/bin/llvm-ar-19 ] || echo "/usr/bin/llvm-ar-19 not installed (llvm-19)"
}

MASQ=$(dirname "${LINKGUARD_BIN:-.}")/masquerade
TOOLCHAIN=$LINKGUARD_SOURCE_DIR/cmake/linkguard-toolchain.cmake

SUITE_cmake_binutils_SETUP() {
  mkdir -p proj
  cat >proj/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(binutils LANGUAGES CXX)
include(CheckIPOSupported)
check_ipo_supported(RESULT ipo OUTPUT why LANGUAGES CXX)
file(WRITE "${CMAKE_BINARY_DIR}/tools.txt"
  "AR=${CMAKE_AR}\nCXX_COMPILER_AR=${CMAKE_CXX_COMPILER_AR}\n"
  "RANLIB=${CMAKE_RANLIB}\nCXX_COMPILER_RANLIB=${CMAKE_CXX_COMPILER_RANLIB}\n"
  "LINKER=${CMAKE_LINKER}\nIPO=${ipo}\n")
add_library(lib STATIC lib.cpp)
add_executable(prog main.cpp)
target_link_libraries(prog PRIVATE lib)
set_property(TARGET lib prog PROPERTY INTERPROCEDURAL_OPTIMIZATION ${ipo})
EOF
  echo 'int twice(int x) { return 2 * x; }' >proj/lib.cpp
  echo 'int twice(int); int main(int argc, char **) { return twice(argc) - 2; }' >proj/main.cpp
  # The PATH a user has: linkguard is not on it (-DLINKGUARD_EXECUTABLE
  # names it), the default clang++ is LLVM 14's.
  export PATH=/usr/local/bin:/usr/bin:/bin
}

# configure_form NAME [VAR=VALUE...] -- [CMAKE ARGS...]: configure and build
# proj in NAME with that environment; NAME/tools.txt holds the values.
configure_form() {
  local name=$1; shift
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" cmake -S proj -B "$name" -G Ninja "$@" >"$name.log" 2>&1 \
    || test_failed "configure ($name) failed: $(tail -30 "$name.log")"
  env "${envs[@]}" cmake --build "$name" --verbose >"$name.build.log" 2>&1 \
    || test_failed "build ($name) failed: $(tail -30 "$name.build.log")"
}

SUITE_cmake_binutils() {
  TEST "every form finds clang++-19's own ar, ranlib, linker and LTO archiver"
  configure_form ref CXX=/usr/bin/clang++-19 --
  local ref
  ref=$(cat ref/tools.txt)
  expect_contains "$ref" "CXX_COMPILER_AR=/usr/bin/llvm-ar-19" "reference tools"
  expect_contains "$ref" "IPO=YES" "reference tools"
  expect_contains "$(cat ref.build.log)" "-flto=thin" "reference build (LTO on)"

  # Drop-in through linkguard's masquerade link named like the compiler:
  # linkguard runs the next clang++-19 on PATH, CMake reads "clang++-19".
  configure_form masq CXX="$MASQ/clang++-19" --
  expect_equal "$(cat masq/tools.txt)" "$ref" "tools with CXX=$MASQ/clang++-19"
  expect_contains "$(grep -- '-o prog' masq.build.log)" "$MASQ/clang++-19" "the link line"

  # The toolchain file from the checkout, linkguard not on PATH: the nested
  # _CMakeLTOTest-CXX project of check_ipo_supported() must get
  # LINKGUARD_EXECUTABLE too (it failed with "linkguard not found").
  configure_form toolchain CXX=/usr/bin/clang++-19 -- -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN"
  expect_not_contains "$(cat toolchain.log)" "linkguard not found" "configure log"
  expect_equal "$(cat toolchain/tools.txt)" "$ref" "tools with the toolchain file"
  expect_contains "$(grep -- '-o prog' toolchain.build.log)" "$LINKGUARD_BIN -- /usr/bin/clang++-19" \
    "the link line"

  # The same with the compiler named by a chainloaded toolchain file.
  echo 'set(CMAKE_CXX_COMPILER /usr/bin/clang++-19)' >mine.cmake
  configure_form chain -- -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/mine.cmake" -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN"
  expect_equal "$(cat chain/tools.txt)" "$ref" "tools with a chainloaded toolchain file"

  configure_form launcher CXX=/usr/bin/clang++-19 -- -DCMAKE_CXX_LINKER_LAUNCHER="$LINKGUARD_BIN"
  expect_equal "$(cat launcher/tools.txt)" "$ref" "tools with CMAKE_CXX_LINKER_LAUNCHER"

  # The program is the same in every form (ELF links pass through).
  local f
  for f in masq toolchain chain launcher; do
    expect_same_file "$f/prog" ref/prog
    expect_not_contains "$(cat "$f.build.log")" "this CMake build runs" "$f: a form that works"
  done

  TEST "CXX=linkguard-clang++: CMake reads the name, not LINKGUARD_CXX (docs/integration.md)"
  # What the docs warn about: from "linkguard-clang++" CMake looks for
  # linkguard-llvm-ar-19 and unversioned llvm-ar (LLVM 14 here), finds no
  # LTO archiver and turns IPO off. The masquerade link above is the fix.
  configure_form dropin CXX="$(dirname "$LINKGUARD_BIN")/linkguard-clang++" \
    LINKGUARD_CXX=/usr/bin/clang++-19 --
  expect_contains "$(cat dropin/tools.txt)" "CXX_COMPILER_AR=CMAKE_CXX_COMPILER_AR-NOTFOUND" \
    "tools with CXX=linkguard-clang++"
  expect_contains "$(cat dropin/tools.txt)" "IPO=NO" "tools with CXX=linkguard-clang++"
  # CMake keeps what its compiler probe prints in CMakeOutput.log: the build
  # says it, at its first link, once per build directory, naming the form
  # that works (driver/CMakeCompiler.h).
  local said="linkguard: warning: this CMake build runs linkguard-clang++ as its compiler"
  expect_equal "$(grep -c "$said" dropin.build.log)" 1 "warnings in the build"
  expect_contains "$(cat dropin.build.log)" "-DCMAKE_TOOLCHAIN_FILE=" "the warning"
  expect_contains "$(cat dropin.build.log)" "Said once for $PWD/dropin." "the warning"
  expect_not_contains "$(cat dropin.log)" "$said" "the configure output (the probe's is CMake's)"
  touch proj/main.cpp
  env CXX="$(dirname "$LINKGUARD_BIN")/linkguard-clang++" LINKGUARD_CXX=/usr/bin/clang++-19 \
    cmake --build dropin --verbose >dropin.build2.log 2>&1 || test_failed "rebuild: $(cat dropin.build2.log)"
  expect_contains "$(cat dropin.build2.log)" "-o prog" "the rebuild links"
  expect_not_contains "$(cat dropin.build2.log)" "$said" "the second build"

  TEST "the installed masquerade folder gives the same tools"
  install_to "$PWD/prefix"
  expect_equal "$(readlink prefix/libexec/linkguard/clang++-19)" ../../bin/linkguard "installed link"
  configure_form ref CXX=/usr/bin/clang++-19 --
  configure_form inst CXX="$PWD/prefix/libexec/linkguard/clang++-19" --
  expect_equal "$(cat inst/tools.txt)" "$(cat ref/tools.txt)" "tools with the installed masquerade link"
  expect_same_file inst/prog ref/prog
}
