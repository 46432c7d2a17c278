//===- Logging.h - spdlog to stderr or LINKGUARD_LOG_FILE --------*- C++ -*-===//
//
// Never to stdout: build tools parse the compiler's stdout. Quiet by default
// (level warn). Only driver/ logs; objlib/, flags/ and contract/ return data.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace linkguard::driver {

/// Records the level and LINKGUARD_LOG_FILE from Config. The logger is
/// built by the first message that passes the level, so a step that logs
/// nothing pays nothing for it; the file is opened then too (a regular file
/// only, never inherited by the compiler); when it cannot be, the log goes
/// to stderr after one warning, which ccache's UNCACHED_ERR_FD gets instead
/// when ccache runs the step (uncachedErrFd, looked up only when that
/// warning is said): a cache hit must not replay it.
void setUpLogging(const config::Config &Cfg);

void logDebug(const std::string &Message);
/// Builds the message only when debug logging is on (escaped names cost a
/// pass over each; a compile step at the default level builds none).
void logDebug(llvm::function_ref<std::string()> Message);
/// Builds the message only when trace logging is on (the plan as JSON).
void logTrace(llvm::function_ref<std::string()> Message);
void logInfo(const std::string &Message);
void logWarn(const std::string &Message);

/// A line linkguard says on stderr: "linkguard: SEVERITY: TEXT" (Text is
/// already escaped, support/Printable.h). It also reaches LINKGUARD_LOG_FILE,
/// when one is set, whatever LINKGUARD_LOG's level (but off): cpp_builder
/// shows a step's stderr only when the step fails, so a passing export's
/// warnings live in the log file or nowhere.
void printDiagnostic(const char *Severity, const std::string &Text);
/// Text already said on another channel (a cache's UNCACHED_ERR_FD):
/// written to LINKGUARD_LOG_FILE when one is set (and LINKGUARD_LOG is not
/// off), nowhere else.
void mirrorToLogFile(const char *Severity, const std::string &Text);
/// Text (a verdict) written to
/// LINKGUARD_LOG_FILE when one is set, whatever the level (but off), and
/// to the log at Level otherwise. Severity is "warning", "error" or "info".
void logAlways(const char *Severity, const std::string &Text);

/// Opens Path to append to it (LINKGUARD_LOG_FILE, LINKGUARD_REPORT), only
/// when it is a regular file or none: decided from lstat before any open,
/// since opening a FIFO wakes its reader and opening a device can act on
/// it; then O_NONBLOCK (a FIFO swapped in meanwhile cannot hang the step),
/// O_NOFOLLOW (a link planted there is not followed), O_CLOEXEC (the
/// compiler does not inherit it) and an fstat of the descriptor. -1 and
/// Why (unescaped) when it cannot be used.
int openAppendRegular(const std::string &Path, std::string &Why);

} // namespace linkguard::driver
