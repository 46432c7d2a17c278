//===- Classify.cpp - read one compiler command line ----------------------===//
//
// How clang 19 decides what a command does (clang/lib/Driver/Driver.cpp):
//
//  1. Immediate arguments (HandleImmediateArgs) are answered before any job
//     is built: --version, -dumpversion, -dumpmachine, -print-*, --help.
//     -###, -ccc-print-phases, -ccc-print-bindings and -fdriver-only build
//     the jobs but run none. -v with no inputs only prints the version. With
//     no inputs at all clang stops ("no input files").
//  2. getFinalPhase picks the last phase to run, in this precedence:
//     -E / -M / -MM -> preprocess; --precompile -> precompile;
//     -fsyntax-only (and friends) -> compile; -S -> backend; -c -> assemble;
//     otherwise link. The argument that decided is kept (FinalPhaseArg).
//  3. Each input runs its own type's pipeline up to that phase (Types.def,
//     flags/InputTypes.h). A header's pipeline ends at precompile, so
//     "-x c++-header h.h -o h.gch" (or -c on a header) writes a PCH and never
//     links.
//  4. A link job exists when some input reaches the link phase: an object,
//     a source file, or a LinkerInput option (-l, -Wl,, -Xlinker, -z, -u,
//     -framework, ...), which BuildInputs treats as an object input. Every
//     word after "--" is an input.
//
// linkguard reproduces this with clang's own option table (so values of
// -MQ, -Xclang, -include, -sectcreate are never mistaken for flags or
// inputs) and its own table of option meanings (OptionEffects.h); what the
// linker arguments mean comes from flags/LinkerArgs.h.
// tests/e2e/classify_differential.bash checks the result against
// `clang++-19 -###` on a corpus of real command lines.
//
//===----------------------------------------------------------------------===//
#include "flags/Classify.h"

#include "flags/ClangArgParser.h"
#include "flags/ClassifyState.h"
#include "flags/InputTypes.h"
#include "flags/LinkerArgs.h"
#include "flags/ProgramName.h"
#include "flags/ResponseFiles.h"

#include "clang/Driver/Options.h"

#include "llvm/Option/ArgList.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;
using namespace llvm::opt;
namespace copts = clang::driver::options;

namespace linkguard::flags {

namespace {

/// The arguments to parse, as C strings into RawArgs or, when the command
/// names @files, into Expanded (which owns them), with where each of
/// RawArgs begins among them (Expanded.Starts).
struct ReadArgs {
  ArgVector Argv;
  ExpandedArgs Expanded;
  bool UsesExpansion = false;

