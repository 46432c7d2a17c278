//===- TomlGuard.cpp - keep toml++ 3.3 away from its undefined behaviour --===//
#include "config/TomlGuard.h"

#include <algorithm>

namespace linkguard::config {

/// toml++ 3.3 reaches __builtin_unreachable() -- undefined behaviour, not an
/// error -- in is_non_ascii_horizontal_whitespace() for most non-ASCII code
/// points (U+00A1..U+0499 among them: "é") wherever it looks for whitespace:
/// right after a bare key or value ("[rulé]", "a = 1é") and after a
/// line-ending backslash in a """string""" (marzer/tomlplusplus#190 and
/// #295; found by tests/fuzz/fuzz_rules). TOML allows non-ASCII text only in
/// strings and comments, so this scan rejects it everywhere else, and after
/// a line-ending backslash, before toml++ sees the text.
std::optional<std::string> textTomlCannotParseSafely(llvm::StringRef T,
                                                     unsigned &Line) {
  enum { Plain, Comment, Basic, Literal, MultiBasic, MultiLiteral } St = Plain;
  auto run = [&](size_t I, char Q) {
    size_t N = 0;
    while (I + N < T.size() && T[I + N] == Q)
      ++N;
    return N;
  };
  Line = 1;
  char Prev = '\n'; // the last significant character outside strings
  T.consume_front(
      "\xEF\xBB\xBF"); // a UTF-8 byte order mark, which toml++ skips
  for (size_t I = 0; I < T.size(); ++I) {
    const char C = T[I];
    const bool High = static_cast<unsigned char>(C) >= 0x80;
    if (C == '\n')
      ++Line;
    switch (St) {
    case Plain:
      if (High)
        return std::string("non-ASCII character outside a string or comment");
      if (C == '#') {
        St = Comment;
      } else if ((C == '"' || C == '\'') &&
                 !llvm::StringRef("\n=[,{.").contains(Prev)) {
        // Not where a string can start ("1\"é"): toml++ scans such a bare
        // value to its end, testing each character for whitespace, so what
        // follows stays plain text here.
      } else if (C == '"' || C == '\'') {
        size_t N = run(I, C);
        if (N >= 3) {
          St = C == '"' ? MultiBasic : MultiLiteral;
          I += 2;
        } else if (N == 2) {
          ++I; // an empty string
        } else {
          St = C == '"' ? Basic : Literal;
        }
      }
      if (C == '\n' || (C != ' ' && C != '\t' && C != '\r'))
        Prev = C;
      break;
    case Comment:
      if (C == '\n')
        St = Plain, Prev = '\n';
      break;
    case Basic:
      if (C == '\\')
        ++I; // the escaped character, whatever it is
      else if (C == '"' || C == '\n')
        St = Plain, Prev = C;
      break;
    case Literal:
      if (C == '\'' || C == '\n')
        St = Plain, Prev = C;
      break;
    case MultiLiteral:
    case MultiBasic: {
      const char Q = St == MultiBasic ? '"' : '\'';
      if (C == Q) {
        size_t N = run(I, Q);
        if (N >= 3) { // the closing quotes, up to two of them content
          I += std::min<size_t>(N, 5) - 1;
          St = Plain, Prev = Q;
        }
      } else if (St == MultiBasic && C == '\\') {
        // toml++ tests the characters after a backslash for whitespace (a
        // line-ending backslash), so none of them may be non-ASCII.
        size_t J = I + 1;
        while (J < T.size() &&
               (T[J] == ' ' || T[J] == '\t' || T[J] == '\r' || T[J] == '\n')) {
          if (T[J] == '\n')
            ++Line;
          ++J;
        }
        if (J < T.size() && static_cast<unsigned char>(T[J]) >= 0x80)
          return std::string("non-ASCII character right after a backslash "
                             "in a multi-line string");
        I = J == I + 1 ? J
                       : J - 1; // past an escape, or up to the next character
      }
      break;
    }
    }
  }
  return std::nullopt;
}

} // namespace linkguard::config
