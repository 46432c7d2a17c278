//===- Printable.h - a name as text that cannot break a line ----*- C++ -*-===//
//
// Names come from files and command lines: install names, paths, symbols,
// arguments. Printed as text they must not forge a line or reach the
// terminal as an escape sequence, and a reader must be able to tell the
// exact bytes. printable() is the one escaping every room's text uses
// (commands/ prints it; driver/PlanJson.cpp keeps it beside a JSON string
// that cannot hold the bytes). Header only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace linkguard {

/// Name as text: C0 controls, DEL, C1 controls and bytes that are not UTF-8
/// become \n, \t, \r or \xHH, and a backslash is doubled so the escaping
/// can be undone. Valid UTF-8 prints as it is. These are also the escapes
/// of a shell's $'...' quoting.
inline std::string printable(llvm::StringRef Name) {
  std::string Out;
  Out.reserve(Name.size());
  llvm::raw_string_ostream OS(Out);
  const auto *P = reinterpret_cast<const llvm::UTF8 *>(Name.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(Name.end());
  while (P < End) {
    llvm::UTF8 C = *P;
    if (C >= 0x80) {
      unsigned N = llvm::getNumBytesForUTF8(C);
      bool C1 = C == 0xC2 && End - P >= 2 && P[1] < 0xA0;
      if (N <= static_cast<size_t>(End - P) && llvm::isLegalUTF8Sequence(P, P + N) && !C1) {
        OS << llvm::StringRef(reinterpret_cast<const char *>(P), N);
        P += N;
        continue;
      }
    }
    ++P;
    if (C == '\\')
      OS << "\\\\";
    else if (C == '\n')
      OS << "\\n";
    else if (C == '\t')
      OS << "\\t";
    else if (C == '\r')
      OS << "\\r";
    else if (C < 0x20 || C >= 0x7F)
      OS << "\\x" << llvm::format_hex_no_prefix(C, 2);
    else
      OS << char(C);
  }
  return Out;
}

} // namespace linkguard
