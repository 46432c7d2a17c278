//===- LibraryNames.h - what a library file name says -------------*- C++ -*-===//
//
// One place for the name rules of library files: the "lib" prefix, the
// suffixes of shared objects (.so, versioned .so.N.M, .dylib, versioned
// .N.dylib, .tbd text stubs) and archives (.a).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace linkguard::flags {

/// "libomp.so.5" -> "omp", "/x/libtorch_cpu.dylib" -> "torch_cpu",
/// "libomp.5.dylib" -> "omp.5" (the name a -l would use), "libSystem.tbd"
/// -> "System"; "" when the file is not a shared library by name.
std::string sharedLibraryName(llvm::StringRef Path);

/// A shared library or an archive (libfoo.a), by name.
bool isLibraryFileName(llvm::StringRef Path);

} // namespace linkguard::flags
