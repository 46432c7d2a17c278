//===- CMakeCompiler.h - linkguard as CMake's compiler, said once -*- C++ -*-===//
//
// CXX=linkguard-clang++ is the form for PyTorch's cpp_builder. Exported in
// the shell, it reaches a CMake configure too, and CMake takes linkguard as
// its compiler: it derives ar, ranlib and the LTO tools from that name
// (Modules/CMakeFindBinUtils.cmake: LLVM 14's unversioned llvm-ar here, no
// CMAKE_CXX_COMPILER_AR, IPO off) and its link lines carry no compile
// definitions, so the MPS rule never sees USE_MPS. CMake shows nothing of
// what its compiler-identification probe prints (CMakeOutput.log only), so
// this is said where the user reads: on the first link of the build, once
// per build directory (docs/integration.md, "CMake: linkguard as the
// compiler"). The toolchain file says it at configure instead, and leaves
// the same marker.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"
#include "driver/Job.h"
#include "driver/Plan.h"

#include <string>

namespace linkguard::driver {

/// The file, in the build directory's CMakeFiles/, whose presence says the
/// build was told (written by the first link that says it, or by
/// cmake/linkguard-toolchain.cmake when it warned at configure).
inline constexpr const char *CMakeCompilerMarker = "linkguard-compiler-said";

/// True when Path is an object CMake's generators write for a target
/// (CMakeFiles/<target>.dir/...): the link is a CMake build's. Only words;
/// no file is read.
bool isCMakeTargetObject(const std::string &Path);

/// On a link step run as linkguard-clang++ / linkguard-clang (the wrapper
/// form, not the launcher the toolchain file uses, nor a masquerade link)
/// whose objects are a CMake target's: finds the build directory (the
/// nearest CMakeCache.txt above the working directory; a try_compile
/// project inside CMakeFiles/ is skipped), and when no marker is there yet
/// creates it (exclusively: of parallel links one says it) and prints one
/// warning naming the form that works. Every other step returns after
/// looking at its input names; no file is touched.
void noteCMakeCompiler(const Job &J, const Plan &P, const config::Config &Cfg,
                       const std::string &SelfPath, const std::string &WantedName);

} // namespace linkguard::driver
