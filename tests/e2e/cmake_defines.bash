# Which targets cmake/linkguard-toolchain.cmake tells linkguard about USE_MPS
# (--assume-define=USE_MPS on the target's link launcher): one real CMake
# project, cross-linked for Mach-O, with a SHARED library per way a target's
# objects come to be compiled with USE_MPS, each linked with -lomp and
# nothing calling OpenMP. A target that gets the define loses libomp (the MPS
# rule fires); one that does not keeps it. Also checks the configure lines
# that say which target got what.

# shellcheck source=cmake_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/cmake_lib.sh"

SUITE_cmake_defines_PROBE() { cmake_probe; }

# The targets and how USE_MPS reaches their objects (DEFS_FORWARDED), or
# does not in a Release build (DEFS_NOT).
DEFS_FORWARDED=(genex_release iface pubdep opts diropts srcprop percfg objs cxxonly)
DEFS_NOT=(genex_debug plain cconly)

write_defines_project() {
  local p=$1 t
  mkdir -p "$p/sub"
  for t in "${DEFS_FORWARDED[@]}" "${DEFS_NOT[@]}" base objs_impl; do
    echo "extern \"C\" int lg_$t(void) { return 1; }" >"$p/$t.cpp"
  done
  cat >"$p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.21)
project(defs LANGUAGES C CXX)
if(LG_OLD_0043)
  cmake_policy(SET CMP0043 OLD)
endif()
function(model name)
  add_library(${name} SHARED ${ARGN})
  target_link_directories(${name} PRIVATE ${OMP_DIR})
  target_link_libraries(${name} PRIVATE omp)
endfunction()
# The issue's example: USE_MPS in Debug only, inside one generator expression.
model(genex_debug genex_debug.cpp)
target_compile_definitions(genex_debug PRIVATE "$<$<CONFIG:Debug>:A;USE_MPS;B>")
model(genex_release genex_release.cpp)
target_compile_definitions(genex_release PRIVATE "$<$<CONFIG:Release>:A;USE_MPS;B>")
# An INTERFACE library's usage requirement.
add_library(mps_flags INTERFACE)
target_compile_definitions(mps_flags INTERFACE USE_MPS)
model(iface iface.cpp)
target_link_libraries(iface PRIVATE mps_flags)
# A PUBLIC definition of a static library, linked through an ALIAS.
add_library(base STATIC base.cpp)
target_compile_definitions(base PUBLIC USE_MPS=1)
add_library(lg::base ALIAS base)
model(pubdep pubdep.cpp)
target_link_libraries(pubdep PRIVATE lg::base)
# Compile options.
model(opts opts.cpp)
target_compile_options(opts PRIVATE -DUSE_MPS)
add_subdirectory(sub)
# A source file's property.
model(srcprop srcprop.cpp)
set_source_files_properties(srcprop.cpp PROPERTIES COMPILE_DEFINITIONS USE_MPS)
# COMPILE_DEFINITIONS_<CONFIG>, honoured only where CMP0043 is OLD.
model(percfg percfg.cpp)
set_property(TARGET percfg PROPERTY COMPILE_DEFINITIONS_RELEASE USE_MPS)
# Objects of an OBJECT library compiled with USE_MPS.
add_library(mps_obj OBJECT objs_impl.cpp)
set_property(TARGET mps_obj PROPERTY POSITION_INDEPENDENT_CODE ON)
target_compile_definitions(mps_obj PRIVATE USE_MPS)
model(objs objs.cpp $<TARGET_OBJECTS:mps_obj>)
# $<COMPILE_LANGUAGE:...>: C++ sources get it, C sources do not.
model(cxxonly cxxonly.cpp)
target_compile_options(cxxonly PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:-DUSE_MPS>")
model(cconly cconly.c)
target_compile_options(cconly PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:-DUSE_MPS>")
model(plain plain.cpp)
CM
  mv "$p/cconly.cpp" "$p/cconly.c"
  echo 'int lg_cconly(void) { return 1; }' >"$p/cconly.c"
  cat >"$p/sub/CMakeLists.txt" <<'CM'
add_compile_options(-DUSE_MPS)
model(diropts ${CMAKE_SOURCE_DIR}/diropts.cpp)
CM
}

SUITE_cmake_defines_SETUP() {
  write_sdk "$PWD/sdk"
  write_cross_toolchain "$PWD/darwin.cmake" "$PWD/sdk"
  write_defines_project "$PWD/proj"
}

configure_defs() { # BUILD_DIR GENERATOR [ARGS...]
  cmake_configure proj "$1" "$2" -DOMP_DIR="$PWD/sdk/omp" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin.cmake" \
    -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN" "${@:3}"
}

SUITE_cmake_defines() {
  local t line log f c
  TEST "every way USE_MPS reaches a target's objects is forwarded to its link, and only those"
  configure_defs lg Ninja -DCMAKE_BUILD_TYPE=Release -DLG_OLD_0043=ON
  log=$(cat lg.configure.log)
  cmake_build lg
  for t in "${DEFS_FORWARDED[@]}"; do
    line=$(link_line lg.build.log "lib$t.dylib")
    expect_contains "$line" "$LINKGUARD_BIN --assume-define=USE_MPS -- $CLANG" "$t: the link line"
    expect_contains "$log" "-- linkguard: $t: --assume-define=USE_MPS" "$t: configure output"
    f=lg/lib$t.dylib; [ "$t" = diropts ] && f=lg/sub/lib$t.dylib
    expect_exists "$f"
    expect_not_contains "$(otool_deps "$f")" libomp "$t: otool -L"
    expect_contains "$(otool_deps "$f")" /usr/lib/libSystem.B.dylib "$t: otool -L"
  done
  for t in "${DEFS_NOT[@]}"; do
    line=$(link_line lg.build.log "lib$t.dylib")
    expect_contains "$line" "$LINKGUARD_BIN -- $CLANG" "$t: the link line"
    expect_not_contains "$line" "assume-define" "$t: the link line"
    expect_not_contains "$log" "linkguard: $t:" "$t: configure output"
    expect_exists "lg/lib$t.dylib"
    expect_contains "$(otool_deps "lg/lib$t.dylib")" /opt/llvm-openmp/lib/libomp.dylib "$t: otool -L"
  done
  # The binary and the chainloaded toolchain are said once.
  expect_equal "$(grep -c -- '-- linkguard: .* on every link' lg.configure.log)" 1 "lines naming linkguard"
  expect_contains "$log" "-- linkguard: $LINKGUARD_BIN (linkguard " "configure output"
  expect_contains "$log" "chainloaded toolchain $PWD/darwin.cmake" "configure output"

  TEST "Debug: the generator expression's USE_MPS applies; COMPILE_DEFINITIONS_RELEASE does not"
  configure_defs lg Ninja -DCMAKE_BUILD_TYPE=Debug -DLG_OLD_0043=ON
  cmake_build lg --target genex_debug genex_release percfg
  expect_contains "$(link_line lg.build.log libgenex_debug.dylib)" "--assume-define=USE_MPS" "genex_debug"
  expect_contains "$(otool_deps lg/libgenex_debug.dylib)" libSystem "genex_debug: otool -L"
  expect_not_contains "$(otool_deps lg/libgenex_debug.dylib)" libomp "genex_debug: otool -L"
  for t in genex_release percfg; do
    expect_not_contains "$(link_line lg.build.log "lib$t.dylib")" "assume-define" "$t"
    expect_contains "$(otool_deps "lg/lib$t.dylib")" libomp "$t: otool -L"
  done

  TEST "COMPILE_DEFINITIONS_<CONFIG> is not forwarded where CMP0043 is NEW (CMake ignores it)"
  configure_defs lg Ninja -DCMAKE_BUILD_TYPE=Release
  expect_not_contains "$(cat lg.configure.log)" "linkguard: percfg:" "configure output"
  cmake_build lg --target percfg
  expect_not_contains "$(link_line lg.build.log libpercfg.dylib)" "assume-define" "percfg"
  expect_contains "$(otool_deps lg/libpercfg.dylib)" libomp "percfg: otool -L"

  TEST "Ninja Multi-Config: a define of every configuration is forwarded; one of some is said"
  configure_defs lg "Ninja Multi-Config" -DCMAKE_CONFIGURATION_TYPES="Debug;Release"
  log=$(cat lg.configure.log)
  expect_contains "$log" "-- linkguard: opts: --assume-define=USE_MPS" "configure output"
  if cmake_version_at_least 3.27; then
    expect_contains "$log" "-- linkguard: genex_debug: --assume-define=USE_MPS (Debug only)" "configure output"
  else
    expect_contains "$log" "-- linkguard: genex_debug: USE_MPS is defined in Debug only" "configure output"
  fi
  cmake_build lg --config Release --target genex_debug opts
  expect_not_contains "$(link_line lg.build.log libgenex_debug.dylib)" "assume-define" "genex_debug, Release"
  expect_contains "$(otool_deps lg/Release/libgenex_debug.dylib)" libomp "genex_debug, Release: otool -L"
  expect_contains "$(link_line lg.build.log libopts.dylib)" "--assume-define=USE_MPS" "opts, Release"
  expect_contains "$(otool_deps lg/Release/libopts.dylib)" libSystem "opts, Release: otool -L"
  expect_not_contains "$(otool_deps lg/Release/libopts.dylib)" libomp "opts, Release: otool -L"

  TEST "Ninja Multi-Config, the compiler is linkguard-clang++: per-configuration -DUSE_MPS on the link line"
  # The path Xcode takes too (its link driver is linkguard-clang++): link
  # options take generator expressions in every CMake version.
  local lgxx
  lgxx=$(dirname "$LINKGUARD_BIN")/linkguard-clang++
  write_cross_toolchain "$PWD/darwin-lg.cmake" "$PWD/sdk" "$lgxx" "$(dirname "$LINKGUARD_BIN")/linkguard-clang"
  export LINKGUARD_CXX=$CLANGXX LINKGUARD_CC=$CLANG
  cmake_configure proj lg "Ninja Multi-Config" -DOMP_DIR="$PWD/sdk/omp" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
    -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE="$PWD/darwin-lg.cmake" -DLINKGUARD_EXECUTABLE="$LINKGUARD_BIN" \
    -DCMAKE_CONFIGURATION_TYPES="Debug;Release"
  expect_contains "$(cat lg.configure.log)" "-- linkguard: genex_debug: --assume-define=USE_MPS (Debug only)" "configure output"
  for c in Debug Release; do
    cmake_build lg --config $c --target genex_debug
    cp lg.build.log "lg.$c.build.log"
  done
  unset LINKGUARD_CXX LINKGUARD_CC
  expect_contains "$(link_line lg.Debug.build.log libgenex_debug.dylib)" ": && $lgxx " "Debug: the link line"
  expect_contains "$(link_line lg.Debug.build.log libgenex_debug.dylib)" " -DUSE_MPS" "Debug: the link line"
  expect_not_contains "$(otool_deps lg/Debug/libgenex_debug.dylib)" libomp "Debug: otool -L"
  expect_contains "$(otool_deps lg/Debug/libgenex_debug.dylib)" libSystem "Debug: otool -L"
  expect_not_contains "$(link_line lg.Release.build.log libgenex_debug.dylib)" "-DUSE_MPS" "Release: the link line"
  expect_contains "$(otool_deps lg/Release/libgenex_debug.dylib)" libomp "Release: otool -L"

  TEST "a generator expression linkguard cannot evaluate is said, not guessed"
  echo 'model(unknown plain.cpp)
target_compile_definitions(unknown PRIVATE "$<$<TARGET_EXISTS:nope>:USE_MPS>")' >>proj/CMakeLists.txt
  configure_defs lg Ninja -DCMAKE_BUILD_TYPE=Release
  expect_contains "$(tr '\n' ' ' <lg.configure.log | tr -s ' ')" \
    "linkguard: unknown: USE_MPS in unknown's COMPILE_DEFINITIONS sits in a generator expression" \
    "configure output"
  expect_not_contains "$(cat lg.configure.log)" "linkguard: unknown: --assume-define" "configure output"
}
