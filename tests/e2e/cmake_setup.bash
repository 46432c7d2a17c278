# cmake/linkguard-toolchain.cmake as a user sets it up: a linker launcher
# the user already has (command line, environment, their toolchain file,
# set after project()), ExternalProject sub-projects, a wrong
# LINKGUARD_EXECUTABLE, a relative chainloaded toolchain, where linkguard is
# found, and Xcode's link driver settings. Real projects, cross-linked for
# Mach-O with -lomp and USE_MPS: a link that went through linkguard with the
# define loses libomp.

# shellcheck source=cmake_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/cmake_lib.sh"

SUITE_cmake_setup_PROBE() { cmake_probe; }

# write_model_project DIR [TARGET...]: one SHARED library per TARGET (default
# model), compiled with USE_MPS, linked with -lomp.
write_model_project() {
  local p=$1 t; shift
  mkdir -p "$p"
  cat >"$p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.21)
project(m LANGUAGES CXX)
function(model name)
  add_library(${name} SHARED ${CMAKE_CURRENT_SOURCE_DIR}/m.cpp)
  target_compile_definitions(${name} PRIVATE USE_MPS)
  target_link_directories(${name} PRIVATE ${OMP_DIR})
  target_link_libraries(${name} PRIVATE omp)
endfunction()
CM
  echo 'extern "C" int lg_model(void) { return 1; }' >"$p/m.cpp"
  for t in "${@:-model}"; do echo "model($t)" >>"$p/CMakeLists.txt"; done
}

# a launcher that records how it was run, then runs it
write_recorder() { # FILE LOG
  cat >"$1" <<EOT
#!/bin/sh
echo "\$0 \$*" >>"$2"
exec "\$@"
EOT
  chmod +x "$1"
}

# write_outer_project: outer/ with proj as an ExternalProject (the usual
# -DCMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}); LG_EP_ARGS adds options.
write_outer_project() {
  mkdir outer && mv proj outer/sub
  cat >outer/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.21)
project(outer LANGUAGES CXX)
include(ExternalProject)
ExternalProject_Add(sub SOURCE_DIR ${CMAKE_SOURCE_DIR}/sub
  CMAKE_ARGS -DCMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE} -DOMP_DIR=${OMP_DIR}
             -DCMAKE_VERBOSE_MAKEFILE=ON
  ${LG_EP_ARGS} INSTALL_COMMAND "")
CM
}

SUITE_cmake_setup_SETUP() {
  write_sdk "$PWD/sdk"
  write_cross_toolchain "$PWD/darwin.cmake" "$PWD/sdk"
  write_model_project "$PWD/proj"
  write_recorder "$PWD/rec" "$PWD/rec.log"
}

configure_lg() { # BUILD_DIR [ARGS...]: Ninja, the chainloaded cross toolchain, built linkguard
  cmake_configure proj "$1" Ninja -DOMP_DIR="$PWD/sdk/omp" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake" \
    -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN" "${@:2}"
}

# expect_chained BUILD_DIR LIB: the link of LIB ran rec, then linkguard with
# the define, then the compiler; libomp is gone.
expect_chained() {
  expect_contains "$(link_line "$1.build.log" "$2")" \
    "$PWD/rec $LINKGUARD_BIN --assume-define=USE_MPS -- $CLANGXX" "the link line of $2"
  expect_contains "$(cat rec.log)" "$PWD/rec $LINKGUARD_BIN --assume-define=USE_MPS -- $CLANGXX" "what rec ran"
  expect_exists "$1/$2"
  expect_not_contains "$(otool_deps "$1/$2")" libomp "otool -L $2"
  expect_contains "$(otool_deps "$1/$2")" /usr/lib/libSystem.B.dylib "otool -L $2"
}

