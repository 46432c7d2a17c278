//===- LibraryGroups.h - named families of libraries -------------*- C++ -*-===//
#pragma once

#include <string>

namespace linkguard::contract {

/// The file name part of an install name or DT_NEEDED entry
/// ("@rpath/libomp.dylib" -> "libomp.dylib").
std::string fileNameOf(const std::string &InstallName);

/// True for any OpenMP runtime, under any path and spelling: libomp*,
/// libiomp5*, libgomp* with a .dylib or .so* suffix ("libomp.dylib",
/// "libomp.so.5", "libgomp.so.1", "libiomp5.dylib").
bool isOpenMPLibrary(const std::string &InstallName);

/// True for libSystem.B.dylib, which ld64 keeps under -dead_strip_dylibs.
bool isLibSystem(const std::string &InstallName);

} // namespace linkguard::contract
