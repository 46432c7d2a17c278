//===- Logging.cpp - the one place that includes spdlog -------------------===//
//
// spdlog is used header-only (Debian ships it shared only, and linkguard links
// statically); keeping it behind three functions keeps that cost to one TU.
//
// LINKGUARD_LOG_FILE is opened by linkguard's own sink, not spdlog's
// basic_file_sink (fopen, inherited by the compiler, creates missing
// directories, blocks on a FIFO):
//  - lazily, on the first message that passes the level, so a step that
//    logs nothing (a pass-through compile at the default level) creates no
//    file;
//  - only a regular file: lstat first, then open with O_NONBLOCK (a FIFO
//    without a reader fails with ENXIO instead of hanging the build),
//    O_NOFOLLOW (a symbolic link planted where the log should go, in /tmp
//    say, is not followed to the user's files), O_CLOEXEC (the compiler does
//    not inherit it), and an fstat of the descriptor to confirm;
//  - O_APPEND, so parallel steps writing one log interleave whole lines.
// When it cannot be used, the log goes to stderr after one warning (on
// ccache's UNCACHED_ERR_FD when ccache runs the step: not stored with the
// object, so a cache hit does not replay it).
//
//===----------------------------------------------------------------------===//
#include "driver/Logging.h"

#include "driver/FrontCache.h"
#include "flags/BoundedRead.h"
#include "support/Printable.h"

#include <spdlog/details/null_mutex.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace linkguard::driver {

namespace {

void writeAll(int Fd, const char *Data, size_t Size) {
  while (Size > 0) {
    ssize_t N = ::write(Fd, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return; // a full disk or a closed stderr: the log is best effort
    Data += N;
    Size -= static_cast<size_t>(N);
  }
}

} // namespace

int openAppendRegular(const std::string &Path, std::string &Why) {
  struct stat St {};
  if (::lstat(Path.c_str(), &St) == 0 && !S_ISREG(St.st_mode)) {
    Why = std::string("not a regular file (") +
          flags::fileKindName(St.st_mode) + ")";
    return -1;
  }
  int Fd = ::open(Path.c_str(),
                  O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK |
                      O_NOFOLLOW | O_NOCTTY,
                  0666);
  if (Fd < 0) {
    Why = std::strerror(errno);
    return -1;
  }
  if (::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    Why = std::string("not a regular file (") +
          flags::fileKindName(St.st_mode) + ")";
    ::close(Fd);
    return -1;
  }
  return Fd;
}

namespace {

class LazyFileSink final
    : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
public:
  LazyFileSink(std::string Path, std::string UncachedErrFd)
      : Path(std::move(Path)), UncachedErrFd(std::move(UncachedErrFd)) {}
  LazyFileSink(const LazyFileSink &) = delete;
  LazyFileSink &operator=(const LazyFileSink &) = delete;
  ~LazyFileSink() override {
    if (Fd > 2)
      ::close(Fd);
  }
  /// Opens the file now if it was not; false when the log went to stderr
  /// instead (then a line already said on stderr is not said again).
  bool usable() {
    if (Fd < 0)
      open();
    return Fd != STDERR_FILENO;
  }

protected:
  void sink_it_(const spdlog::details::log_msg &Msg) override {
    if (Fd < 0)
      open();
    spdlog::memory_buf_t Buf;
    formatter_->format(Msg, Buf);
    writeAll(Fd, Buf.data(), Buf.size());
  }
  void flush_() override {}

private:
  void open() {
    std::string Why;
    Fd = openAppendRegular(Path, Why);
    if (Fd >= 0)
      return;
    Fd = STDERR_FILENO;
    // On stderr, stderr's one prefix ("linkguard: debug: ..."), not the file's.
    set_pattern_("linkguard: %l: %v");
    std::string Line = "linkguard: warning: cannot open LINKGUARD_LOG_FILE " + printable(Path) +
                       ": " + printable(Why) + "; logging to stderr\n";
    // On ccache's UNCACHED_ERR_FD when ccache runs the step (on stderr
    // ccache would store it with the object and replay it on every hit,
    // driver/FrontCache.h), else stderr: looked up only now, when said.
    int WarnFd = uncachedErrFd(UncachedErrFd);
    writeAll(WarnFd >= 0 ? WarnFd : STDERR_FILENO, Line.data(), Line.size());
  }

  std::string Path;
  std::string UncachedErrFd; // the variable's value, for the fallback's warning
  int Fd = -1;
};

} // namespace

