//===- ConfigError.h - a bad variable or rules file ---------------*- C++ -*-===//
//
// What config/ reports when a LINKGUARD_* value or the rules file in force
// cannot be used. The driver turns it into one line and exit 78 (BadConfig,
// docs/exit-codes.md); config/ itself never prints or exits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"

#include <string>

namespace linkguard::config {

class ConfigError : public llvm::ErrorInfo<ConfigError> {
public:
  static char ID;
  explicit ConfigError(std::string Message) : Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Message;
};

inline llvm::Error makeConfigError(std::string Message) {
  return llvm::make_error<ConfigError>(std::move(Message));
}

} // namespace linkguard::config
