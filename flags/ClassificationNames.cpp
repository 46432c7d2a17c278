//===- ClassificationNames.cpp - names and queries for Classification -----===//
//
// The spellings used by `explain` and the logs. They are part of linkguard's
// output: change them only together with docs/classification.md.
//
//===----------------------------------------------------------------------===//
#include "flags/Classification.h"

#include "support/EnumNames.h"

#include <algorithm>

namespace linkguard::flags {

const char *phaseName(Phase P) {
  return enumName(P,
                  {"probe", "preprocess", "pch", "compile", "archive", "link"});
}

const char *objectFormatName(ObjectFormat F) {
  return enumName(F, {"Mach-O", "ELF", "unknown"});
}

const char *outputKindName(OutputKind K) {
  return enumName(
      K, {"executable", "shared-library", "bundle", "relocatable", "none"});
}

bool Classification::isDefined(const std::string &Macro) const {
  return std::any_of(Defines.begin(), Defines.end(),
                     [&](const auto &D) { return D.first == Macro; });
}

bool Classification::hasLinkerArg(const std::string &Arg) const {
  return std::find(LinkerArgs.begin(), LinkerArgs.end(), Arg) !=
         LinkerArgs.end();
}

} // namespace linkguard::flags
