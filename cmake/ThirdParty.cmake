# spdlog and fmt: Debian ships them as shared libraries only, so both are used
# header-only to keep the static link (checked in ../shared/README.md).
find_path(SPDLOG_INCLUDE_DIR spdlog/spdlog.h REQUIRED)
add_library(spdlog_header_only INTERFACE)
target_include_directories(spdlog_header_only SYSTEM INTERFACE ${SPDLOG_INCLUDE_DIR})
target_compile_definitions(spdlog_header_only INTERFACE
  SPDLOG_HEADER_ONLY FMT_HEADER_ONLY SPDLOG_FMT_EXTERNAL)

# Boost.Process (header-only, Boost 1.74 = Process v1) needs Boost.Filesystem,
# which Debian also ships as a static archive.
find_library(BOOST_FILESYSTEM_STATIC libboost_filesystem.a REQUIRED)
add_library(boost_process INTERFACE)
target_link_libraries(boost_process INTERFACE ${BOOST_FILESYSTEM_STATIC})
target_compile_definitions(boost_process INTERFACE BOOST_ALL_NO_LIB)
