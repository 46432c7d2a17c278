//===- CompilerFamily.h - clang or GCC, as a build reads the name -*- C++ -*-===//
//
// Build tools decide flags from the compiler's name. PyTorch inductor's
// cpp_builder (torch/_inductor/cpp_builder.py, 2.6-2.9) on Linux:
//   _is_clang: re.search(r"(clang|clang\+\+)", cpp_compiler)
//   _is_gcc:   not _is_clang and re.search(r"(gcc|g\+\+|gnu-c\+\+)", cpp_compiler)
// and adds clang-only flags (-Werror=ignored-optimization-argument) for the
// one and GCC-only ones (-fno-tree-loop-vectorize, -fexcess-precision=fast)
// for the other. A drop-in must therefore carry a name of the real
// compiler's family: linkguard-clang++/linkguard-clang in front of clang,
// linkguard-g++/linkguard-gcc in front of GCC (docs/integration.md).
// `linkguard run` and `linkguard env` pick the name; a drop-in whose name
// says the other family warns, once per process tree.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"
#include "driver/CompilerResolution.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace linkguard::driver {

enum class CompilerFamily { Unknown, Clang, Gcc };

/// "clang", "GCC" or "unknown".
const char *compilerFamilyName(CompilerFamily F);

/// What a name (or path) says, with inductor's tests above: clang when it
/// holds "clang"; else GCC when it holds "gcc", "g++" or "gnu-c++"; else
/// unknown ("c++", "cc").
CompilerFamily familyOfName(llvm::StringRef Name);

/// The family of the compiler Exe is: by its file name, or, when that says
/// neither ("c++", "cc": Debian's alternatives), by the name of the file its
/// symbolic links lead to (/usr/bin/c++ -> /etc/alternatives/c++ -> g++-12).
CompilerFamily familyOfExecutable(const std::string &Exe);

/// The family of a compiler command's compiler word (past ccache, distcc,
/// ...): a bare word is looked up on PathVar, skipping linkguard.
CompilerFamily familyOfCommand(const std::vector<std::string> &Words,
                               const std::string &PathVar, const std::string &SelfPath);

/// The drop-in names beside the binary for a family and language:
/// linkguard-g++/linkguard-gcc for GCC, linkguard-clang++/linkguard-clang
/// otherwise.
const char *dropInName(CompilerFamily F, Language L);

/// On a compile or link step run through a drop-in or masquerade name
/// (Invoked: "linkguard-clang++", or "clang++" for a masquerade link) whose family differs from
/// the compiler's (CompilerName, Executable): one warning per process tree
/// (process group, with its leader's start time) naming the drop-in of the
/// compiler's family. Said on ccache's UNCACHED_ERR_FD when ccache runs the
/// step, else on stderr; on a compile step behind a cache without that
/// channel, not at all (its stderr would be stored and replayed).
void warnIfFamilyDiffers(const std::string &Invoked, const std::string &CompilerName,
                         const std::string &Executable, const config::Config &Cfg,
                         bool IsLink);

} // namespace linkguard::driver
