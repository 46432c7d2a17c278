//===- ProgramName.cpp - clang's getTargetAndModeFromProgramName -----------===//
#include "flags/ProgramName.h"

#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"

#include <cstring>

namespace linkguard::flags {

// clang's ToolChain::getTargetAndModeFromProgramName: strip the directory,
// ".exe" and a version suffix, find the driver suffix, and take what comes
// before the '-' in front of it as a target prefix.
ProgramName parseProgramName(llvm::StringRef Name) {
  ProgramName P;
  std::string Prog = llvm::sys::path::filename(Name).lower();
  llvm::StringRef S(Prog);
  S.consume_back(".exe");
  // "clang++-19", "clang-19", "clang++19": drop a trailing version.
  llvm::StringRef Trimmed = S.rtrim("0123456789.");
  if (Trimmed.size() != S.size())
    S = Trimmed.ends_with("-") ? Trimmed.drop_back() : Trimmed;

  struct Suffix {
    const char *Text;
    bool Cxx, Cpp;
  };
  // Longest first, as clang's DriverSuffixes are searched.
  static constexpr Suffix Suffixes[] = {
      {"clang-g++", true, false}, {"clang-c++", true, false},
      {"clang-cpp", false, true}, {"clang-gcc", false, false},
      {"clang-cc", false, false}, {"clang++", true, false},
      {"clang", false, false},    {"g++", true, false},
      {"c++", true, false},       {"gcc", false, false},
      {"cpp", false, true},       {"cc", false, false},
  };
  for (const Suffix &Suf : Suffixes) {
    if (!S.ends_with(Suf.Text))
      continue;
    size_t Pos = S.size() - std::strlen(Suf.Text);
    // The suffix must start the name or follow a '-'.
    if (Pos != 0 && S[Pos - 1] != '-')
      continue;
    P.Recognized = true;
    P.CxxMode = Suf.Cxx;
    P.CppMode = Suf.Cpp;
    if (Pos > 1) {
      std::string Prefix = S.substr(0, Pos - 1).str();
      // clang accepts the prefix when a backend is registered for it;
      // linkguard links no backends, so "the triple names a known
      // architecture" stands in for that check ("linkguard-clang++" has no
      // target prefix, "arm64-apple-darwin-clang++" has one).
      if (llvm::Triple(Prefix).getArch() != llvm::Triple::UnknownArch)
        P.TargetPrefix = Prefix;
    }
    return P;
  }
  return P;
}

std::string targetPrefixOfCompilerName(llvm::StringRef CompilerName) {
  return parseProgramName(CompilerName).TargetPrefix;
}

ObjectFormat formatOfTriple(const std::string &T) {
  llvm::Triple Tr(T);
  if (Tr.isOSBinFormatMachO())
    return ObjectFormat::MachO;
  if (Tr.isOSBinFormatELF())
    return ObjectFormat::ELF;
  return ObjectFormat::Unknown;
}

} // namespace linkguard::flags
