//===- FrontCache.cpp - a compiler cache in front of linkguard ------------===//
//
// What the caches key on (read in their sources):
//  - ccache, hash_compiler() in src/ccache/ccache.cpp: with the default
//    compiler_check "mtime" the size and mtime of the compiler file it runs,
//    plus that file's name. In front of linkguard that file is linkguard.
//    A command check ("%compiler% -v") runs linkguard, which passes -v to
//    the real compiler: then the key does cover the real compiler.
//  - sccache, detect_c_compiler() in src/compiler/compiler.rs: the digest of
//    the file plus the __VERSION__ its detection run printed, cached by the
//    server per path and mtime (server.rs compiler_info) until it stops.
// Neither sees LINKGUARD_CXX. Checked here: CXX="ccache linkguard-clang++"
// with LINKGUARD_CXX=clang++-14, then clang++-19, gives clang 14's object
// (readelf -p .comment).
//
//===----------------------------------------------------------------------===//
#include "driver/FrontCache.h"

#include "driver/Logging.h"
#include "support/Printable.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <climits>
#include <fcntl.h>
#include <optional>
#include <sys/file.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <libproc.h>
#endif

namespace linkguard::driver {

static std::string parentExecutable() {
#if defined(__linux__)
  // The link is the kernel's canonical path of the parent's executable (every
  // symbolic link resolved): one readlink, not a realpath walk of it. Only
  // its file name is used.
  char Buf[PATH_MAX];
  std::string Link = "/proc/" + std::to_string(::getppid()) + "/exe";
  ssize_t N = ::readlink(Link.c_str(), Buf, sizeof(Buf));
  if (N > 0)
    return {Buf, static_cast<size_t>(N)};
#elif defined(__APPLE__)
  char Buf[PROC_PIDPATHINFO_MAXSIZE];
  if (::proc_pidpath(::getppid(), Buf, sizeof(Buf)) > 0)
    return Buf;
#endif
  return {};
}

/// The cache the parent process is, by its executable's file name.
static FrontCacheKind parentCache() {
  const std::string Exe = parentExecutable();
  llvm::StringRef Parent = llvm::sys::path::filename(Exe);
  if (Parent == "ccache")
    return FrontCacheKind::Ccache;
  if (Parent == "sccache")
    return FrontCacheKind::Sccache;
  if (Parent == "distcc")
    return FrontCacheKind::Distcc;
  return FrontCacheKind::None;
}

FrontCache detectFrontCache(const config::Config &Cfg, bool IsLink) {
  if (FrontCacheKind Kind = parentCache(); Kind != FrontCacheKind::None)
    return {Kind, true};
  // ccache exec()s the compiler for a link it does not cache, after setting
  // CCACHE_DISABLE=1 "so no process ccache executes from now on will risk
  // calling ccache second time" (do_cache_compilation).
  if (IsLink && !Cfg.env("CCACHE_DISABLE").value_or("").empty())
    return {FrontCacheKind::Ccache, false};
  return {};
}

static std::string joinWords(const std::vector<std::string> &Words) {
  std::string Out;
  for (const std::string &W : Words)
    Out += (Out.empty() ? "" : " ") + W;
  return Out;
}

/// "<words>\t<size> <mtime>" of the real compiler's file: a rebuilt or
/// upgraded compiler at the same path is a different compiler too.
static std::string identity(const CompilerCommand &Compiler) {
  std::string Id = joinWords(Compiler.Prefix);
  llvm::sys::fs::file_status St;
  if (!llvm::sys::fs::status(Compiler.Executable, St))
    Id +=
        "\t" + std::to_string(St.getSize()) + " " +
        std::to_string(St.getLastModificationTime().time_since_epoch().count());
  return Id;
}

static llvm::StringRef shown(llvm::StringRef Identity) {
  return Identity.split('\t').first;
}

std::string frontCacheWarning(FrontCacheKind Cache, const config::Config &Cfg,
                              const std::string &Recorded,
                              const std::string &Compiler) {
  if (Cache == FrontCacheKind::None || Recorded == Compiler)
    return {};
  if (Cache == FrontCacheKind::Distcc)
    return "linkguard: warning: distcc runs linkguard as its compiler, so it sends "
           "linkguard's name to the farm, where distccd refuses it (it runs only the "
           "compilers /usr/lib/distcc lists) and the job compiles on this machine: put "
           "distcc behind linkguard (LINKGUARD_CXX='distcc " +
           printable(shown(Compiler)) + "') (docs/integration.md). Said once per compiler.\n";
  const bool Ccache = Cache == FrontCacheKind::Ccache;
  if (Ccache && llvm::StringRef(Cfg.env("CCACHE_COMPILERCHECK").value_or(""))
                    .contains("%compiler%"))
    return {};
  const std::string Name = Ccache ? "ccache" : "sccache";
  const std::string Now = printable(shown(Compiler));
  const std::string Fix =
      Ccache ? "put ccache behind linkguard (LINKGUARD_CXX='ccache " + Now +
                   "') or set CCACHE_COMPILERCHECK='%compiler% -v'"
             : "put sccache behind linkguard (LINKGUARD_CXX='sccache " + Now +
                   "') or run `sccache --stop-server` after every change";
  if (Recorded.empty())
    return "linkguard: warning: " + Name +
           " runs linkguard as its compiler, so it keys its cache on "
           "linkguard's "
           "file, not on the compiler linkguard runs (" +
           Now + "): change that compiler and " + Name +
           " serves the old one's objects. To avoid it, " + Fix +
           " (docs/integration.md). Said once per compiler.\n";
  const std::string Before = printable(shown(Recorded));
  return "linkguard: warning: the compiler behind linkguard changed from " +
         Before + " to " + Now + ", but " + Name +
         " in front of linkguard keys on linkguard's file: objects " + Before +
         " made are served as " + Now + "'s" +
         (Ccache ? " (clear them: ccache -C, or CCACHE_RECACHE=1 for one build)"
                 : " until the sccache server restarts") +
         ". To avoid it, " + Fix + " (docs/integration.md).\n";
}

/// ccache's UNCACHED_ERR_FD, when it names an open descriptor: "intended
/// mainly for automatic use by ccache, which sets it to avoid caching
/// transient errors" (distcc(1)). -1 otherwise, and when the parent is not
/// ccache (or distcc, which writes its own errors there: ccache -> distcc ->
/// linkguard): ccache sets it to a dup of its stderr when it caches a
/// compilation (ccache.cpp set_up_uncached_err), and every process below
/// inherits the variable, so elsewhere the number may name any descriptor
/// (stdout of `-E -o -`, a make jobserver pipe) that a warning must not reach.
/// Parent: the cache the parent process is, asked only once the variable
/// names an open descriptor (warnIfCacheInFront knows it already).
static int uncachedErrFd(llvm::StringRef Value,
                         llvm::function_ref<FrontCacheKind()> Parent) {
  int Fd = -1;
  if (Value.getAsInteger(10, Fd) || Fd < 0 || ::fcntl(Fd, F_GETFD) == -1)
    return -1;
  FrontCacheKind Kind = Parent();
  return Kind == FrontCacheKind::Ccache || Kind == FrontCacheKind::Distcc ? Fd : -1;
}

int uncachedErrFd(llvm::StringRef Value) {
  return uncachedErrFd(Value, parentCache);
}

int uncachedErrFd(const config::Config &Cfg) {
  return uncachedErrFd(Cfg.env("UNCACHED_ERR_FD").value_or(""));
}

static std::string recordPath(FrontCacheKind Cache, const config::Config &Cfg,
                              const std::string &SelfPath) {
  llvm::SmallString<256> Dir;
  if (auto State = Cfg.env("XDG_STATE_HOME");
      State && llvm::sys::path::is_absolute(*State))
    Dir = *State;
  else if (auto Home = Cfg.env("HOME");
           Home && llvm::sys::path::is_absolute(*Home))
    llvm::sys::path::append(Dir, *Home, ".local", "state");
  else
    return {};
  llvm::sys::path::append(Dir, "linkguard");
  if (llvm::sys::fs::create_directories(Dir))
    return {};
  llvm::SmallString<32> Hex;
  llvm::raw_svector_ostream(Hex) << llvm::format_hex_no_prefix(
      llvm::xxh3_64bits(llvm::StringRef(SelfPath)), 16);
  llvm::sys::path::append(
      Dir, std::string("behind-") +
               (Cache == FrontCacheKind::Ccache    ? "ccache"
                : Cache == FrontCacheKind::Distcc ? "distcc"
                                                  : "sccache") +
               "-" +
               std::string(Hex));
  return std::string(Dir);
}

FrontDecision decideFrontCache(FrontCacheKind Cache, const config::Config &Cfg,
                               const FrontRecord &Old, const std::string &Now,
                               bool CanPrint, bool FromParent) {
  FrontDecision D;
  // Only a cache seen as the parent may start a record: ccache's
  // environment alone (CCACHE_DISABLE, which users set too) may only
  // report against one.
  if (Old.Told.empty() && Old.Other.empty() && !FromParent)
    return D;
  if (!CanPrint) {
    // sccache's compile steps: note the first compiler that differs from
    // the one told, for the next step that can say it (a link).
    if (Now != Old.Told && Old.Other.empty())
      D.Write = FrontRecord{Old.Told, Now};
    return D;
  }
  // The compiler whose objects the cache may hold, other than Now.
  std::string Before = !Old.Other.empty() && Old.Other != Now ? Old.Other
                       : Old.Told != Now                      ? Old.Told
                                                              : std::string();
  if (!Before.empty() || Old.Told.empty())
    D.Text = frontCacheWarning(Cache, Cfg, Before, Now);
  if (Old.Told != Now || !Old.Other.empty())
    D.Write = FrontRecord{Now, ""};
  return D;
}

/// The record file, locked with flock(2) for as long as the object lives so
/// that of -j8 compiles only one sees a change.
class RecordFile {
public:
  explicit RecordFile(const std::string &Path) {
    if (Path.empty())
      return;
    Fd = ::open(Path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (Fd >= 0 && ::flock(Fd, LOCK_EX) != 0) {
      ::close(Fd);
      Fd = -1;
    }
  }
  ~RecordFile() {
    if (Fd >= 0)
      ::close(Fd); // releases the lock
  }
  RecordFile(const RecordFile &) = delete;
  RecordFile &operator=(const RecordFile &) = delete;

  /// Two lines, Told and Other; nullopt when there is no record to keep
  /// (no HOME, a read-only home). At most 4 KiB is read: a record is a few
  /// hundred bytes.
  std::optional<FrontRecord> read() const {
    if (Fd < 0)
      return std::nullopt;
    char Buf[4096];
    ssize_t N;
    do
      N = ::pread(Fd, Buf, sizeof(Buf), 0);
    while (N < 0 && errno == EINTR);
    if (N < 0)
      return std::nullopt;
    auto [Told, Rest] = llvm::StringRef(Buf, N).split('\n');
    return FrontRecord{Told.str(), Rest.split('\n').first.str()};
  }

  void write(const FrontRecord &R) const {
    std::string Text = R.Told + "\n" + R.Other + "\n";
    if (Fd >= 0 && ::ftruncate(Fd, 0) == 0)
      (void)::pwrite(Fd, Text.data(), Text.size(), 0);
  }

private:
  int Fd = -1;
};

static void writeAll(int Fd, const std::string &Text) {
  const char *P = Text.data();
  size_t Left = Text.size();
  while (Left > 0) {
    ssize_t N = ::write(Fd, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    P += N;
    Left -= static_cast<size_t>(N);
  }
}

/// The warning on its channel, and in LINKGUARD_LOG_FILE (driver/Logging.h).
static void say(int Channel, const std::string &Text) {
  writeAll(Channel, Text);
  llvm::StringRef Line = llvm::StringRef(Text).trim();
  Line.consume_front("linkguard: warning: ");
  mirrorToLogFile("warning", Line.str());
}

void warnIfCacheInFront(const CompilerCommand &Compiler, const config::Config &Cfg,
                        const std::string &SelfPath, bool IsLink) {
  FrontCache Front = detectFrontCache(Cfg, IsLink);
  if (Front.Kind == FrontCacheKind::None)
    return;
  // What a compile step prints may be stored with its object and replayed
  // on every hit; ccache's UNCACHED_ERR_FD is not, and a link is not cached.
  // distcc stores nothing: its steps' stderr is always the user's.
  int Channel = uncachedErrFd(Cfg.env("UNCACHED_ERR_FD").value_or(""), [&] {
    return Front.FromParent ? Front.Kind : FrontCacheKind::None;
  });
  if (Channel < 0 && (IsLink || Front.Kind == FrontCacheKind::Distcc))
    Channel = STDERR_FILENO;
  const std::string Now = identity(Compiler);
  RecordFile File(recordPath(Front.Kind, Cfg, SelfPath));
  std::optional<FrontRecord> Old = File.read();
  if (!Old) {
    // No record can be kept: say it every time rather than never.
    if (Channel >= 0 && Front.FromParent)
      say(Channel, frontCacheWarning(Front.Kind, Cfg, "", Now));
    return;
  }
  FrontDecision D = decideFrontCache(Front.Kind, Cfg, *Old, Now, Channel >= 0,
                                     Front.FromParent);
  if (D.Write)
    File.write(*D.Write);
  if (!D.Text.empty())
    say(Channel, D.Text);
}

} // namespace linkguard::driver
