//===- Errors.h - package/'s errors are objlib::ReadErrors -------*- C++
//-*-===//
//
// A damaged archive or a lying member is, to the CLI, a malformed input:
// the same ReadError objlib returns, so every command maps it to the same
// exit code (65) without knowing where it came from.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/Reader.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace linkguard::package {

inline llvm::Error malformedError(const llvm::Twine &Message) {
  return llvm::make_error<objlib::ReadError>(objlib::ReadErrorKind::Malformed,
                                             Message.str());
}

inline llvm::Error unsupportedError(const llvm::Twine &Message) {
  return llvm::make_error<objlib::ReadError>(objlib::ReadErrorKind::Unsupported,
                                             Message.str());
}

} // namespace linkguard::package
