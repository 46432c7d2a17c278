//===- InputTypes.cpp - Types.def rows as phase masks ----------------------===//
#include "flags/InputTypes.h"

#include "libnames/LibraryNames.h"

#include "clang/Driver/Phases.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

#include <initializer_list>
#include <iterator>

namespace linkguard::flags {

namespace {

namespace phases = clang::driver::phases;

constexpr unsigned bit(phases::ID P) { return 1u << static_cast<unsigned>(P); }

constexpr unsigned maskOf(std::initializer_list<phases::ID> Phases) {
  unsigned M = 0;
  for (phases::ID P : Phases)
    M |= bit(P);
  return M;
}

struct TypeRow {
  const char *Name;
  unsigned Phases;
};

// One row per TYPE() of clang/Driver/Types.def (NAME, ID, PP_TYPE,
// TEMP_SUFFIX, PHASES...). Some names appear twice (cuda, hip, ir): same
// answers either way.
using namespace clang::driver;
constexpr TypeRow Rows[] = {
#define TYPE(NAME, ID, PP_TYPE, TEMP_SUFFIX, ...) {NAME, maskOf({__VA_ARGS__})},
#include "clang/Driver/Types.def"
#undef TYPE
};

/// linkguard's names for kinds of clang's "object" (see the header).
llvm::StringRef clangTypeName(llvm::StringRef Type) {
  return llvm::StringSwitch<llvm::StringRef>(Type)
      .Cases("archive", "shared", "tbd", "object")
      .Default(Type);
}

const TypeRow *find(llvm::StringRef Type) {
  llvm::StringRef Name = clangTypeName(Type);
  for (const TypeRow &R : Rows)
    if (Name == R.Name)
      return &R;
  return nullptr;
}

} // namespace

bool isKnownType(llvm::StringRef Type) { return find(Type) != nullptr; }

std::string typeForExtension(llvm::StringRef Path, bool DarwinTarget) {
  llvm::StringRef File = llvm::sys::path::filename(Path);
  if (libnames::isLibraryFileName(File))
    return File.ends_with(".a") ? "archive"
           : File.ends_with(".tbd") ? "tbd"
                                    : "shared";
  size_t Dot = File.rfind('.');
  if (Dot == llvm::StringRef::npos)
    return "object";
  llvm::StringRef Ext = File.substr(Dot + 1);
  if (Ext == "s" && DarwinTarget)
    return "assembler-with-cpp";
  return llvm::StringSwitch<const char *>(Ext)
      .Case("c", "c")
      .Cases("C", "cc", "CC", "cp", "cpp", "CPP", "c++", "C++", "c++")
      .Cases("cxx", "CXX", "c++")
      .Cases("F", "F03", "F08", "F90", "F95", "f95-cpp-input")
      .Cases("f", "f03", "f08", "f90", "f95", "f95")
      .Case("h", "c-header")
      .Cases("H", "hh", "hpp", "hxx", "c++-header")
      .Case("i", "cpp-output")
      .Case("ii", "c++-cpp-output")
      .Case("iim", "c++-module-cpp-output")
      .Case("iih", "c++-header-unit-cpp-output")
      .Case("m", "objective-c")
      .Cases("M", "mm", "objective-c++")
      .Case("mi", "objective-c-cpp-output")
      .Case("mii", "objective-c++-cpp-output")
      .Cases("s", "asm", "assembler")
      .Case("S", "assembler-with-cpp")
      .Cases("bc", "ll", "ir")
      .Case("cu", "cuda")
      .Case("cui", "cuda-cpp-output")
      .Case("hip", "hip")
      .Case("hipi", "hip-cpp-output")
      .Case("cl", "cl")
      .Case("clcpp", "clcpp")
      .Case("rs", "renderscript")
      .Cases("adb", "ads", "ada")
      .Case("ast", "ast")
      .Cases("ccm", "cppm", "cxxm", "c++m", "c++-module")
      .Cases("gch", "pch", "precompiled-header")
      .Case("pcm", "pcm")
      .Case("ifs", "ifs")
      .Case("hlsl", "hlsl")
      .Cases("o", "obj", "lib", "object")
      .Default("object");
}

std::string cxxTypeForCType(const std::string &Type) {
  return llvm::StringSwitch<std::string>(Type)
      .Case("c", "c++")
      .Case("cpp-output", "c++-cpp-output")
      .Case("c-header", "c++-header")
      .Case("c-header-cpp-output", "c++-header-cpp-output")
      .Default(Type);
}

bool isHeaderType(llvm::StringRef Type) {
  const TypeRow *R = find(Type);
  return R && (R->Phases & bit(phases::Precompile)) &&
         !(R->Phases & (bit(phases::Compile) | bit(phases::Link)));
}

bool isLinkerInputType(llvm::StringRef Type) {
  const TypeRow *R = find(Type);
  return R && R->Phases == bit(phases::Link);
}

bool isSourceType(llvm::StringRef Type) {
  const TypeRow *R = find(Type);
  return R && (R->Phases & bit(phases::Link)) &&
         (R->Phases & (bit(phases::Compile) | bit(phases::Assemble)));
}

} // namespace linkguard::flags
