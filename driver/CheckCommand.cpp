//===- CheckCommand.cpp - `linkguard check FILE... [options]` -------------===//
#include "driver/Commands.h"

#include "contract/Contract.h"
#include "driver/DriverError.h"
#include "objlib/Reader.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

int runCheck(const std::vector<std::string> &Args) {
  return reportError(makeDriverError(ExitCode::Usage, "check: not implemented yet"));
}

} // namespace linkguard::driver
