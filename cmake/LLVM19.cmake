# LLVM 19 from Debian's llvm-19-dev / libclang-19-dev, everything under
# /usr/lib/llvm-19. We ask llvm-config for the static component libraries
# rather than importing LLVM's CMake targets: those carry libz3/libxml2 as
# link dependencies, which libObject and libOption never use and which would
# make a static link impossible and a dynamic one slow to start.
set(LLVM19_ROOT "/usr/lib/llvm-19" CACHE PATH "Prefix of LLVM 19")
find_program(LLVM19_CONFIG llvm-config PATHS ${LLVM19_ROOT}/bin NO_DEFAULT_PATH REQUIRED)

execute_process(COMMAND ${LLVM19_CONFIG} --version
                OUTPUT_VARIABLE LLVM19_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT LLVM19_VERSION MATCHES "^19\\.")
  message(FATAL_ERROR "linkguard needs LLVM 19; ${LLVM19_CONFIG} reports ${LLVM19_VERSION}")
endif()
execute_process(COMMAND ${LLVM19_CONFIG} --link-static --libfiles option object support
                OUTPUT_VARIABLE LLVM19_LIBFILES OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(LLVM19_LIBFILES UNIX_COMMAND "${LLVM19_LIBFILES}")
execute_process(COMMAND ${LLVM19_CONFIG} --includedir
                OUTPUT_VARIABLE LLVM19_INCLUDE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
set(LLVM19_BINDIR "${LLVM19_ROOT}/bin")

if(NOT EXISTS "${LLVM19_INCLUDE_DIR}/clang/Driver/Options.inc")
  message(FATAL_ERROR "clang/Driver/Options.inc not found under ${LLVM19_INCLUDE_DIR}: install libclang-19-dev")
endif()

add_library(llvm19 INTERFACE)
target_include_directories(llvm19 SYSTEM INTERFACE ${LLVM19_INCLUDE_DIR})
# Only the compression libraries LLVMSupport really calls.
target_link_libraries(llvm19 INTERFACE ${LLVM19_LIBFILES} z zstd pthread)
