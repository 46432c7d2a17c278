# spdlog, fmt and toml++, each through its own CMake package config, used
# header-only: Debian ships spdlog and fmt as shared libraries only, and a
# header-only use keeps the static link (checked in ../shared/README.md) and,
# on macOS, a binary that needs nothing from Homebrew at run time.
#
# spdlog's own spdlog::spdlog_header_only links the *compiled* fmt::fmt when
# spdlog uses an external fmt (Debian 12), so linkguard builds its own
# interface target from spdlog's include directories and compile definitions
# plus fmt::fmt-header-only.

find_package(spdlog CONFIG REQUIRED)
get_target_property(_lg_spdlog_inc spdlog::spdlog_header_only INTERFACE_INCLUDE_DIRECTORIES)
get_target_property(_lg_spdlog_defs spdlog::spdlog_header_only INTERFACE_COMPILE_DEFINITIONS)
add_library(spdlog_header_only INTERFACE)
target_include_directories(spdlog_header_only SYSTEM INTERFACE ${_lg_spdlog_inc})
target_compile_definitions(spdlog_header_only INTERFACE SPDLOG_HEADER_ONLY)
if(_lg_spdlog_defs)
  target_compile_definitions(spdlog_header_only INTERFACE ${_lg_spdlog_defs})
endif()
if("SPDLOG_FMT_EXTERNAL" IN_LIST _lg_spdlog_defs)
  find_package(fmt CONFIG REQUIRED)
  target_link_libraries(spdlog_header_only INTERFACE fmt::fmt-header-only)
endif()
message(STATUS "spdlog ${spdlog_VERSION}: ${spdlog_DIR}")
unset(_lg_spdlog_inc)
unset(_lg_spdlog_defs)

# toml++ (config/RulesFile.cpp defines TOML_HEADER_ONLY itself). Only the
# include directory is taken from its config: Debian's tomlplusplus target is
# the compiled shared library (-DTOML_HEADER_ONLY=0 -DTOML_SHARED_LIB=1).
# Installs without a config (toml++ 2.x) have only the header.
find_package(tomlplusplus CONFIG QUIET)
set(_lg_toml_hints)
if(TARGET tomlplusplus::tomlplusplus)
  get_target_property(_lg_toml_hints tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
endif()
find_path(LINKGUARD_TOMLPLUSPLUS_INCLUDE_DIR toml++/toml.h HINTS ${_lg_toml_hints} REQUIRED)
add_library(linkguard_tomlplusplus INTERFACE)
target_include_directories(linkguard_tomlplusplus SYSTEM INTERFACE
  ${LINKGUARD_TOMLPLUSPLUS_INCLUDE_DIR})
unset(_lg_toml_hints)
