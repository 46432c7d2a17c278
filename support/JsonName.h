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

#include <string>
#include <vector>

namespace linkguard {

inline void putJsonName(llvm::json::Object &O, llvm::StringRef Key, llvm::StringRef Raw) {
  if (llvm::json::isUTF8(Raw)) {
    O[Key] = Raw.str();
    return;
  }
  O[Key] = llvm::json::fixUTF8(Raw);
  O[(Key + "Escaped").str()] = printable(Raw);
}

/// A list of names at Key by the same rule: when any is not UTF-8, the
/// whole list again at Key + "Escaped", each escaped by printable().
inline void putJsonNames(llvm::json::Object &O, llvm::StringRef Key,
                         const std::vector<std::string> &Raw) {
  llvm::json::Array A;
  bool AllUTF8 = true;
  for (const std::string &S : Raw) {
    AllUTF8 &= llvm::json::isUTF8(S);
    A.push_back(llvm::json::fixUTF8(S));
  }
  O[Key] = std::move(A);
  if (AllUTF8)
    return;
  llvm::json::Array Escaped;
  for (const std::string &S : Raw)
    Escaped.push_back(printable(S));
  O[(Key + "Escaped").str()] = std::move(Escaped);
}

} // namespace linkguard
