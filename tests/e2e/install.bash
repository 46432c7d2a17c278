# `cmake --install`: the binary, its multi-call names, the CMake toolchain
# file and the man page (generated from the --help texts) land under the
# prefix, and the installed copy works from there: --version, env, a
# wrapped link, and the toolchain finding <prefix>/bin/linkguard by itself.

SUITE_install_PROBE() {
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -f "${LINKGUARD_BUILD_DIR:-}/cmake_install.cmake" ] || { echo "LINKGUARD_BUILD_DIR has no cmake_install.cmake"; return; }
  [ -f "$(dirname "$LINKGUARD_BIN")/linkguard.1" ] || { echo "linkguard.1 not built (build the default target)"; return; }
  command -v ninja >/dev/null || echo "ninja not installed"
}

SUITE_install() {
  local version
  version=$(sed -n 's/^project(linkguard VERSION \([0-9.]*\).*/\1/p' "$LINKGUARD_SOURCE_DIR/CMakeLists.txt")

  TEST "the layout under the prefix"
  install_to "$PWD/prefix"
  expect_exists prefix/bin/linkguard
  [ -x prefix/bin/linkguard ] || test_failed "bin/linkguard is not executable"
  expect_equal "$(readlink prefix/bin/linkguard-clang++)" linkguard "bin/linkguard-clang++ link"
  expect_equal "$(readlink prefix/bin/linkguard-clang)" linkguard "bin/linkguard-clang link"
  expect_equal "$(readlink prefix/bin/linkguard-g++)" linkguard "bin/linkguard-g++ link"
  expect_equal "$(readlink prefix/bin/linkguard-gcc)" linkguard "bin/linkguard-gcc link"
  expect_same_file prefix/share/linkguard/cmake/linkguard-toolchain.cmake \
    "$LINKGUARD_SOURCE_DIR/cmake/linkguard-toolchain.cmake"
  expect_exists prefix/share/man/man1/linkguard.1
  [ -x prefix/libexec/linkguard/linkguard-loader ] || test_failed "libexec/linkguard/linkguard-loader"

  TEST "the installed try-load finds its loader relative to itself"
  install_to "$PWD/prefix"
  echo 'int ok(void) { return 0; }' >ok.c
  "$CLANG" -shared -fPIC ok.c -o ok.so || test_failed "ok.so"
  mv prefix moved # the prefix is relocatable
  out=$(moved/bin/linkguard try-load --call ok ok.so); status=$?
  expect_equal "$status" 0 "installed try-load: $out"
  expect_contains "$out" "ok.so: loader: $PWD/moved/libexec/linkguard/linkguard-loader"
  rm moved/libexec/linkguard/linkguard-loader
  moved/bin/linkguard try-load ok.so >/dev/null 2>err.txt; status=$?
  expect_equal "$status" 69 "try-load without its loader"
  expect_contains "$(cat err.txt)" "linkguard-loader is installed beside linkguard"

  TEST "the man page carries every --help text"
  install_to "$PWD/prefix"
  local page
  page=$(cat prefix/share/man/man1/linkguard.1)
  expect_contains "$page" ".TH LINKGUARD 1" "man page"
  local sub line
  for sub in "" run env explain try-load; do
    # shellcheck disable=SC2086
    while IFS= read -r line; do
      [ -n "$line" ] || continue
      case $line in .*|\'*) line="\\&$line" ;; esac
      expect_contains "$page" "${line//\\/\\e}" "man page line from linkguard $sub --help"
    done < <(prefix/bin/linkguard $sub --help)
  done
  if command -v man >/dev/null && command -v groff >/dev/null; then
    out=$(MANWIDTH=100 man -l prefix/share/man/man1/linkguard.1 2>&1) || test_failed "man -l failed: $out"
    expect_contains "$out" "linkguard run -- COMMAND ARGS..." "rendered man page"
  fi

  TEST "--version: linkguard's version and the real compiler it would use"
  install_to "$PWD/prefix"
  out=$(LINKGUARD_CXX=$CLANGXX prefix/bin/linkguard --version)
  expect_equal "$out" "linkguard $version
real compiler: $CLANGXX (from LINKGUARD_CXX)" "--version"
  mkdir -p bin && ln -s "$CLANGXX" bin/clang++
  out=$(PATH=$PWD/bin:/usr/bin:/bin prefix/bin/linkguard --version)
  expect_contains "$out" "real compiler: $PWD/bin/clang++ (from PATH)" "--version, PATH"
  out=$(PATH=/nonexistent prefix/bin/linkguard --version)
  expect_contains "$out" "real compiler: none found" "--version without a compiler"

  TEST "the installed linkguard-clang++ applies the rule; env points at the prefix"
  install_to "$PWD/prefix"
  out=$(CXX=$CLANGXX prefix/bin/linkguard env)
  expect_contains "$out" "export CXX='$PWD/prefix/bin/linkguard-clang++'" "env"
  write_sdk sdk
  write_aoti_model .
  local f
  # shellcheck disable=SC2046
  for f in wrapper kernel consts; do
    LINKGUARD_CXX=$CLANGXX prefix/bin/linkguard-clang++ "model.$f.cpp" $(macho_flags sdk) \
      "${AOTI_MPS_CFLAGS[@]}" -c -o "model.$f.o" || test_failed "compile $f"
  done
  # shellcheck disable=SC2046
  LINKGUARD_CXX=$CLANGXX prefix/bin/linkguard-clang++ model.*.o $(macho_flags sdk) \
    "${AOTI_MPS_CFLAGS[@]}" -nostdlib++ -o model.so -lomp -Lsdk/omp || test_failed "link"
  expect_not_contains "$("$LLVM_BIN/llvm-otool" -L model.so)" libomp "otool -L"

  TEST "the installed toolchain file finds <prefix>/bin/linkguard by itself"
  install_to "$PWD/prefix"
  mkdir proj
  cat >proj/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX)
message(STATUS "launcher: ${CMAKE_CXX_LINKER_LAUNCHER}")
EOF
  cmake -S proj -B b -G Ninja -DCMAKE_CXX_COMPILER="$CLANGXX" \
      -DCMAKE_TOOLCHAIN_FILE="$PWD/prefix/share/linkguard/cmake/linkguard-toolchain.cmake" \
      >configure.log 2>&1 || test_failed "configure failed: $(cat configure.log)"
  expect_contains "$(cat configure.log)" "launcher: $PWD/prefix/bin/linkguard;--" "configure log"

  TEST "DESTDIR staging keeps the links relative"
  install_to /opt/linkguard-test "$PWD/stage"
  expect_exists stage/opt/linkguard-test/bin/linkguard
  expect_equal "$(readlink stage/opt/linkguard-test/bin/linkguard-clang++)" linkguard "staged link"
  expect_exists stage/opt/linkguard-test/share/man/man1/linkguard.1
  expect_missing /opt/linkguard-test
}
