# linkguard-toolchain.cmake - route a CMake project's link steps through
# linkguard, on top of the toolchain you already use (docs/integration.md).
#
#   cmake -S . -B build \
#     -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/linkguard/cmake/linkguard-toolchain.cmake \
#     -DLINKGUARD_CHAINLOAD_TOOLCHAIN_FILE=/path/to/your-toolchain.cmake
#
# Your toolchain file is include()d first (the convention of vcpkg's
# VCPKG_CHAINLOAD_TOOLCHAIN_FILE), so the compiler, sysroot and flags stay
# yours; compile lines are untouched. Then CMAKE_C_LINKER_LAUNCHER and
# CMAKE_CXX_LINKER_LAUNCHER (CMake >= 3.21) put linkguard in front of every
# link of an executable, shared library or module:
#   linkguard [--assume-define=USE_MPS] -- <your compiler> <link args...>
#
# Why --assume-define: CMake passes compile definitions
# (target_compile_definitions, add_compile_definitions) to compile lines
# only, never to the link line, so a link step cannot show that its target
# is an MPS build. At the end of configuration this file looks at every
# linked target and, for each macro in LINKGUARD_FORWARD_DEFINES the target
# defines, adds --assume-define=<macro> to that target's launcher.
#
# Cache variables:
#   LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE  your toolchain file (optional)
#   LINKGUARD_EXECUTABLE        linkguard; default <prefix>/bin/linkguard
#                               beside this file's install, else PATH
#   LINKGUARD_FORWARD_DEFINES   macros carried from a target's compile
#                               definitions to its link step (USE_MPS)
#   LINKGUARD_LINK_DEFINES      macros assumed on every link step
#   LINKGUARD_ASSUME_AOT        ON: treat every link as AOT (--assume-aot)

cmake_minimum_required(VERSION 3.21) # <LANG>_LINKER_LAUNCHER

# Nested projects reread this file in a fresh scope: try_compile() gets the
# settings through CMAKE_TRY_COMPILE_PLATFORM_VARIABLES (below), but
# whole-project checks such as check_ipo_supported() (_CMakeLTOTest-<LANG>)
# do not. They are configured inside this same cmake process, so the
# settings travel in its environment: the first read records each one that
# is set in _LINKGUARD_CMAKE_<NAME>, a nested read that has none takes it
# from there.
foreach(_linkguard_var LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE LINKGUARD_EXECUTABLE
        LINKGUARD_FORWARD_DEFINES LINKGUARD_LINK_DEFINES LINKGUARD_ASSUME_AOT)
  if(DEFINED ${_linkguard_var})
    set(ENV{_LINKGUARD_CMAKE_${_linkguard_var}} "${${_linkguard_var}}")
  elseif(DEFINED ENV{_LINKGUARD_CMAKE_${_linkguard_var}})
    set(${_linkguard_var} "$ENV{_LINKGUARD_CMAKE_${_linkguard_var}}")
  endif()
endforeach()

if(LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE)
  if(NOT EXISTS "${LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE}")
    message(FATAL_ERROR "LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE=${LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE} does not exist")
  endif()
  include("${LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE}")
endif()

set(LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE "${LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE}"
  CACHE FILEPATH "Toolchain file loaded before linkguard's")
set(LINKGUARD_FORWARD_DEFINES "USE_MPS" CACHE STRING
  "Compile definitions of a target that linkguard is told about on its link step")
set(LINKGUARD_LINK_DEFINES "" CACHE STRING
  "Macros linkguard assumes defined on every link step (--assume-define)")
option(LINKGUARD_ASSUME_AOT "Tell linkguard every link is an AOT build (--assume-aot)" OFF)

