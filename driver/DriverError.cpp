//===- DriverError.cpp - errors become one line and an exit code ----------===//
#include "driver/DriverError.h"

#include "driver/Logging.h"

#include "config/ConfigError.h"
#include "flags/ResponseFiles.h"
#include "objlib/Reader.h"
#include "support/Printable.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

char DriverError::ID = 0;

int reportError(llvm::Error E) {
  if (!E)
    return 0;
  ExitCode Code = ExitCode::Internal;
  std::string Message;
  llvm::handleAllErrors(
      std::move(E),
      [&](const DriverError &D) {
        Code = D.code();
        Message = D.message();
      },
      [&](const config::ConfigError &C) {
        Code = ExitCode::BadConfig;
        Message = C.message();
      },
      [&](const flags::ResponseFileError &R) {
        Code = ExitCode::BadResponseFile;
        llvm::raw_string_ostream OS(Message);
        R.log(OS);
      },
      [&](const objlib::ReadError &R) {
        Code = exitCodeFor(R.kind());
        Message = R.message();
      },
      [&](const llvm::ErrorInfoBase &Other) { Message = Other.message(); });
  // One line, whatever a file or variable name in it holds: a newline or
  // an escape sequence from a name is printed escaped (support/Printable.h).
  printDiagnostic("error", printable(Message));
  return toInt(Code);
}

} // namespace linkguard::driver
