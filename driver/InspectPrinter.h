//===- InspectPrinter.h - text and JSON output of `linkguard inspect` -*- C++
//-*-===//
//
// objlib decodes, this prints: the default text is `otool -L`'s layout so
// the two can be diffed; --json is a stable schema (docs/inspect.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/BinaryInfo.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::driver {

struct InspectOptions {
  bool Json = false;
  bool Symbols = false; // per-library import lists
  bool RPaths = false;  // LC_RPATH / DT_RPATH / DT_RUNPATH
  bool Scan = false;    // look for images inside other files
  std::optional<std::string> Arch;
  std::vector<std::string> Files;
};

/// The header line of one slice: "FILE:" for thin Mach-O and ELF,
/// "FILE (architecture ARCH):" for a slice of a universal file.
std::string sliceTitle(const objlib::BinaryInfo &Info, const objlib::Slice &S);

/// Prints every slice of Info (the caller has applied --arch).
void printInspectText(llvm::raw_ostream &OS, const objlib::BinaryInfo &Info,
                      const InspectOptions &Opts);

/// One element of the "files" array of the JSON schema.
llvm::json::Value inspectToJSON(const objlib::BinaryInfo &Info);

} // namespace linkguard::driver
