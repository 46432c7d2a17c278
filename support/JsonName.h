//===- JsonName.h - a name in a JSON record, exact bytes beside --*- C++ -*-===//
//
// JSON strings are UTF-8. A name read from a file or a command line that is
// not gets U+FFFD for each bad sequence at Key and, beside it at
// Key + "Escaped", its exact bytes as printable() text (Printable.h): the
// one rule of every command's JSON (commands/Printer.h) and of the plan
// (driver/PlanJson.cpp). Header only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Printable.h"

#include "llvm/Support/JSON.h"

namespace linkguard {

inline void putJsonName(llvm::json::Object &O, llvm::StringRef Key, llvm::StringRef Raw) {
  if (llvm::json::isUTF8(Raw)) {
    O[Key] = Raw.str();
    return;
  }
  O[Key] = llvm::json::fixUTF8(Raw);
  O[(Key + "Escaped").str()] = printable(Raw);
}

} // namespace linkguard
