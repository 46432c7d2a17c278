//===- TryLoad.cpp - `linkguard try-load FILE [options]` -------------------===//
//
// The seed's second proof: load the library in a separate native process
// that neither links nor preloads OpenMP, and see what gets mapped. The
// work is in tryload/ (find the library, run linkguard-loader, judge what
// it reports); this file reads the options, keeps the private directory safe
// from signals, describes the run once (tryLoadRecord) and prints it.
//
//===----------------------------------------------------------------------===//
#include "commands/Commands.h"

#include "commands/CommandLine.h"
#include "commands/Contracts.h"
#include "commands/Inputs.h"
#include "commands/Printer.h"
#include "driver/DriverError.h"
#include "driver/ExitCode.h"
#include "driver/SelfPath.h"
#include "support/Printable.h"
#include "support/TerminatingSignals.h"
#include "tryload/Outcome.h"
#include "tryload/Run.h"
#include "tryload/Target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <csignal>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

using namespace llvm;
using namespace linkguard::driver;

namespace linkguard::commands {

namespace {

const CommandSpec Spec = {
    "try-load", TryLoadVis, "linkguard try-load [options] FILE",
    "Loads a library in a fresh process (linkguard-loader) whose environment has no\n"
    "LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, DYLD_INSERT_LIBRARIES, DYLD_LIBRARY_PATH,\n"
    "DYLD_FALLBACK_LIBRARY_PATH (and dyld's framework and versioned kin), lists every\n"
    "image mapped there and judges that list. FILE is a library; a member of a zip\n"
    "archive, PKG.pt2!path/in/archive or PKG.pt2/path/in/archive (or the archive,\n"
    "when it holds one binary); or an image inside a blob, FILE@0xOFFSET (or the blob\n"
    "with --scan, when it holds one). A member or an embedded image is written to a\n"
    "private temporary directory (mode 0700), removed afterwards, also when linkguard\n"
    "is interrupted.",
    "EXIT STATUS: 0 loaded and the contract holds, 1 an image breaks the contract, 87\n"
    "the library did not load (the loader's message is printed), 88 --hide is\n"
    "unavailable here or failed, 89 --call failed (missing symbol, non-zero return,\n"
    "crash), 90 report incomplete (what the process mapped cannot be known for sure),\n"
    "91 this platform cannot load FILE (a Mach-O on Linux), 92 undecided (the library\n"
    "asked for a thread or process linkguard would not trace), 64 usage, 65 malformed\n"
    "file, 66 missing file, 69 linkguard-loader is not installed beside linkguard, 71\n"
    "the loader could not be started, 73 the private directory cannot be created.\n"
    "A loader still running after --timeout (300 s by default) is killed: 87 while\n"
    "loading, 89 in --call.\n",
    "no input file",
    /*TakesCommand=*/false,
    "it judges a file's load commands, not a process: use `linkguard check`"};

struct Options {
  contract::ContractSpec Spec;
  std::optional<std::string> Call;
  std::vector<std::string> Hide;
  bool KeepEnv = false, Lazy = false, Json = false;
  package::ContainerOptions Containers; // --scan, --max-inflated
  unsigned TimeoutSeconds = 300;        // docs/try-load.md
  std::string File;
};

/// The options, or the exit status of a usage error.
std::optional<int> readOptions(const std::vector<std::string> &Args, Options &O) {
  ParsedCommandLine CL;
  if (std::optional<int> Stop = parseCommandLine(Spec, Args, CL))
    return Stop;
  if (std::optional<int> Stop = addPatterns(Spec, CL.Args, O.Spec))
    return Stop;
  if (const opt::Arg *C = CL.Args.getLastArg(OPT_call_EQ))
    O.Call = C->getValue();
  for (const std::string &H : CL.Args.getAllArgValues(OPT_hide_EQ)) {
    if (!sys::path::is_absolute(H))
      return usageError(Spec, "--hide " + printable(H) + ": not an absolute path");
    O.Hide.push_back(H);
  }
  if (const opt::Arg *T = CL.Args.getLastArg(OPT_timeout_EQ))
    if (StringRef(T->getValue()).getAsInteger(10, O.TimeoutSeconds))
      return usageError(Spec, "--timeout " + printable(T->getValue()) +
                                  ": not a number of seconds");
  O.KeepEnv = CL.Args.hasArg(OPT_keep_env);
  O.Lazy = CL.Args.hasArg(OPT_lazy);
  if (std::string Why; !containerOptionsFrom(CL.Args, O.Containers, Why))
    return usageError(Spec, Why);
  O.Json = CL.Args.hasArg(OPT_json);
  if (CL.Positionals.size() > 1)
    return usageError(Spec, "one FILE only");
  O.File = CL.Positionals.front();
  if (llvm::sys::fs::is_directory(O.File))
    return usageError(Spec, O.File + " is a directory: try-load loads one library; name a "
                                      "file of the tree (check --portable DIR judges the tree)");
  return std::nullopt;
}

// What a signal handler may touch: plain buffers, filled before use.
constexpr size_t CleanupMax = 4096;
char CleanupDir[CleanupMax];
char CleanupFile[CleanupMax]; // its name in the directory open at CleanupDirFd
volatile sig_atomic_t HaveDir = 0, HaveFile = 0, CleanupDirFd = -1;
volatile pid_t Child = 0;

void onSignal(int Sig) {
  if (Child > 0)
    ::kill(Child, Sig); // it also dies with linkguard (PR_SET_PDEATHSIG)
  // What the library forked outlives the loader otherwise: the loader and
  // everything under it (its orphans are reparented here) goes now.
  tryload::killChildrenNow();
  // Through the directory's descriptor: the library may have put a link to
  // another directory where the private one was (rmdir below removes an
  // empty directory or nothing).
  if (HaveFile && CleanupDirFd >= 0)
    ::unlinkat(CleanupDirFd, CleanupFile, 0);
  if (HaveDir)
    ::rmdir(CleanupDir);
  ::signal(Sig, SIG_DFL);
  ::raise(Sig); // delivered when the handler returns
}

/// Every signal whose default action ends linkguard (the table the
/// wrapper's forwarding uses) removes the private directory first and is
/// passed to the loader. One ignored at start stays ignored.
void catchTerminatingSignals() {
  struct sigaction Act {};
  Act.sa_handler = onSignal;
  sigemptyset(&Act.sa_mask);
  forEachTerminatingSignal([&](int Sig) { sigaddset(&Act.sa_mask, Sig); });
  forEachTerminatingSignal([&](int Sig) {
    struct sigaction Cur {};
    if (::sigaction(Sig, nullptr, &Cur) == 0 && Cur.sa_handler != SIG_IGN)
      ::sigaction(Sig, &Act, nullptr);
  });
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
  case tryload::Outcome::Incomplete:
    return toInt(ExitCode::ReportIncomplete);
  case tryload::Outcome::Undecided:
    return toInt(ExitCode::Undecided);
  }
  return toInt(ExitCode::Internal);
}


json::Array strings(const std::vector<std::string> &Ss) {
  json::Array A;
  for (const std::string &S : Ss)
    A.push_back(S);
  return A;
}

/// What one run came to, as --json prints it (docs/try-load.md).
json::Object tryLoadRecord(const Options &O, const std::string &Name, const std::string &Library,
                           const std::string &Loader, const std::vector<std::string> &Removed,
                           const package::Image *Source, const tryload::LoaderRun &Run,
                           const tryload::TryLoadVerdict &V, int Exit) {
  using tryload::Outcome;
  json::Array Images, Forbid, Require;
  for (const tryload::MappedImage &M : V.Images) {
    json::Object I{{"origin", tryload::originName(M.From)}};
    putName(I, "path", M.Image.Path);
    putName(I, "realPath", M.Image.RealPath);
    I["via"] = nullptr;
    if (!M.Image.Via.empty())
      putName(I, "via", M.Image.Via);
    Images.push_back(std::move(I));
  }
  for (const contract::Pattern &P : O.Spec.Forbid)
    Forbid.push_back(P.Text);
  for (const contract::Pattern &P : O.Spec.Require)
    Require.push_back(P.Text);
  const bool CallFailed = V.What == Outcome::CallFailed;
  // Undecided: whatever the call came to (what it failed of is the note).
  const bool NotReturned = CallFailed || (V.What == Outcome::Undecided &&
                                          Run.Report.Call != tryload::CallState::Returned);
  json::Value Call = nullptr;
  if (O.Call) {
    json::Object C{{"returned", NotReturned ? json::Value(nullptr)
                                            : json::Value(Run.Report.CallStatus)},
                   {"problem", CallFailed    ? json::Value(V.Problem)
                               : NotReturned ? json::Value(Run.Report.Load == tryload::LoadState::Loaded
                                                               ? "it did not return (the note says why)"
                                                               : "not called (the note says why)")
                                             : json::Value(nullptr)}};
    putName(C, "symbol", *O.Call);
    Call = std::move(C);
  }
  bool Failed = V.What == Outcome::LoadFailed || V.What == Outcome::HideUnavailable ||
                V.What == Outcome::Incomplete || V.What == Outcome::Undecided;
  json::Object R{
      {"loader", Loader},
      {"mode", O.Lazy ? "lazy" : "now"},
      {"keepEnvironment", O.KeepEnv},
      {"removedFromEnvironment", strings(Removed)},
      {"traced", Run.Traced},
      {"contract", json::Object{{"forbid", std::move(Forbid)}, {"require", std::move(Require)}}},
      {"outcome", tryload::outcomeName(V.What)},
      {"problem", Failed ? json::Value(V.Problem) : json::Value(nullptr)},
      {"note", V.Note.empty() ? json::Value(nullptr) : json::Value(V.Note)},
      {"images", std::move(Images)},
      {"call", std::move(Call)},
      {"findings", imageFindingsRecord(V.Contract)},
      {"violations", static_cast<int64_t>(V.Contract.violations())},
      {"exitCode", Exit}};
  putName(R, "name", Name);
  R["container"] = containerToJSON(Source);
  putName(R, "library", Library);
  putNames(R, "hidden", Run.Report.Hidden);
  return R;
}

/// One line per fact, each "NAME: ...", findings as `check` prints them,
/// then a summary line.
void printRecord(raw_ostream &OS, const json::Object &R) {
  const std::string Name = printableName(R, "name");
  const std::string Outcome = str(R, "outcome");
  std::vector<std::string> Removed = stringsOf(R, "removedFromEnvironment");
  OS << Name << ": loader: " << printable(str(R, "loader")) << " ("
     << (str(R, "mode") == "lazy" ? "RTLD_LAZY" : "RTLD_NOW") << " | RTLD_LOCAL)\n";
  OS << Name << ": environment: "
     << (R.getBoolean("keepEnvironment").value_or(false) ? "kept as given (--keep-env)"
         : Removed.empty() ? "no loader variable to remove"
                           : "removed " + join(Removed, ", "))
     << "\n";
  for (const std::string &H : printableNames(R, "hidden"))
    OS << Name << ": hidden: " << H << "\n";
  if (Outcome == "load-failed" || Outcome == "hide-unavailable") {
    OS << Name << ": " << (Outcome == "load-failed" ? "load failed: " : "not loaded: ")
       << printable(str(R, "problem")) << "\n";
  } else {
    if (Outcome == "report-incomplete" || Outcome == "undecided")
      OS << Name << ": " << printable(str(R, "problem")) << "\n";
    // Undecided: the load may have failed too (its note says so).
    if (Outcome != "undecided" || !R.getArray("images")->empty())
      OS << Name << ": loaded " << printableName(R, "library") << "\n";
    for (const json::Value &V : *R.getArray("images")) {
      const json::Object &I = *V.getAsObject();
      OS << Name << ": image: " << str(I, "origin") << ": " << printableName(I, "path");
      if (!str(I, "realPath").empty() && printableName(I, "realPath") != printableName(I, "path"))
        OS << " -> " << printableName(I, "realPath");
      if (!str(I, "via").empty())
        OS << " (loaded by " << printableName(I, "via") << ")";
      OS << "\n";
    }
    if (const json::Object *C = R.getObject("call")) {
      if (std::optional<int64_t> Ret = C->getInteger("returned"))
        OS << Name << ": call " << printableName(*C, "symbol") << ": returned " << *Ret << "\n";
      else
        OS << Name << ": call " << printableName(*C, "symbol") << ": failed: "
           << printable(str(*C, "problem")) << "\n";
    }
  }
  if (!str(R, "note").empty())
    OS << Name << ": note: " << printable(str(R, "note")) << "\n";
  for (const json::Value &V : *R.getArray("findings")) {
    const json::Object &F = *V.getAsObject();
    OS << Name << ": " << coloured(str(F, "kind")) << ": " << printableName(F, "message");
    if (!str(F, "advice").empty())
      OS << "; " << printableName(F, "advice");
    OS << "\n";
  }
  int64_t Violations = R.getInteger("violations").value_or(0);
  OS << "linkguard try-load: " << R.getArray("images")->size() << " images mapped, "
     << Violations << " violation" << (Violations == 1 ? "" : "s") << ": "
     << coloured(Outcome) << "\n";
}

} // namespace

