# LLVM 19 and clang 19's option table, found the CMake way:
#   find_package(LLVM 19.1 CONFIG), and clang's headers beside it (else
#   find_package(Clang CONFIG), see below).
# Honoured, in CMake's order: LLVM_DIR / Clang_DIR, LLVM_ROOT,
# CMAKE_PREFIX_PATH; then, as hints only, the cmake directory of an
# llvm-config 19 on PATH (llvm-config-19 first, then llvm-config), Debian's
# /usr/lib/llvm-19 and Homebrew's llvm@19 (/opt/homebrew, /usr/local).
# Every LLVM 19 release is 19.1.x, and LLVMConfigVersion.cmake accepts a
# request only with the same major.minor, hence "19.1".
#
# LLVM's imported targets carry its full dependency graph, but LLVMSupport's
# interface also names libz3 (Debian: LLVM_WITH_Z3) and the shared zstd:
# libObject and libOption never call Z3, it costs 1.4 ms of dynamic loading
# per start (../shared/README.md) and has no static archive. So the interface
# is rewritten once: Z3 and libxml2 dropped, zstd and zlib the ones CMake
# finds, static archives where the binary is linked static.
#
# Sets: LLVM_TOOLS_BINARY_DIR (LLVM19_BINDIR), the INTERFACE target llvm19.

set(_lg_llvm_hints)
find_program(LINKGUARD_LLVM_CONFIG NAMES llvm-config-19 llvm-config
  DOC "llvm-config consulted for LLVM 19's cmake directory (a hint)")
if(LINKGUARD_LLVM_CONFIG)
  execute_process(COMMAND "${LINKGUARD_LLVM_CONFIG}" --version
    OUTPUT_VARIABLE _lg_v OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_lg_v MATCHES "^19\\.")
    execute_process(COMMAND "${LINKGUARD_LLVM_CONFIG}" --cmakedir
      OUTPUT_VARIABLE _lg_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    list(APPEND _lg_llvm_hints "${_lg_dir}")
  endif()
endif()
list(APPEND _lg_llvm_hints
  /usr/lib/llvm-19/lib/cmake/llvm
  /opt/homebrew/opt/llvm@19/lib/cmake/llvm
  /usr/local/opt/llvm@19/lib/cmake/llvm)

# LLVMConfig.cmake calls find_package(ZLIB) and find_package(zstd) itself;
# for a static link the archives must be what those find.
if(LINKGUARD_STATIC AND NOT APPLE)
  set(ZLIB_USE_STATIC_LIBS ON) # CMake >= 3.24; seeded below for older ones
  if(NOT ZLIB_LIBRARY)
    find_library(ZLIB_LIBRARY NAMES libz.a z)
  endif()
endif()

find_package(LLVM 19.1 CONFIG REQUIRED HINTS ${_lg_llvm_hints})
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION}: ${LLVM_DIR}")
if(NOT LLVM_ENABLE_RTTI)
  message(FATAL_ERROR "${LLVM_DIR}: LLVM built without RTTI; linkguard needs "
    "an LLVM with LLVM_ENABLE_RTTI (Debian's and Homebrew's have it)")
endif()
# clang's option table (clang/Driver/Options.inc, a generated header that
# clang installs). Beside LLVM's own headers on Debian and Homebrew, and then
# find_package(Clang) is not needed at all: ClangTargets.cmake stops the
# configure on any file of a partial clang install (Debian's libclang-cpp
# link, a relocated prefix). Clang's config is asked for when Clang_DIR is
# given or the header is not beside LLVM, beside LLVM first: another clang's
# config (Debian's clang 14 is on the default path) must not be taken.
if(Clang_DIR OR NOT EXISTS "${LLVM_INCLUDE_DIR}/clang/Driver/Options.inc")
  find_package(Clang CONFIG REQUIRED
    HINTS "${LLVM_DIR}/../clang" "${LLVM_INSTALL_PREFIX}/lib/cmake/clang")
  message(STATUS "Clang: ${Clang_DIR}")
endif()
find_path(LINKGUARD_CLANG_INCLUDE_DIR clang/Driver/Options.inc
  HINTS ${CLANG_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS} NO_DEFAULT_PATH)
if(NOT LINKGUARD_CLANG_INCLUDE_DIR)
  message(FATAL_ERROR "clang/Driver/Options.inc not found under ${LLVM_INCLUDE_DIRS} "
    "${CLANG_INCLUDE_DIRS}: install clang 19's development headers (Debian: "
    "libclang-19-dev), or set Clang_DIR")
endif()
set(LLVM19_BINDIR "${LLVM_TOOLS_BINARY_DIR}")

# The static zstd when linking static (Linux) or on Apple (only libSystem,
# libc++ and libz stay dynamic there: all three ship with macOS).
set(_lg_zstd)
if(TARGET zstd::libzstd_static AND (LINKGUARD_STATIC OR APPLE))
  set(_lg_zstd zstd::libzstd_static)
elseif(TARGET zstd::libzstd_shared)
  set(_lg_zstd zstd::libzstd_shared)
endif()
get_target_property(_lg_support_deps LLVMSupport INTERFACE_LINK_LIBRARIES)
set(_lg_deps)
foreach(_lg_dep IN LISTS _lg_support_deps)
  if(_lg_dep MATCHES "[zZ]3|xml2|LibXml2")
    continue()
  elseif(_lg_dep MATCHES "^zstd::")
    set(_lg_dep ${_lg_zstd})
  endif()
  list(APPEND _lg_deps ${_lg_dep})
endforeach()
set_target_properties(LLVMSupport PROPERTIES INTERFACE_LINK_LIBRARIES "${_lg_deps}")

find_package(Threads REQUIRED)
llvm_map_components_to_libnames(_lg_llvm_libs option object support)
add_library(llvm19 INTERFACE)
target_include_directories(llvm19 SYSTEM INTERFACE
  ${LLVM_INCLUDE_DIRS} ${LINKGUARD_CLANG_INCLUDE_DIR})
target_link_libraries(llvm19 INTERFACE ${_lg_llvm_libs} Threads::Threads)
unset(_lg_llvm_hints)
unset(_lg_support_deps)
unset(_lg_deps)
unset(_lg_zstd)