  /// The index in RawArgs of the argument Argv[Index] came from.
  size_t originOf(size_t Index) const {
    if (!UsesExpansion)
      return Index;
    const std::vector<size_t> &S = Expanded.Starts;
    return static_cast<size_t>(std::upper_bound(S.begin(), S.end(), Index) - S.begin()) - 1;
  }
};

bool isResponseFileArg(const std::string &A) { return A.size() > 1 && A[0] == '@'; }

/// Path read the way the process sees it: relative to Opts.WorkingDir when
/// that is set.
std::string inWorkingDir(const ClassifyOptions &Opts, StringRef Path) {
  if (Opts.WorkingDir.empty() || sys::path::is_absolute(Path))
    return Path.str();
  SmallString<256> P(Opts.WorkingDir);
  sys::path::append(P, Path);
  return std::string(P);
}

Error readArguments(ArrayRef<std::string> Raw, const ClassifyOptions &Opts,
                    Classification &C, ReadArgs &Out) {
  Out.UsesExpansion = std::any_of(Raw.begin(), Raw.end(), isResponseFileArg);
  if (!Out.UsesExpansion) {
    Out.Argv.reserve(Raw.size());
    for (const std::string &A : Raw)
      Out.Argv.push_back(A.c_str());
    return Error::success();
  }
  Expected<ExpandedArgs> E = expandResponseFiles(Raw, Opts.WorkingDir);
  if (!E)
    return E.takeError();
  Out.Expanded = std::move(*E);
  // The words stay in Expanded.Storage; the vector of pointers is handed on.
  Out.Argv = std::move(Out.Expanded.Args);
  C.ResponseFiles = Out.Expanded.Files;
  // An @file linkguard must not read: the command is only partly known.
  for (const UnreadResponseFile &U : Out.Expanded.Unread)
    C.UnknownArgs.push_back("@" + U.Name + " (" + U.Reason + ")");
  return Error::success();
}

/// The linker's own @files, expanded in place so their -o and libraries
/// count where the linker reads them. The linker runs in -working-directory
/// and resolves them there. As ld64 and lld do, an @name with no such file
/// stays a plain argument (-Wl,-rpath,@loader_path); one that is not a
/// regular file (a pipe, a device) is never opened: the linker reads it, so
/// linkguard cannot, and the command is uncertain.
void expandLinkerResponseFiles(Classification &C, const ClassifyOptions &Opts) {
  if (std::none_of(C.LinkerArgs.begin(), C.LinkerArgs.end(), isResponseFileArg))
    return;
  std::string Dir = Opts.WorkingDir;
  if (C.WorkingDirectory)
    Dir = inWorkingDir(Opts, *C.WorkingDirectory);
  std::vector<std::string> Out;
  for (std::string &A : C.LinkerArgs) {
    if (!isResponseFileArg(A)) {
      Out.push_back(std::move(A));
      continue;
    }
    SmallString<256> Path(A.substr(1));
    if (!Dir.empty() && !sys::path::is_absolute(Path)) {
      Path = Dir;
      sys::path::append(Path, A.substr(1));
    }
    sys::fs::file_status St;
    if (sys::fs::status(Path, St) || !sys::fs::exists(St)) {
      Out.push_back(std::move(A));
      continue;
    }
    Expected<ExpandedArgs> E =
        St.type() == sys::fs::file_type::regular_file
            ? expandResponseFiles({"@" + std::string(Path)}, Dir)
            : Expected<ExpandedArgs>(make_error<ResponseFileError>(
                  std::string(Path), "not a regular file (linkguard never reads one)"));
    if (!E) {
      C.Uncertain.push_back("the linker reads " + A + ", which linkguard cannot: " +
                            toString(E.takeError()));
      Out.push_back(std::move(A));
      continue;
    }
    Out.insert(Out.end(), E->Args.begin(), E->Args.end());
  }
  C.LinkerArgs = std::move(Out);
}

/// The libraries the linker arguments name, and where the linker writes.
LinkerFacts readLinkerArgs(Classification &C) {
  LinkerFacts Facts = scanLinkerArgs(C.LinkerArgs, C.Target.Format);
  for (const LinkerLibrary &L : Facts.Libraries)
    addLibrary(C, L.Name);
  return Facts;
}

void decideLinkOutput(Classification &C, const LinkerFacts &Facts) {
  LinkOutput &O = C.Link;
  if (!C.Uncertain.empty()) {
    O.Unknown = C.Uncertain.front();
    return;
  }
  if (!Facts.OutputAmbiguity.empty()) {
    O.Unknown = Facts.OutputAmbiguity;
    return;
  }
  if (Facts.Output) {
    O.Path = *Facts.Output;
    O.Source = "linker -o";
  } else if (C.Output) {
    O.Path = *C.Output;
    O.Source = "-o";
  } else {
    O.Path = "a.out";
    O.Source = "default";
  }
  if (O.Path == "-") {
    O.Unknown = "-o - writes the output to standard output";
    O.Path.clear();
    return;
  }
  // clang runs the linker in the -working-directory (checked with
  // clang++-19: "-working-directory D ... -o out" writes D/out).
  if (C.WorkingDirectory && !sys::path::is_absolute(O.Path)) {
    SmallString<256> P(*C.WorkingDirectory);
    sys::path::append(P, O.Path);
    O.Path = std::string(P);
  }
}

} // namespace

Expected<Classification> classify(ArrayRef<std::string> RawArgs,
                                  const ClassifyOptions &Opts) {
  Classification C;
  C.FirstLibraryArg = RawArgs.size();
  C.EndOfOptions = RawArgs.size();

  // 1. Response files, for reading only.
  ReadArgs Read;
  if (Error E = readArguments(RawArgs, Opts, C, Read))
    return std::move(E);

  // 2. Parse with clang's own table.
  unsigned MissingIndex = 0, MissingCount = 0;
  ParsedArgs Parsed = parseClangArgs(Read.Argv, MissingIndex, MissingCount, needsOnlyValue,
                                     Opts.ParseShortcutThreshold);
  const ArgList &List = Parsed.List;
  if (MissingCount)
    // clang fails with "argument to '-o' is missing"; rules must decline.
    C.UnknownArgs.push_back(std::string(List.getArgString(MissingIndex)) +
                            " (missing value)");

  // 3. Walk every argument in order.
  State S;
  S.AssumeKnown = &Opts.AssumeKnown;
  // Only the macros the caller's rules read; or room for every macro up
  // front: growing a 100,000-define table step by step copies it (and
  // faults fresh pages in) about twenty times.
  if (Opts.MacrosRead) {
    S.Macros.track(*Opts.MacrosRead);
  } else {
    auto DefineArgs = List.filtered(copts::OPT_D);
    if (size_t Defines = std::distance(DefineArgs.begin(), DefineArgs.end()) + Parsed.Light.size();
        Defines > 64)
      S.Macros.reserve(Defines);
  }
  // The light arguments (-D, -U, -I parsed without an Arg) take their place
  // in the order.
  size_t NextLight = 0;
  auto walkLightBefore = [&](unsigned Index) {
    for (; NextLight < Parsed.Light.size() && Parsed.Light[NextLight].Index < Index; ++NextLight)
      processLightArg(Parsed.optionId(Parsed.Light[NextLight]),
                      Parsed.value(Parsed.Light[NextLight]), S, C);
  };
  for (const Arg *A : List) {
    walkLightBefore(A->getIndex());
    // "@name" with no file `name` is an input named "@name" to clang: a real
    // file of that name links; none is clang's own error ("no such file or
    // directory"), which linkguard lets clang report.
    if (A->getOption().getID() == copts::OPT_INPUT &&
        StringRef(A->getValue()).starts_with("@") &&
        llvm::is_contained(Read.Expanded.Missing, A->getValue() + 1) &&
        !sys::fs::exists(inWorkingDir(Opts, A->getValue()))) {
      C.UnknownArgs.push_back(std::string(A->getValue()) + " (no such file)");
      continue;
    }
    processArg(*A, List, S, C);
    size_t Origin = Read.originOf(A->getIndex());
    if (S.BringsLibrary && Origin < C.FirstLibraryArg)
      C.FirstLibraryArg = Origin;
    if (A->getOption().getID() == copts::OPT__DASH_DASH)
      C.EndOfOptions = std::min(C.EndOfOptions, Origin);
  }
  walkLightBefore(~0u);
  C.Defines = S.Macros.finish();
  if (S.WindowsQuoting && !C.ResponseFiles.empty())
    C.Uncertain.push_back("--rsp-quoting=windows changes how clang splits " +
                          C.ResponseFiles.front());
  if (!Opts.OverrideOptions.empty())
    C.Uncertain.push_back("CCC_OVERRIDE_OPTIONS='" + Opts.OverrideOptions +
                          "' edits the command before clang reads it");

  ProgramName Prog = applyDriverMode(S, parseProgramName(Opts.CompilerName), C);
  C.Target = decideTarget(S, Prog, Opts, std::move(C.Target.Archs));
  bool Darwin = C.Target.Format == ObjectFormat::MachO;
  C.Inputs = resolveInputs(S, Prog, Darwin);
  decidePhase(S, List, Prog, Opts, C);

  if (C.Ph == Phase::Link) {
    expandLinkerResponseFiles(C, Opts);
    LinkerFacts Facts = readLinkerArgs(C);
    decideLinkOutput(C, Facts);
  } else {
    readLinkerArgs(C);
  }
  return C;
}

} // namespace linkguard::flags