namespace {

/// What setUpLogging read; the logger itself is built by the first message
/// that passes the level. A step that logs nothing (a compile at the
/// default level) builds no logger, sink or pattern formatter: that is most
/// of spdlog's cost at start-up (docs/reliability.md, "Start-up").
struct LogSettings {
  bool Enabled = false; // setUpLogging ran (unit tests do not log)
  spdlog::level::level_enum Level = spdlog::level::off;
  std::string File;
  std::string UncachedErrFd; // UNCACHED_ERR_FD's value, when File is set
  std::shared_ptr<spdlog::logger> Logger;
  LazyFileSink *File_ = nullptr; // the logger's sink when File is set
};

LogSettings &settings() {
  static LogSettings S;
  return S;
}

bool shouldLog(spdlog::level::level_enum Level) {
  const LogSettings &S = settings();
  return S.Enabled && S.Level != spdlog::level::off && Level >= S.Level;
}

spdlog::logger &logger() {
  LogSettings &S = settings();
  if (!S.Logger) {
    spdlog::sink_ptr Sink;
    if (!S.File.empty()) {
      auto FileSink = std::make_shared<LazyFileSink>(S.File, S.UncachedErrFd);
      S.File_ = FileSink.get();
      Sink = std::move(FileSink);
    } else
      Sink = std::make_shared<spdlog::sinks::stderr_sink_st>();
    // Never spdlog's registry or default logger: the default one writes to
    // stdout.
    S.Logger = std::make_shared<spdlog::logger>("linkguard", std::move(Sink));
    // One prefix on stderr for every line linkguard writes there
    // ("linkguard: warning: ..."); a log file shared by a parallel build
    // also says which process wrote each line.
    S.Logger->set_pattern(S.File.empty() ? "linkguard: %l: %v" : "linkguard[%P] %l: %v");
    // Filtered by shouldLog: lines for LINKGUARD_LOG_FILE pass any level.
    S.Logger->set_level(spdlog::level::trace);
    S.Logger->flush_on(spdlog::level::trace);
  }
  return *S.Logger;
}

void logAt(spdlog::level::level_enum Level, const std::string &Message) {
  if (shouldLog(Level))
    logger().log(Level, "{}", Message);
}

} // namespace

void setUpLogging(const config::Config &Cfg) {
  LogSettings &S = settings();
  S.Enabled = true;
  S.Level = spdlog::level::from_str(Cfg.LogLevel);
  S.File = Cfg.LogFile;
  S.UncachedErrFd = S.File.empty() ? "" : Cfg.env("UNCACHED_ERR_FD").value_or("");
  S.Logger.reset();
  S.File_ = nullptr;
}

void logDebug(const std::string &Message) {
  logAt(spdlog::level::debug, Message);
}
void logInfo(const std::string &Message) {
  logAt(spdlog::level::info, Message);
}
void logWarn(const std::string &Message) {
  logAt(spdlog::level::warn, Message);
}

static spdlog::level::level_enum levelOf(const char *Severity) {
  llvm::StringRef S(Severity);
  return S == "error" ? spdlog::level::err
         : S == "warning" ? spdlog::level::warn
                          : spdlog::level::info;
}

/// Whether the log is a file that really opened (not the stderr it falls
/// back to). Builds the logger, so only for a step that logs this line.
static bool logIsAFile() {
  LogSettings &S = settings();
  if (S.File.empty() || !S.Enabled || S.Level == spdlog::level::off)
    return false;
  logger();
  return S.File_ != nullptr && S.File_->usable();
}

void logAlways(const char *Severity, const std::string &Text) {
  const LogSettings &S = settings();
  spdlog::level::level_enum Level = levelOf(Severity);
  if (!S.Enabled || S.Level == spdlog::level::off)
    return;
  // The level filters, except for a log file that really is one: a log
  // that fell back to stderr stays quiet by default.
  if (Level >= S.Level || logIsAFile())
    logger().log(Level, "{}", Text);
}

void mirrorToLogFile(const char *Severity, const std::string &Text) {
  if (logIsAFile())
    logger().log(levelOf(Severity), "{}", Text);
}

void printDiagnostic(const char *Severity, const std::string &Text) {
  std::string Line = std::string("linkguard: ") + Severity + ": " + Text + "\n";
  writeAll(STDERR_FILENO, Line.data(), Line.size());
  // On stderr already: the log gets it only when it is a file.
  mirrorToLogFile(Severity, Text);
}

void logDebug(llvm::function_ref<std::string()> Message) {
  if (shouldLog(spdlog::level::debug))
    logger().log(spdlog::level::debug, "{}", Message());
}

void logTrace(llvm::function_ref<std::string()> Message) {
  if (shouldLog(spdlog::level::trace))
    logger().log(spdlog::level::trace, "{}", Message());
}

} // namespace linkguard::driver
