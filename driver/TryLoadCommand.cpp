//===- TryLoadCommand.cpp - `linkguard try-load FILE [options]` -----------===//
//
// The seed's second proof: load the library in a separate native process
// that neither links nor preloads OpenMP, and see what gets mapped. The
// work is in tryload/ (find the library, run linkguard-loader, judge what
// it reports); this file parses options, keeps the private directory safe
// from signals, and prints.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"

#include "driver/DriverError.h"
#include "driver/ExitCode.h"
#include "driver/SelfPath.h"
#include "driver/TryLoadPrinter.h"
#include "tryload/Target.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <csignal>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

using namespace llvm;

namespace linkguard::driver {
namespace {

const char *const HelpText =
    R"(USAGE: linkguard try-load [options] FILE

Loads a library in a fresh process (linkguard-loader) whose environment has
no LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, DYLD_INSERT_LIBRARIES,
DYLD_LIBRARY_PATH, DYLD_FALLBACK_LIBRARY_PATH (and dyld's framework and
versioned kin), lists every image mapped there and judges that list.

FILE is a library; a member of a zip archive, PKG.pt2!path/in/archive (or
the archive, when it holds one binary); or an image inside a blob,
FILE@0xOFFSET (or the blob with --scan, when it holds one). A member or an
embedded image is written to a private temporary directory (mode 0700),
removed afterwards, also when linkguard is interrupted.

OPTIONS:
  --forbid P     no mapped image may match P (a glob, or the group openmp)
  --require P    some mapped image must match P
  --call SYMBOL  call `int SYMBOL(void)` after loading; 0 is success
  --hide PATH    make PATH absent for the child only (Linux: a private mount
                 namespace), e.g. the absolute libomp path a library bakes;
                 repeatable
  --keep-env     keep the loader variables in the child's environment
  --lazy         dlopen with RTLD_LAZY instead of RTLD_NOW
  --scan         FILE may be any blob holding exactly one embedded image
  --json         one JSON document (schema in docs/try-load.md)
  --help         print this help

EXIT STATUS: 0 loaded and the contract holds, 1 an image breaks the
contract, 87 the library did not load (the loader's message is printed),
88 --hide is unavailable here or failed, 89 --call failed (missing symbol,
non-zero return, crash), 64 usage, 65 malformed file, 66 missing file,
69 linkguard-loader is not installed beside linkguard.
)";

const char *const Usage =
    "usage: linkguard try-load [--forbid P] [--require P] [--call SYMBOL] "
    "[--hide PATH] [--keep-env] [--lazy] [--scan] [--json] FILE\n";

int usage(const Twine &Msg) {
  errs() << "linkguard: error: try-load: " << Msg << "\n" << Usage;
  return toInt(ExitCode::Usage);
}

struct Options {
  contract::ContractSpec Spec;
  std::optional<std::string> Call;
  std::vector<std::string> Hide;
  bool KeepEnv = false, Lazy = false, Scan = false, Json = false;
  std::string File;
};

enum class Parse { Ok, Help, Error };

Parse parseArgs(const std::vector<std::string> &Args, Options &O, int &Status) {
  auto fail = [&](const Twine &Msg) {
    Status = usage(Msg);
    return Parse::Error;
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    auto [Name, Inline] = A.split('=');
    bool TakesValue = Name == "--forbid" || Name == "--require" ||
                      Name == "--call" || Name == "--hide";
    std::string Value;
    if (TakesValue && A.contains('='))
      Value = Inline.str();
    else if (TakesValue && I + 1 < Args.size())
      Value = Args[++I];
    else if (TakesValue)
      return fail(Name + " needs a value");
    if (TakesValue && Value.empty())
      return fail(Name + " needs a non-empty value");

    if (A == "--help" || A == "-h")
      return Parse::Help;
    if (Name == "--forbid" || Name == "--require") {
      if (Error E = contract::validatePattern(Value))
        return fail(Name + ": " + toString(std::move(E)));
      (Name == "--forbid" ? O.Spec.Forbid : O.Spec.Require).push_back({Value});
    } else if (Name == "--call") {
      O.Call = Value;
    } else if (Name == "--hide") {
      if (!sys::path::is_absolute(Value))
        return fail("--hide " + Value + ": not an absolute path");
      O.Hide.push_back(Value);
    } else if (A == "--keep-env") {
      O.KeepEnv = true;
    } else if (A == "--lazy") {
      O.Lazy = true;
    } else if (A == "--scan") {
      O.Scan = true;
    } else if (A == "--json") {
      O.Json = true;
    } else if (A == "--mps-aot" || A == "--unused" || A == "--portable" ||
               Name == "--forbid-unreferenced") {
      return fail(A + " judges a file's load commands, not a process: use "
                      "`linkguard check`");
    } else if (A == "--" && I + 2 == Args.size()) {
      O.File = Args[++I];
    } else if (A.starts_with("-") || !O.File.empty()) {
      return fail(A.starts_with("-") ? "unknown option '" + A + "'"
                                     : Twine("one FILE only"));
    } else {
      O.File = A.str();
    }
  }
  if (O.File.empty())
    return fail("no input file");
  return Parse::Ok;
}

// What a signal handler may touch: plain buffers, filled before use.
constexpr size_t CleanupMax = 4096;
char CleanupDir[CleanupMax];
char CleanupFile[CleanupMax];
volatile sig_atomic_t HaveDir = 0, HaveFile = 0;
volatile pid_t Child = 0;
const int Forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void onSignal(int Sig) {
  if (Child > 0)
    ::kill(Child, Sig);
  if (HaveFile)
    ::unlink(CleanupFile);
  if (HaveDir)
    ::rmdir(CleanupDir);
  ::signal(Sig, SIG_DFL);
  ::raise(Sig);
}

void remember(char *Buf, volatile sig_atomic_t &Flag, const std::string &P) {
  Flag = 0;
  std::strncpy(Buf, P.c_str(), CleanupMax - 1);
  Flag = P.size() < CleanupMax;
}

/// linkguard-loader, at LINKGUARD_LOADER_RELPATH from linkguard's own
/// directory (libexec/linkguard/ installed, the same layout in the build).
std::string loaderPath() {
  SmallString<256> P(sys::path::parent_path(selfPath()));
  sys::path::append(P, LINKGUARD_LOADER_RELPATH, "linkguard-loader");
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

int exitCodeOf(tryload::Outcome O) {
  switch (O) {
  case tryload::Outcome::Holds:
    return toInt(ExitCode::Success);
  case tryload::Outcome::Broken:
    return toInt(ExitCode::Violation);
  case tryload::Outcome::LoadFailed:
    return toInt(ExitCode::LoadFailed);
  case tryload::Outcome::CallFailed:
    return toInt(ExitCode::CallFailed);
  case tryload::Outcome::HideUnavailable:
    return toInt(ExitCode::HideUnavailable);
  }
  return toInt(ExitCode::Internal);
}

} // namespace

int runTryLoad(const std::vector<std::string> &Args) {
  Options O;
  int Status = 0;
  switch (parseArgs(Args, O, Status)) {
  case Parse::Help:
    outs() << HelpText;
    return 0;
  case Parse::Error:
    return Status;
  case Parse::Ok:
    break;
  }
  for (const std::string &H : O.Hide) {
    struct stat St;
    if (::lstat(H.c_str(), &St) != 0)
      return reportError(makeDriverError(ExitCode::UnreadableInput,
                                         "try-load: --hide " + H + ": " +
                                             std::strerror(errno)));
  }
  tryload::TryLoadRequest Req;
  Req.LoaderPath = loaderPath();
  if (!sys::fs::can_execute(Req.LoaderPath))
    return reportError(makeDriverError(
        ExitCode::LoaderMissing,
        "try-load: " + Req.LoaderPath +
            " is missing: linkguard-loader is installed beside linkguard"));

  auto Dir = tryload::PrivateDir::create();
  if (!Dir)
    return reportError(makeDriverError(
        ExitCode::UnreadableInput, "try-load: " + toString(Dir.takeError())));
  remember(CleanupDir, HaveDir, (*Dir)->path());
  for (int Sig : Forwarded)
    ::signal(Sig, onSignal);

  auto Target =
      tryload::resolveTarget(O.File, O.Scan, **Dir, [](const std::string &P) {
        remember(CleanupFile, HaveFile, P);
      });
  if (!Target) {
    Error E =
        handleErrors(Target.takeError(), [](const tryload::AmbiguousTarget &A) {
          return makeDriverError(ExitCode::Usage, "try-load: " + A.message());
        });
    return reportError(std::move(E));
  }

  Req.Library = Target->Library;
  Req.Call = O.Call;
  Req.Hide = O.Hide;
  Req.KeepEnv = O.KeepEnv;
  Req.Lazy = O.Lazy;
  TryLoadReport R;
  R.Name = Target->Name;
  R.Library = Req.Library;
  R.Loader = Req.LoaderPath;
  R.Lazy = O.Lazy;
  R.KeepEnv = O.KeepEnv;
  R.Call = O.Call;
  std::vector<std::string> Env;
  for (char **E = environ; E && *E; ++E)
    Env.push_back(*E);
  Env = tryload::scrubEnvironment(Env, O.KeepEnv, R.Removed);

  auto Run = tryload::runLoader(Req, Env, [](pid_t P) { Child = P; });
  Child = 0;
  // The library is no longer needed: remove it before printing (a closed
  // stdout must not leave it behind).
  HaveFile = HaveDir = 0;
  Dir->reset();
  if (!Run)
    return reportError(makeDriverError(
        ExitCode::Internal, "try-load: " + toString(Run.takeError())));
  R.Hidden = Run->Report.Hidden;
  R.CallStatus = Run->Report.CallStatus;
  R.Verdict = tryload::judgeRun(*Run, Req.Library, O.Call, O.Spec);
  R.ExitCode = exitCodeOf(R.Verdict.What);
  if (O.Json)
    outs() << formatv("{0:2}", tryLoadToJSON(O.Spec, R)) << "\n";
  else
    printTryLoadText(outs(), R);
  outs().flush();
  if (!R.Verdict.Problem.empty())
    errs() << "linkguard: error: try-load: " << R.Name << ": "
           << R.Verdict.Problem << "\n";
  return R.ExitCode;
}

} // namespace linkguard::driver
