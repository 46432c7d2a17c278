//===- ShellQuote.h - a word as a POSIX shell or fish reads it ---*- C++ -*-===//
//
// The quoting every command that prints shell text uses (env's lines,
// explain's "runs:", the completion scripts), so that a word is quoted one
// way: POSIX single quotes, where nothing expands, and fish's single
// quotes, whose only escapes are \' and \\.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace linkguard::commands {

/// A C0 control character or DEL: never printed raw into shell text.
bool isControl(char C);

/// "\x0a" for a newline (fish's escape; env's comments show them so too).
std::string hexEscape(char C);

/// POSIX single quoting: 'it'\''s' - nothing inside single quotes expands.
std::string shQuote(llvm::StringRef S);

/// One fish word: single-quoted runs ('\'' and '\\' are fish's only
/// escapes there), a control character as \xHH between them; '' when S is
/// empty.
std::string fishWord(llvm::StringRef S);

} // namespace linkguard::commands
