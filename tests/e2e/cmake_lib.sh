# Helpers for the CMake suites (cmake_*.bash, aoti_cmake.bash): a Mach-O
# cross toolchain the user already has, configure/build with logs, the link
# line of one output. Sourced by the suites after lib.sh.

TOOLCHAIN=$LINKGUARD_SOURCE_DIR/cmake/linkguard-toolchain.cmake

# cmake_probe: prints why a CMake suite cannot run here (for a PROBE).
cmake_probe() {
  command -v cmake >/dev/null || { echo "cmake not installed"; return; }
  command -v ninja >/dev/null || { echo "ninja not installed"; return; }
  [ -x "${LINKGUARD_BIN:-}" ] || { echo "LINKGUARD_BIN is not set to the built linkguard"; return; }
  [ -x "$LLVM_BIN/ld64.lld" ] || { echo "$LLVM_BIN/ld64.lld not found"; return; }
  local v
  v=$(cmake --version | sed -n 's/^cmake version \([0-9]*\.[0-9]*\).*/\1/p')
  case $v in 3.2[1-9]|3.[3-9]*|[4-9].*) ;; *) echo "cmake $v < 3.21 has no LINKER_LAUNCHER"; return ;; esac
}

# cmake_version_at_least MAJOR.MINOR
cmake_version_at_least() {
  local v
  v=$(cmake --version | sed -n 's/^cmake version \([0-9]*\.[0-9]*\).*/\1/p')
  [ "$(printf '%s\n%s\n' "$1" "$v" | sort -V | head -1)" = "$1" ]
}

# write_cross_toolchain FILE SDK [CXX CC]: the Mach-O cross toolchain a user
# already has (../shared/README.md: checked to configure and build on this
# machine). -nostdlib++: the test SDK has no libc++ stub.
write_cross_toolchain() {
  cat >"$1" <<EOT
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_PROCESSOR arm64)
set(CMAKE_C_COMPILER ${4:-$CLANG})
set(CMAKE_CXX_COMPILER ${3:-$CLANGXX})
set(CMAKE_C_COMPILER_TARGET arm64-apple-macos11)
set(CMAKE_CXX_COMPILER_TARGET arm64-apple-macos11)
set(CMAKE_OBJCXX_COMPILER ${3:-$CLANGXX})
set(CMAKE_OBJCXX_COMPILER_TARGET arm64-apple-macos11)
set(CMAKE_OSX_SYSROOT $2)
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld -nostdlib++")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
EOT
}

# cmake_configure SRC BUILD_DIR GENERATOR [CMAKE ARGS...]: output in
# BUILD_DIR.configure.log; a failure fails the test.
cmake_configure() {
  local src=$1 dir=$2 gen=$3; shift 3
  cmake -S "$src" -B "$dir" -G "$gen" "$@" >"$dir.configure.log" 2>&1 \
    || test_failed "configure of $dir failed: $(cat "$dir.configure.log")"
}

# cmake_build BUILD_DIR [ARGS...]: verbose output in BUILD_DIR.build.log.
cmake_build() {
  cmake --build "$1" --verbose "${@:2}" >"$1.build.log" 2>&1 \
    || test_failed "build of $1 failed: $(cat "$1.build.log")"
}

# link_line LOG OUTPUT: the command in LOG that writes OUTPUT (-o OUTPUT).
link_line() { grep -E -- "-o ([^ ]*/)?$2( |\$)" "$1" | tail -1; }

# otool_deps FILE: the load commands, otool -L style.
otool_deps() { "$LLVM_BIN/llvm-otool" -L "$1"; }
