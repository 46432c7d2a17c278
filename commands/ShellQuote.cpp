//===- ShellQuote.cpp - a word as a POSIX shell or fish reads it -----------===//
#include "commands/ShellQuote.h"

namespace linkguard::commands {

bool isControl(char C) {
  auto U = static_cast<unsigned char>(C);
  return U < 0x20 || U == 0x7f;
}

std::string hexEscape(char C) {
  auto U = static_cast<unsigned char>(C);
  const char *Digits = "0123456789abcdef";
  return {'\\', 'x', Digits[U >> 4], Digits[U & 15]};
}

std::string shQuote(llvm::StringRef S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

std::string fishWord(llvm::StringRef S) {
  std::string Word;
  bool InQuote = false;
  for (char C : S) {
    if (isControl(C)) {
      if (InQuote)
        Word += '\'';
      InQuote = false;
      Word += hexEscape(C);
      continue;
    }
    if (!InQuote)
      Word += '\'';
    InQuote = true;
    if (C == '\'' || C == '\\')
      Word += '\\';
    Word += C;
  }
  if (InQuote)
    Word += '\'';
  if (Word.empty())
    Word = "''";
  return Word;
}

} // namespace linkguard::commands
