//===- ClassificationNames.cpp - names and queries for Classification -----===//
//
// The spellings used by `explain` and the logs. They are part of linkguard's
// output: change them only together with docs/classification.md.
//
//===----------------------------------------------------------------------===//
#include "flags/Classification.h"

#include <algorithm>

namespace linkguard::flags {

const char *phaseName(Phase P) {
  switch (P) {
  case Phase::Probe:
    return "probe";
  case Phase::Preprocess:
    return "preprocess";
  case Phase::Pch:
    return "pch";
  case Phase::Compile:
    return "compile";
  case Phase::Archive:
    return "archive";
  case Phase::Link:
    return "link";
  }
  return "unknown";
}

const char *objectFormatName(ObjectFormat F) {
  switch (F) {
  case ObjectFormat::MachO:
    return "Mach-O";
  case ObjectFormat::ELF:
    return "ELF";
  case ObjectFormat::Unknown:
    return "unknown";
  }
  return "unknown";
}

const char *outputKindName(OutputKind K) {
  switch (K) {
  case OutputKind::Executable:
    return "executable";
  case OutputKind::SharedLibrary:
    return "shared-library";
  case OutputKind::Bundle:
    return "bundle";
  case OutputKind::Relocatable:
    return "relocatable";
  case OutputKind::None:
    return "none";
  }
  return "none";
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