SUITE_cmake_setup() {
  local log
  TEST "the user's -DCMAKE_CXX_LINKER_LAUNCHER runs first, then linkguard"
  configure_lg lg -DCMAKE_CXX_LINKER_LAUNCHER="$PWD/rec"
  cmake_build lg
  expect_chained lg libmodel.dylib
  # A second configure of the same tree does not chain twice.
  configure_lg lg
  cmake_build lg --target clean && cmake_build lg
  expect_equal "$(link_line lg.build.log libmodel.dylib | grep -o "$LINKGUARD_BIN" | wc -l | tr -d ' ')" 1 \
    "linkguard words on the link line after a reconfigure"
  expect_chained lg libmodel.dylib

  TEST "CMAKE_CXX_LINKER_LAUNCHER from the environment runs first, then linkguard"
  CMAKE_CXX_LINKER_LAUNCHER="$PWD/rec" configure_lg lg
  cmake_build lg
  expect_chained lg libmodel.dylib
  # Kept by a later configure without it, as CMake keeps it.
  configure_lg lg
  : >rec.log
  cmake_build lg --target clean && cmake_build lg
  expect_chained lg libmodel.dylib

  TEST "a chainloaded toolchain's launcher is kept, in front of linkguard"
  echo "set(CMAKE_CXX_LINKER_LAUNCHER $PWD/rec)" >>darwin.cmake
  configure_lg lg
  cmake_build lg
  expect_chained lg libmodel.dylib

  TEST "a launcher set after project() is chained for the targets after it; the ones before keep linkguard"
  write_model_project "$PWD/proj" before
  echo "set(CMAKE_CXX_LINKER_LAUNCHER $PWD/rec)" >>proj/CMakeLists.txt
  echo "model(after)" >>proj/CMakeLists.txt
  configure_lg lg
  cmake_build lg
  expect_chained lg libafter.dylib
  expect_contains "$(link_line lg.build.log libbefore.dylib)" \
    ": && $LINKGUARD_BIN --assume-define=USE_MPS -- $CLANGXX" "the link line of libbefore.dylib"
  expect_not_contains "$(otool_deps lg/libbefore.dylib)" libomp "otool -L libbefore.dylib"

  TEST "a launcher of the user's that already runs linkguard is left alone"
  echo "set_property(TARGET model PROPERTY CXX_LINKER_LAUNCHER $LINKGUARD_BIN --assume-aot --)" >>proj/CMakeLists.txt
  configure_lg lg
  cmake_build lg
  expect_contains "$(link_line lg.build.log libmodel.dylib)" ": && $LINKGUARD_BIN --assume-aot -- $CLANGXX" "the link line"

  TEST "ExternalProject_Add with -DCMAKE_TOOLCHAIN_FILE=\${CMAKE_TOOLCHAIN_FILE} keeps the chainloaded toolchain"
  write_outer_project
  cmake_configure outer lg Ninja -DOMP_DIR="$PWD/sdk/omp" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake" -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN"
  expect_contains "$(cat lg.configure.log)" "linkguard: ExternalProject sub: takes this build's linkguard settings" "configure output"
  cmake_build lg
  local sub=lg/sub-prefix/src/sub-build
  expect_contains "$(cat "$sub/CMakeCache.txt")" "LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE:FILEPATH=$PWD/darwin.cmake" "the sub-project's cache"
  expect_contains "$(cat lg.build.log)" "linkguard: $LINKGUARD_BIN (linkguard" "the sub-project's configure output"
  expect_contains "$(cat lg.build.log)" "settings of the enclosing build $PWD/lg" "the sub-project's configure output"
  expect_exists "$sub/libmodel.dylib"
  expect_contains "$("$LINKGUARD_BIN" inspect "$sub/libmodel.dylib")" /usr/lib/libSystem.B.dylib "inspect: a Mach-O for the cross target"
  expect_not_contains "$(otool_deps "$sub/libmodel.dylib")" libomp "otool -L"

  TEST "an ExternalProject built outside the build directory without the chainload is refused at configure"
  write_outer_project
  if cmake -S outer -B lg -G Ninja -DOMP_DIR="$PWD/sdk/omp" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
      -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake" -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN" \
      "-DLG_EP_ARGS=BINARY_DIR;$PWD/elsewhere" >lg.configure.log 2>&1; then
    test_failed "configure should fail: $(cat lg.configure.log)"
  fi
  expect_contains "$(tr '\n' ' ' <lg.configure.log | tr -s ' ')" \
    "linkguard: ExternalProject sub passes CMAKE_TOOLCHAIN_FILE=" "configure output"
  expect_contains "$(tr -d '\n ' <lg.configure.log)" "-DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE=$PWD/darwin.cmake" "configure output"

  TEST "a LINKGUARD_EXECUTABLE that is missing or a compiler name is one clear configure error"
  local bad
  mkdir fake && printf '#!/bin/sh\necho "clang version 19"\n' >fake/linkguard && chmod +x fake/linkguard
  for bad in "$PWD/nope/linkguard" "$(dirname "$LINKGUARD_BIN")/linkguard-clang++" "$PWD/fake/linkguard"; do
    rm -rf lg
    if cmake -S proj -B lg -G Ninja -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
        -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake" \
        -DLINKGUARD_EXECUTABLE="$bad" >bad.log 2>&1; then
      test_failed "configure with LINKGUARD_EXECUTABLE=$bad should fail"
    fi
    expect_contains "$(tr '\n' ' ' <bad.log | tr -s ' ')" "linkguard: LINKGUARD_EXECUTABLE=$bad " "configure output"
    expect_not_contains "$(cat bad.log)" "simple test program" "configure output"
    case $bad in
      */nope/*) expect_contains "$(tr '\n' ' ' <bad.log | tr -s ' ')" "does not exist" "$bad" ;;
      *clang++) expect_contains "$(tr '\n' ' ' <bad.log | tr -s ' ')" "not linkguard: under another name" "$bad" ;;
      *) expect_contains "$(tr '\n' ' ' <bad.log | tr -s ' ')" "is not linkguard (" "$bad" ;;
    esac
  done

  TEST "a relative LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE is looked up in the build directory, then the source directory"
  cp darwin.cmake proj/darwin.cmake
  mkdir elsewhere
  (cd elsewhere && cmake -S ../proj -B ../lg -G Ninja -DOMP_DIR="$PWD/../sdk/omp" \
    -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE=darwin.cmake \
    -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN" >../lg.configure.log 2>&1) ||
    test_failed "configure: $(cat lg.configure.log)"
  expect_contains "$(cat lg/CMakeCache.txt)" "LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE:FILEPATH=$PWD/proj/darwin.cmake" "cache"
  cmake_build lg
  expect_not_contains "$(otool_deps lg/libmodel.dylib)" libomp "otool -L"
  expect_contains "$(otool_deps lg/libmodel.dylib)" /usr/lib/libSystem.B.dylib "otool -L"
  # The build directory's wins over the source directory's.
  mkdir lg2 && echo 'message(STATUS "the build directory toolchain")' >lg2/darwin.cmake
  cat proj/darwin.cmake >>lg2/darwin.cmake
  (cd elsewhere && cmake -S ../proj -B ../lg2 -G Ninja -DOMP_DIR="$PWD/../sdk/omp" \
    -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE=darwin.cmake \
    -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN" >../lg2.configure.log 2>&1) ||
    test_failed "configure: $(cat lg2.configure.log)"
  expect_contains "$(cat lg2/CMakeCache.txt)" "LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE:FILEPATH=$PWD/lg2/darwin.cmake" "cache"
  expect_contains "$(cat lg2.configure.log)" "the build directory toolchain" "configure output"

  TEST "linkguard is found beside an installed toolchain file, and from a checkout on PATH only"
  local real
  real=$(cd "$(dirname "$LINKGUARD_BIN")" && pwd -P)/linkguard
  # A checkout two levels under a folder whose bin/ holds another linkguard.
  mkdir -p home/bin home/src/lg/cmake path
  cp "$TOOLCHAIN" home/src/lg/cmake/
  ln -s "$real" home/bin/linkguard
  ln -s "$real" path/linkguard
  PATH=$PWD/path:$PATH cmake_configure proj lg Ninja -DOMP_DIR="$PWD/sdk/omp" \
    -DCMAKE_TOOLCHAIN_FILE="$PWD/home/src/lg/cmake/linkguard-toolchain.cmake" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake"
  expect_contains "$(cat lg/CMakeCache.txt)" "LINKGUARD_EXECUTABLE:FILEPATH=$PWD/path/linkguard" "from a checkout"
  # Installed: <prefix>/share/linkguard/cmake and <prefix>/bin.
  mkdir -p prefix/share/linkguard/cmake prefix/bin
  cp "$TOOLCHAIN" prefix/share/linkguard/cmake/
  ln -s "$real" prefix/bin/linkguard
  PATH=$PWD/path:$PATH cmake_configure proj lg2 Ninja -DOMP_DIR="$PWD/sdk/omp" \
    -DCMAKE_TOOLCHAIN_FILE="$PWD/prefix/share/linkguard/cmake/linkguard-toolchain.cmake" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake"
  expect_contains "$(cat lg2/CMakeCache.txt)" "LINKGUARD_EXECUTABLE:FILEPATH=$PWD/prefix/bin/linkguard" "installed"

  TEST "CXX=linkguard-clang++ with the toolchain file: said once; links run it as the compiler, -DUSE_MPS on the link line"
  local lgxx
  lgxx=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  mkdir native && echo 'int main() { return 0; }' >native/main.cpp
  printf 'cmake_minimum_required(VERSION 3.21)\nproject(n CXX)\nadd_executable(n main.cpp)\n' >native/CMakeLists.txt
  CXX=$lgxx LINKGUARD_CXX=$CLANGXX cmake_configure native lg Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN"
  log=$(tr '\n' ' ' <lg.configure.log | tr -s ' ')
  expect_contains "$log" "linkguard: CMAKE_CXX_COMPILER is $lgxx, which is linkguard" "configure output"
  expect_contains "$log" "CXX=<prefix>/libexec/linkguard/clang++-19" "configure output"
  expect_equal "$(grep -c 'CMAKE_CXX_COMPILER is' lg.configure.log)" 1 "warnings"
  LINKGUARD_CXX=$CLANGXX cmake_build lg
  expect_contains "$(link_line lg.build.log n)" ": && $lgxx " "the link line"
  expect_not_contains "$(cat lg.build.log)" "this CMake build runs" "the build (said at configure)"
  LINKGUARD_CXX=$CLANGXX cmake_configure native lg Ninja
  expect_not_contains "$(cat lg.configure.log)" "CMAKE_CXX_COMPILER is" "second configure"
  # A cross toolchain naming linkguard-clang++: the model loses libomp.
  write_cross_toolchain "$PWD/darwin-lg.cmake" "$PWD/sdk" "$lgxx" "$(dirname "$LINKGUARD_BIN")/linkguard-clang"
  LINKGUARD_CXX=$CLANGXX cmake_configure proj lg2 Ninja -DOMP_DIR="$PWD/sdk/omp" \
    -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin-lg.cmake" \
    -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN"
  expect_contains "$(cat lg2.configure.log)" "-- linkguard: model: --assume-define=USE_MPS" "configure output"
  LINKGUARD_CXX=$CLANGXX cmake_build lg2
  expect_contains "$(link_line lg2.build.log libmodel.dylib)" ": && $lgxx " "the link line"
  expect_contains "$(link_line lg2.build.log libmodel.dylib)" " -DUSE_MPS" "the link line"
  expect_not_contains "$(otool_deps lg2/libmodel.dylib)" libomp "otool -L"
  expect_contains "$(otool_deps lg2/libmodel.dylib)" /usr/lib/libSystem.B.dylib "otool -L"
  # The masquerade folder's clang++-19 (a link to linkguard): no launcher
  # either, and nothing to say (CMake finds the right tools from that name).
  local masq
  masq=$(dirname "$LINKGUARD_BIN")/masquerade/clang++-19
  [ -L "$masq" ] || test_failed "$masq is not a link"
  CXX=$masq cmake_configure native lg4 Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN"
  expect_not_contains "$(cat lg4.configure.log)" "Warning" "configure output"
  cmake_build lg4
  expect_contains "$(link_line lg4.build.log n)" ": && $masq " "the link line"
  # The real compiler: nothing to say.
  CXX=$CLANGXX cmake_configure native lg3 Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN"
  expect_not_contains "$(cat lg3.configure.log)" "CMAKE_CXX_COMPILER is" "configure output"
  expect_not_contains "$(cat lg3.configure.log)" "Warning" "configure output"

  TEST "the README's CMake line, on an install: links through linkguard, CMake's own tools, IPO"
  install_to "$PWD/prefix"
  local readme_line
  readme_line=$(sed -n '/^## Use it/,/^## /p' "$LINKGUARD_SOURCE_DIR/README.md" |
    grep -m1 '^cmake .*-DCMAKE_TOOLCHAIN_FILE=<prefix>/share/linkguard/cmake/linkguard-toolchain.cmake')
  expect_contains "$readme_line" "cmake -S . -B build" "the README's CMake line under Use it"
  # The first screen (tests/e2e/readme.bash) shows the same line.
  expect_equal "$(head -n 40 "$LINKGUARD_SOURCE_DIR/README.md" |
    grep -m1 '^cmake .*-DCMAKE_TOOLCHAIN_FILE=')" "$readme_line" "the README's first screen"
  mkdir native && cat >native/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.21)
project(n CXX)
include(CheckIPOSupported)
check_ipo_supported(RESULT ipo)
message(STATUS "IPO=${ipo} AR=${CMAKE_AR} CXX_COMPILER_AR=${CMAKE_CXX_COMPILER_AR}")
add_executable(n main.cpp)
CM
  echo 'int main() { return 0; }' >native/main.cpp
  read -r -a words <<<"${readme_line//<prefix>/$PWD/prefix}"
  (cd native && CXX=clang++-19 "${words[@]}" -G Ninja >../readme.configure.log 2>&1) ||
    test_failed "the README's line: $(cat readme.configure.log)"
  expect_contains "$(cat readme.configure.log)" "linkguard: $PWD/prefix/bin/linkguard (linkguard" "configure output"
  expect_contains "$(cat readme.configure.log)" "IPO=YES AR=/usr/bin/llvm-ar-19 CXX_COMPILER_AR=/usr/bin/llvm-ar-19" "configure output"
  cmake_build native/build
  expect_contains "$(link_line native/build.build.log n)" ": && $PWD/prefix/bin/linkguard -- " "the link line"

  TEST "the toolchain added to an existing build directory is not read (CMake says so); --fresh reads it"
  # CMake reads a toolchain file at a tree's first configure only, so
  # linkguard's file cannot speak here: docs/integration.md says to use a
  # fresh directory or --fresh, and this is the behaviour that advice rests on.
  cmake_configure proj lg Ninja -DOMP_DIR="$PWD/sdk/omp" -DCMAKE_TOOLCHAIN_FILE="$PWD/darwin.cmake"
  configure_lg lg
  expect_contains "$(tr '\n' ' ' <lg.configure.log | tr -s ' ')" \
    "Manually-specified variables were not used by the project: CMAKE_TOOLCHAIN_FILE" "configure output"
  expect_not_contains "$(cat lg.configure.log)" "-- linkguard:" "configure output"
  expect_contains "$(sed -n '/^## CMake: the toolchain file/,/^## /p' "$LINKGUARD_SOURCE_DIR/docs/integration.md")" \
    "Use a **fresh build directory** (or \`cmake --fresh\`" "docs/integration.md"
  cmake_build lg
  expect_not_contains "$(link_line lg.build.log libmodel.dylib)" "$LINKGUARD_BIN" "the link line"
  configure_lg lg --fresh
  expect_contains "$(cat lg.configure.log)" "-- linkguard: model: --assume-define=USE_MPS" "configure output after --fresh"
  cmake_build lg
  expect_not_contains "$(otool_deps lg/libmodel.dylib)" libomp "otool -L after --fresh"

  TEST "Xcode: the link drivers LDPLUSPLUS/LD become linkguard-clang++/linkguard-clang"
  # No Xcode generator here: the toolchain file runs as a script with the
  # generator CMake would have set, and prints what it set.
  local dir
  dir=$(dirname "$LINKGUARD_BIN")
  cat >xcode.cmake <<EOT
set(CMAKE_GENERATOR Xcode)
set(LINKGUARD_EXECUTABLE "$LINKGUARD_BIN")
include("$TOOLCHAIN")
message("LDPLUSPLUS=\${CMAKE_XCODE_ATTRIBUTE_LDPLUSPLUS}")
message("LD=\${CMAKE_XCODE_ATTRIBUTE_LD}")
EOT
  cmake -P xcode.cmake >xcode.log 2>&1 || test_failed "cmake -P: $(cat xcode.log)"
  expect_contains "$(cat xcode.log)" "LDPLUSPLUS=$dir/linkguard-clang++" "Xcode"
  expect_contains "$(cat xcode.log)" "LD=$dir/linkguard-clang" "Xcode"
  expect_contains "$(tr '\n' ' ' <xcode.log | tr -s ' ')" "untested" "Xcode"
  sed -i 's/set(CMAKE_GENERATOR Xcode)/set(CMAKE_GENERATOR Ninja)/' xcode.cmake
  cmake -P xcode.cmake >ninja.log 2>&1 || test_failed "cmake -P: $(cat ninja.log)"
  expect_contains "$(cat ninja.log)" "LDPLUSPLUS=
LD=" "Ninja: no Xcode settings"
}