if(NOT LINKGUARD_EXECUTABLE)
  # Installed layout: <prefix>/share/linkguard/cmake/this file, <prefix>/bin.
  get_filename_component(_linkguard_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
  # NO_CMAKE_FIND_ROOT_PATH: a cross toolchain may confine find_program to
  # its sysroot; linkguard runs on the build host.
  find_program(LINKGUARD_EXECUTABLE linkguard
    HINTS "${_linkguard_prefix}/bin" NO_CMAKE_FIND_ROOT_PATH)
  unset(_linkguard_prefix)
endif()
if(NOT LINKGUARD_EXECUTABLE)
  message(FATAL_ERROR "linkguard not found: set LINKGUARD_EXECUTABLE=/path/to/linkguard")
endif()

# try_compile projects reread this file in a fresh CMake: hand them the
# same settings (only the ones set; an empty one would be passed as unset).
foreach(_linkguard_var LINKGUARD_CHAINLOAD_TOOLCHAIN_FILE LINKGUARD_EXECUTABLE
        LINKGUARD_FORWARD_DEFINES LINKGUARD_LINK_DEFINES LINKGUARD_ASSUME_AOT)
  if(NOT "${_linkguard_var}" IN_LIST CMAKE_TRY_COMPILE_PLATFORM_VARIABLES)
    list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ${_linkguard_var})
  endif()
endforeach()

# The launcher every linked target starts with.
set(_linkguard_launcher "${LINKGUARD_EXECUTABLE}")
foreach(_linkguard_def IN LISTS LINKGUARD_LINK_DEFINES)
  list(APPEND _linkguard_launcher "--assume-define=${_linkguard_def}")
endforeach()
if(LINKGUARD_ASSUME_AOT)
  list(APPEND _linkguard_launcher "--assume-aot")
endif()
set(LINKGUARD_LAUNCHER_BASE "${_linkguard_launcher}")
list(APPEND _linkguard_launcher "--")
set(CMAKE_C_LINKER_LAUNCHER "${_linkguard_launcher}")
set(CMAKE_CXX_LINKER_LAUNCHER "${_linkguard_launcher}")
unset(_linkguard_launcher)

# Per target: the macros from LINKGUARD_FORWARD_DEFINES it defines, from its
# COMPILE_DEFINITIONS or its directory's (add_compile_definitions). Entries
# with generator expressions cannot be read at configure time and are
# skipped; LINKGUARD_LINK_DEFINES covers those.
function(_linkguard_defines_of target dir out)
  get_property(defs TARGET ${target} PROPERTY COMPILE_DEFINITIONS)
  get_property(dir_defs DIRECTORY "${dir}" PROPERTY COMPILE_DEFINITIONS)
  set(found "")
  foreach(def IN LISTS defs dir_defs)
    if(def MATCHES "^-D")
      string(SUBSTRING "${def}" 2 -1 def)
    endif()
    string(REGEX REPLACE "=.*$" "" name "${def}")
    if(name IN_LIST LINKGUARD_FORWARD_DEFINES AND NOT name IN_LIST found)
      list(APPEND found "${name}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(_linkguard_forward_defines dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_property(type TARGET ${t} PROPERTY TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
      continue()
    endif()
    _linkguard_defines_of(${t} "${dir}" defs)
    if(NOT defs)
      continue()
    endif()
    foreach(lang C CXX)
      get_property(launcher TARGET ${t} PROPERTY ${lang}_LINKER_LAUNCHER)
      # Only the launcher this file set: a user's own per-target launcher wins.
      if(NOT launcher STREQUAL "${CMAKE_${lang}_LINKER_LAUNCHER}")
        continue()
      endif()
      set(new "${LINKGUARD_LAUNCHER_BASE}")
      foreach(d IN LISTS defs)
        list(APPEND new "--assume-define=${d}")
      endforeach()
      list(APPEND new "--")
      set_property(TARGET ${t} PROPERTY ${lang}_LINKER_LAUNCHER "${new}")
    endforeach()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _linkguard_forward_defines("${sub}")
  endforeach()
endfunction()

# The toolchain file is read more than once per configure (project(), each
# enable_language()): schedule the walk once, at the end of the top-level
# CMakeLists.txt, when every target exists.
get_property(_linkguard_deferred GLOBAL PROPERTY LINKGUARD_FORWARD_DEFERRED)
if(NOT _linkguard_deferred AND LINKGUARD_FORWARD_DEFINES)
  set_property(GLOBAL PROPERTY LINKGUARD_FORWARD_DEFERRED TRUE)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
    CALL _linkguard_forward_defines "${CMAKE_SOURCE_DIR}")
endif()
unset(_linkguard_deferred)
