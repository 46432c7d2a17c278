//===- DriverError.h - an error that knows its exit code ---------*- C++ -*-===//
//
// Library code returns llvm::Error; only linkguardMain turns one into the
// single line "linkguard: error: ..." and the exit code it carries.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/ExitCode.h"
#include "objlib/Reader.h"

#include "llvm/Support/Error.h"

#include <string>

namespace linkguard::driver {

class DriverError : public llvm::ErrorInfo<DriverError> {
public:
  static char ID;
  DriverError(ExitCode Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}
  ExitCode code() const { return Code; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  ExitCode Code;
  std::string Message;
};

inline llvm::Error makeDriverError(ExitCode Code, std::string Message) {
  return llvm::make_error<DriverError>(Code, std::move(Message));
}

/// 66 for a file that cannot be read, 65 for one that is not a binary
/// linkguard understands (malformed or unsupported).
inline ExitCode exitCodeFor(objlib::ReadErrorKind K) {
  return K == objlib::ReadErrorKind::Unreadable ? ExitCode::UnreadableInput
                                                : ExitCode::MalformedBinary;
}

/// Prints "linkguard: error: <message>" and returns the exit code the error
/// carries (Internal for errors that are not DriverErrors).
int reportError(llvm::Error E);

} // namespace linkguard::driver