int runTryLoad(const std::vector<std::string> &Args) {
  Options O;
  if (std::optional<int> Stop = readOptions(Args, O))
    return *Stop;
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

  catchTerminatingSignals();
  // Made only for a member or an embedded image; removed as soon as the
  // library is mapped in the loader (or at the end, or on a signal).
  std::unique_ptr<tryload::PrivateDir> Dir;
  auto GetDir = [&]() -> Expected<const tryload::PrivateDir *> {
    if (!Dir) {
      auto Made = tryload::PrivateDir::create();
      if (!Made)
        return Made.takeError();
      Dir = std::move(*Made);
      CleanupDirFd = Dir->fd();
      remember(CleanupDir, HaveDir, Dir->path());
    }
    return Dir.get();
  };
  auto RemoveDir = [&] {
    HaveFile = HaveDir = 0;
    CleanupDirFd = -1; // closed below, and its number free for reuse
    Dir.reset();
  };
  auto Target = tryload::resolveTarget(O.File, O.Containers, GetDir, [](const std::string &P) {
    remember(CleanupFile, HaveFile, sys::path::filename(P).str());
  });
  auto fail = [&](Error E) {
    RemoveDir();
    Error Mapped = handleErrors(
        std::move(E),
        [](const tryload::AmbiguousTarget &A) {
          return makeDriverError(ExitCode::Usage, "try-load: " + A.message());
        },
        [](const tryload::CantCreate &C) {
          return makeDriverError(ExitCode::CantCreate, "try-load: " + C.message());
        },
        [](const tryload::SpawnError &S) {
          return makeDriverError(ExitCode::SpawnFailed, "try-load: " + S.message());
        });
    return reportError(std::move(Mapped));
  };
  if (!Target)
    return fail(Target.takeError());
  auto Facts = tryload::readLibraryFacts(Target->Library, /*WithMarkers=*/true);
  if (!Facts)
    return fail(Facts.takeError());
  if (!Facts->NotLoadableHere.empty())
    return fail(makeDriverError(
        ExitCode::NotLoadableHere,
        "try-load: " + Target->Name + " is " + Facts->NotLoadableHere +
            ": it cannot be loaded here; read its load commands instead: "
            "linkguard check --portable " + (Facts->MachO ? "--mps-aot " : "") +
            Target->Name));

  Req.Library = Target->Library;
  Req.Call = O.Call;
  Req.Hide = O.Hide;
  Req.KeepEnv = O.KeepEnv;
  Req.Lazy = O.Lazy;
  Req.TimeoutSeconds = O.TimeoutSeconds;
  std::vector<std::string> Env, Removed;
  for (char **E = environ; E && *E; ++E)
    Env.push_back(*E);
  Env = tryload::scrubEnvironment(Env, O.KeepEnv, Removed);

  auto Run = tryload::runLoader(
      Req, Env, [](pid_t P) { Child = P; },
      [&](const tryload::LoaderRun &R) {
        // dlopen has returned (or the library's own code stopped the
        // process): the file is mapped, its name no longer needed, so even
        // a SIGKILL from now on leaves nothing behind.
        if (Dir && !R.Stops.empty())
          for (const tryload::MappedFile &F : R.Stops.back().Files)
            if (F.sameFile(Facts->Major, Facts->Minor, Facts->Inode)) {
              RemoveDir();
              break;
            }
      });
  Child = 0;
  // The library is no longer needed: remove it before printing (a closed
  // stdout must not leave it behind).
  RemoveDir();
  if (!Run)
    return fail(Run.takeError());
  Facts->Name = Target->Name; // what brought an image in, as the user named it
  tryload::TryLoadVerdict Verdict = tryload::judgeRun(*Run, *Facts, O.Call, O.Spec);
  int Exit = exitCodeOf(Verdict.What);
  auto Out = makePrinter(O.Json, outs(), "linkguard-try-load/3", DocumentShape::Single,
                         {printRecord, nullptr});
  const std::optional<package::Image> &Source = Target->Source;
  Out->result(tryLoadRecord(O, Target->Name, Req.Library, Req.LoaderPath, Removed,
                            Source ? &*Source : nullptr, *Run, Verdict, Exit));
  Out->finish({});
  if (!Verdict.Problem.empty())
    errs() << "linkguard: error: "
           << printable("try-load: " + Target->Name + ": " + Verdict.Problem) << "\n";
  return Exit;
}

} // namespace linkguard::commands
