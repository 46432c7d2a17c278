//===- Logging.h - spdlog to stderr or LINKGUARD_LOG_FILE --------*- C++ -*-===//
//
// Never to stdout: build tools parse the compiler's stdout. Quiet by default
// (level warn). Only driver/ logs; objlib/, flags/ and contract/ return data.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/Config.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace linkguard::driver {

/// Sets up the default logger from Config. Falls back to stderr when the log
/// file cannot be opened (and says so once).
void setUpLogging(const Config &Cfg);

void logDebug(const std::string &Message);
/// Builds the message only when trace logging is on (the plan as JSON).
void logTrace(llvm::function_ref<std::string()> Message);
void logInfo(const std::string &Message);
void logWarn(const std::string &Message);

} // namespace linkguard::driver
