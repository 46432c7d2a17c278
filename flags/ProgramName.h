//===- ProgramName.h - what a compiler's name says -----------------*- C++ -*-===//
//
// clang reads its own name: "arm64-apple-darwin-clang++-19" is clang++ (C++
// mode) for the target arm64-apple-darwin, "clang-cpp" only preprocesses
// (ToolChain::getTargetAndModeFromProgramName). linkguard reads the name of
// the compiler word it will run the same way, once, when it builds the job.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "flags/Classification.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace linkguard::flags {

struct ProgramName {
  std::string TargetPrefix; // "arm64-apple-darwin" or ""
  bool CxxMode = false;     // clang++, g++, c++
  bool CppMode = false;     // clang-cpp, cpp: the preprocessor only
  bool Recognized = false;  // the name ends in a driver name clang knows
};

ProgramName parseProgramName(llvm::StringRef Name);

/// The target triple a compiler name implies ("arm64-apple-darwin-clang++" ->
/// "arm64-apple-darwin"), or "" when the name carries no valid triple prefix.
std::string targetPrefixOfCompilerName(llvm::StringRef CompilerName);

/// Mach-O, ELF or Unknown, as llvm::Triple says.
ObjectFormat formatOfTriple(const std::string &Triple);

} // namespace linkguard::flags
