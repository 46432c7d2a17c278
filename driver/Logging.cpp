//===- Logging.cpp - the one place that includes spdlog -------------------===//
//
// spdlog is used header-only (Debian ships it shared only, and linkguard links
// statically); keeping it behind three functions keeps that cost to one TU.
//
//===----------------------------------------------------------------------===//
#include "driver/Logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace linkguard::driver {

void setUpLogging(const Config &Cfg) {
  auto Level = spdlog::level::from_str(Cfg.LogLevel);
  std::shared_ptr<spdlog::logger> Logger;
  if (Level != spdlog::level::off && !Cfg.LogFile.empty()) {
    try {
      Logger = spdlog::basic_logger_mt("linkguard", Cfg.LogFile);
    } catch (const spdlog::spdlog_ex &E) {
      Logger = spdlog::stderr_logger_st("linkguard");
      Logger->warn("cannot open LINKGUARD_LOG_FILE {}: {}", Cfg.LogFile, E.what());
    }
  } else {
    Logger = spdlog::stderr_logger_st("linkguard");
  }
  Logger->set_pattern("linkguard[%P] %l: %v");
  Logger->set_level(Level);
  Logger->flush_on(spdlog::level::trace);
  spdlog::set_default_logger(Logger);
}

// spdlog's implicit default logger writes to stdout; log only through ours,
// and not at all before setUpLogging ran (unit tests).
static void logAt(spdlog::level::level_enum Level, const std::string &Message) {
  if (auto Logger = spdlog::get("linkguard"))
    Logger->log(Level, "{}", Message);
}

void logDebug(const std::string &Message) { logAt(spdlog::level::debug, Message); }

void logTrace(llvm::function_ref<std::string()> Message) {
  if (auto Logger = spdlog::get("linkguard"); Logger && Logger->should_log(spdlog::level::trace))
    Logger->log(spdlog::level::trace, "{}", Message());
}
void logInfo(const std::string &Message) { logAt(spdlog::level::info, Message); }
void logWarn(const std::string &Message) { logAt(spdlog::level::warn, Message); }

} // namespace linkguard::driver
