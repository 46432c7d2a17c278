//===- Classify.cpp - read one compiler command line ----------------------===//
//
// How clang 19 decides what a command does (clang/lib/Driver/Driver.cpp):
//
//  1. Immediate arguments (HandleImmediateArgs) are answered before any job
//     is built: --version, -dumpversion, -dumpmachine, -print-*, --help.
//     -### builds the jobs but runs none. -v with no inputs only prints the
//     version. With no inputs at all clang stops ("no input files").
//  2. getFinalPhase picks the last phase to run, in this precedence:
//     -E / -M / -MM -> preprocess; --precompile -> precompile;
//     -fsyntax-only (and friends) -> compile; -S -> backend; -c -> assemble;
//     otherwise link. The argument that decided is kept (FinalPhaseArg).
//  3. Each input runs its own type's pipeline up to that phase. A header's
//     pipeline ends at precompile, so "-x c++-header h.h -o h.gch" (or -c on
//     a header) writes a PCH and never links.
//  4. A link job exists when some input reaches the link phase: an object,
//     a source file, or a LinkerInput option (-l, -Wl,, -Xlinker, -z, -u,
//     -framework, ...), which BuildInputs treats as an object input.
//
// linkguard reproduces this with clang's own option table (so values of
// -MQ, -Xclang, -include, -sectcreate are never mistaken for flags or
// inputs) and its own table of option meanings (OptionEffects.h).
// tests/e2e/classify_differential.bash checks the result against
// `clang++-19 -###` on a corpus of real command lines.
//
//===----------------------------------------------------------------------===//
#include "flags/Classify.h"

#include "flags/ClangOptionTable.h"
#include "flags/OptionEffects.h"
#include "flags/ResponseFiles.h"

#include "clang/Driver/Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <array>

using namespace llvm;
using namespace llvm::opt;
namespace copts = clang::driver::options;

namespace linkguard::flags {

ObjectFormat hostObjectFormat() {
#if defined(__APPLE__)
  return ObjectFormat::MachO;
#else
  return ObjectFormat::ELF;
#endif
}

namespace {

//===--- Input types ------------------------------------------------------===//

// clang's types::lookupTypeForExtension (clang/lib/Driver/Types.cpp), with
// the type names of Types.def. Anything clang does not know is an object
// to it (a linker input); linkguard names archives and shared libraries
// separately because the rules care about them.
std::string typeForExtension(StringRef Path, bool DarwinTarget) {
  StringRef File = sys::path::filename(Path);
  // libfoo.so.1.2: a versioned ELF shared object.
  if (File.contains(".so."))
    return "shared";
  size_t Dot = File.rfind('.');
  if (Dot == StringRef::npos)
    return "object";
  StringRef Ext = File.substr(Dot + 1);
  return StringSwitch<std::string>(Ext)
      .Case("c", "c")
      .Cases("C", "cc", "CC", "cp", "cpp", "CPP", "c++", "C++", "c++")
      .Cases("cxx", "CXX", "c++")
      .Case("h", "c-header")
      .Cases("H", "hh", "hpp", "hxx", "c++-header")
      .Case("i", "cpp-output")
      .Case("ii", "c++-cpp-output")
      .Case("m", "objective-c")
      .Cases("M", "mm", "objective-c++")
      .Case("mi", "objective-c-cpp-output")
      .Case("mii", "objective-c++-cpp-output")
      // Darwin's toolchain preprocesses .s too
      // (Darwin::LookupTypeForExtension).
      .Case("s", DarwinTarget ? "assembler-with-cpp" : "assembler")
      .Cases("S", "sx", "assembler-with-cpp")
      .Cases("bc", "ll", "ir")
      .Case("cu", "cuda")
      .Case("cuh", "cuda-header")
      .Case("hip", "hip")
      .Case("cl", "cl")
      .Cases("cppm", "ixx", "cxxm", "c++m", "c++-module")
      .Case("pcm", "pcm")
      .Case("ifs", "ifs")
      .Case("hlsl", "hlsl")
      .Case("a", "archive")
      .Cases("so", "dylib", "shared")
      .Case("tbd", "tbd")
      .Default("object");
}

// types::lookupCXXTypeForCType: clang++ reads C inputs as C++.
std::string cxxTypeForCType(const std::string &Type) {
  return StringSwitch<std::string>(Type)
      .Case("c", "c++")
      .Case("cpp-output", "c++-cpp-output")
      .Case("c-header", "c++-header")
      .Default(Type);
}

// Types whose pipeline stops at precompile (types::getCompilationPhases).
bool isHeaderType(StringRef Type) {
  return StringSwitch<bool>(Type)
      .Cases("c-header", "c++-header", "objective-c-header",
             "objective-c++-header", true)
      .Cases("c-header-cpp-output", "c++-header-cpp-output",
             "objective-c-header-cpp-output", "objective-c++-header-cpp-output",
             true)
      .Cases("c++-header-unit-header", "c++-system-header", "c++-user-header",
             true)
      .Cases("cl-header", "cuda-header", true)
      .Default(false);
}

// Types BuildInputs treats as TY_Object: -ObjC/-ObjC++ leave them alone.
bool isLinkerType(StringRef Type) {
  return Type == "object" || Type == "archive" || Type == "shared" ||
         Type == "tbd";
}

//===--- Compiler names and targets ---------------------------------------===//

struct ProgramName {
  std::string TargetPrefix; // "arm64-apple-darwin" or ""
  bool CxxMode = false;     // clang++, g++, c++
  bool CppMode = false;     // clang-cpp, cpp: the preprocessor only
};

// clang's ToolChain::getTargetAndModeFromProgramName: strip the directory,
// ".exe" and a version suffix, find the driver suffix, and take what comes
// before the '-' in front of it as a target prefix.
ProgramName parseProgramName(StringRef Name) {
  ProgramName P;
  std::string Prog = sys::path::filename(Name).lower();
  StringRef S(Prog);
  S.consume_back(".exe");
  // "clang++-19", "clang-19", "clang++19": drop a trailing version.
  StringRef Trimmed = S.rtrim("0123456789.");
  if (Trimmed.size() != S.size())
    S = Trimmed.ends_with("-") ? Trimmed.drop_back() : Trimmed;

  struct Suffix {
    const char *Text;
    bool Cxx, Cpp;
  };
  // Longest first, as clang's DriverSuffixes are searched.
  static constexpr Suffix Suffixes[] = {
      {"clang-g++", true, false}, {"clang-c++", true, false},
      {"clang-cpp", false, true}, {"clang-gcc", false, false},
      {"clang-cc", false, false}, {"clang++", true, false},
      {"clang", false, false},    {"g++", true, false},
      {"c++", true, false},       {"gcc", false, false},
      {"cpp", false, true},       {"cc", false, false},
  };
  for (const Suffix &Suf : Suffixes) {
    if (!S.ends_with(Suf.Text))
      continue;
    size_t Pos = S.size() - strlen(Suf.Text);
    // The suffix must start the name or follow a '-'.
    if (Pos != 0 && S[Pos - 1] != '-')
      continue;
    P.CxxMode = Suf.Cxx;
    P.CppMode = Suf.Cpp;
    if (Pos > 1) {
      std::string Prefix = S.substr(0, Pos - 1).str();
      // clang accepts the prefix when a backend is registered for it;
      // linkguard links no backends, so "the triple names a known
      // architecture" stands in for that check ("linkguard-clang++" has no
      // target prefix, "arm64-apple-darwin-clang++" has one).
      if (Triple(Prefix).getArch() != Triple::UnknownArch)
        P.TargetPrefix = Prefix;
    }
    return P;
  }
  return P;
}

ObjectFormat formatOfTriple(const std::string &T) {
  Triple Tr(T);
  if (Tr.isOSBinFormatMachO())
    return ObjectFormat::MachO;
  if (Tr.isOSBinFormatELF())
    return ObjectFormat::ELF;
  return ObjectFormat::Unknown;
}

std::string hostTriple(const ClassifyOptions &Opts) {
  if (!Opts.HostTriple.empty())
    return Opts.HostTriple;
  std::string Default = sys::getDefaultTargetTriple();
  if (formatOfTriple(Default) == Opts.HostFormat)
    return Default;
  switch (Opts.HostFormat) {
  case ObjectFormat::MachO:
    return "arm64-apple-macos";
  case ObjectFormat::ELF:
    return "x86_64-unknown-linux-gnu";
  case ObjectFormat::Unknown:
    break;
  }
  return Default;
}

//===--- Argument processing state ----------------------------------------===//

struct PendingInput {
  std::string Path;
  std::string ExplicitType; // from the -x in force, "" for none
  std::string LanguageArg;  // that -x rendered ("-x c++-header")
};

// What the walk over the arguments saw, as ccache's ArgumentProcessingState.
using DefineIndexMap = llvm::StringMap<size_t, llvm::BumpPtrAllocator>;

struct State {
  const Arg *DryRun = nullptr;      // -###
  const Arg *FirstProbe = nullptr;  // --version, -print-*, ...
  const Arg *Verbose = nullptr;     // -v
  const Arg *EmitLlvm = nullptr;    // -emit-llvm
  // Effect of the last -shared / -dynamiclib / -bundle / -r.
  std::optional<Effect> LastKind;
  const Arg *LastTargetArg = nullptr;
  // Last argument per final-phase effect, indexed from Effect::Preprocess.
  std::array<const Arg *, 7> LastPhaseArg{};
  std::vector<PendingInput> Inputs;
  unsigned LinkerInputOptions = 0; // -l, -Wl,, -Xlinker, -z, -framework, ...
  // Position of each macro in Classification::Defines: a linear search per
  // -D made 200k defines (one @file) take minutes.
  // Bump-allocated: 100,000 entries are freed at once, not one by one.
  DefineIndexMap DefineIndex;
  bool ObjC = false, ObjCXX = false;
};

constexpr Effect PhaseEffects[] = {Effect::Preprocess,    Effect::Dependencies,
                                   Effect::Precompile,    Effect::CompileOnly,
                                   Effect::Backend,       Effect::Assemble,
                                   Effect::InterfaceStubs};

int phaseSlot(Effect E) {
  for (size_t I = 0; I < std::size(PhaseEffects); ++I)
    if (PhaseEffects[I] == E)
      return static_cast<int>(I);
  return -1;
}

Phase phaseOfEffect(Effect E) {
  switch (E) {
  case Effect::Preprocess:
  case Effect::Dependencies:
    return Phase::Preprocess;
  case Effect::Precompile:
    return Phase::Pch;
  default:
    return Phase::Compile;
  }
}

void addDefine(Classification &C, DefineIndexMap &Index, StringRef Value) {
  auto [RawName, Val] = Value.split('=');
  StringRef Name = RawName.trim();
  // -D'F(x)=x' defines the function-like macro F.
  Name = Name.take_until([](char Ch) { return Ch == '('; }).trim();
  if (Name.empty())
    return;
  std::string V = Value.contains('=') ? Val.str() : std::string();
  auto [It, Inserted] = Index.try_emplace(Name, C.Defines.size());
  if (Inserted)
    C.Defines.emplace_back(Name.str(), std::move(V));
  else
    C.Defines[It->second].second = std::move(V);
}

void removeDefine(Classification &C, DefineIndexMap &Index, StringRef Value) {
  StringRef Name = Value.trim();
  auto It = Index.find(Name);
  if (It == Index.end())
    return;
  size_t Pos = It->second;
  C.Defines.erase(C.Defines.begin() + static_cast<std::ptrdiff_t>(Pos));
  Index.erase(It);
  for (auto &Entry : Index)
    if (Entry.second > Pos)
      --Entry.second;
}

void addLibrary(Classification &C, StringRef Name, bool Needed) {
  if (Name.empty())
    return;
  C.Libraries.push_back(Name.str());
  if (Needed)
    C.NeededLibraries.push_back(Name.str());
}

// Libraries named in linker arguments the way ld64 spells them
// (-Wl,-needed-lfoo, -Xlinker -needed_library -Xlinker p, -Wl,-lfoo).
// ld64 keeps -needed-l / -needed_library / -needed_framework dylibs even
// under -dead_strip_dylibs, which is why "needed" is recorded.
void scanLinkerArgsForLibraries(Classification &C) {
  const std::vector<std::string> &L = C.LinkerArgs;
  for (size_t I = 0; I < L.size(); ++I) {
    StringRef A = L[I];
    bool HasNext = I + 1 < L.size();
    if (A.consume_front("-needed-l"))
      addLibrary(C, A, /*Needed=*/true);
    else if ((A == "-needed_library" || A == "-needed_framework") && HasNext)
      addLibrary(C, L[++I], /*Needed=*/true);
    else if (A.consume_front("-weak-l") || A.consume_front("-reexport-l") ||
             A.consume_front("-lazy-l"))
      addLibrary(C, A, /*Needed=*/false);
    else if (A.starts_with("-l") && A.size() > 2)
      addLibrary(C, A.drop_front(2), /*Needed=*/false);
  }
}

// One argument's contribution to the state (ccache's process_option_arg).
void processArg(const Arg &A, const ArgList &List, State &S, Classification &C,
                const Arg *&Language) {
  const Option &O = A.getOption();
  unsigned Id = O.getID();

  if (Id == copts::OPT_UNKNOWN) {
    std::string Spelling = A.getAsString(List);
    C.UnknownArgs.push_back(Spelling);
    // clang 19's driver has no -needed-l (ld64 has); record it anyway so a
    // rule can see the user's intent, while UnknownArgs makes rules decline.
    if (StringRef(Spelling).starts_with("-needed-l"))
      addLibrary(C, StringRef(Spelling).drop_front(strlen("-needed-l")), true);
    return;
  }
  if (Id == copts::OPT_INPUT) {
    PendingInput In;
    In.Path = A.getValue();
    if (Language) {
      In.ExplicitType = Language->getValue();
      In.LanguageArg = Language->getAsString(List);
    }
    S.Inputs.push_back(std::move(In));
    return;
  }
  if (O.hasFlag(copts::Unsupported)) {
    // clang: "unsupported option '-dumpspecs'"; nothing runs.
    C.UnknownArgs.push_back(A.getAsString(List));
    return;
  }
  if (O.hasFlag(copts::LinkerInput))
    ++S.LinkerInputOptions;

  std::optional<Effect> E = effectOf(Id);
  // Macros live in Defines and include paths matter to no rule; leaving
  // them out keeps a 100,000-define @file from rendering 100,000 strings.
  if (!(E && (*E == Effect::Define || *E == Effect::Undefine)) &&
      !O.matches(copts::OPT_I_Group))
    C.DriverFlags.push_back(A.getAsString(List));
  if (!E)
    return;
  if (int Slot = phaseSlot(*E); Slot >= 0) {
    S.LastPhaseArg[Slot] = &A;
    return;
  }
  switch (*E) {
  case Effect::DryRun:
    S.DryRun = &A;
    break;
  case Effect::Probe:
    if (!S.FirstProbe)
      S.FirstProbe = &A;
    break;
  case Effect::VerboseProbe:
    S.Verbose = &A;
    break;
  case Effect::EmitLlvm:
    S.EmitLlvm = &A;
    break;
  case Effect::SharedOutput:
  case Effect::BundleOutput:
  case Effect::RelocatableOutput:
    S.LastKind = E;
    break;
  case Effect::Output:
    C.Output = A.getValue();
    break;
  case Effect::Language:
    // "-x none" goes back to guessing from the extension.
    Language = StringRef(A.getValue()) == "none" ? nullptr : &A;
    break;
  case Effect::LanguageObjC:
    S.ObjC = true;
    break;
  case Effect::LanguageObjCXX:
    S.ObjCXX = true;
    break;
  case Effect::Define:
    addDefine(C, S.DefineIndex, A.getValue());
    break;
  case Effect::Undefine:
    removeDefine(C, S.DefineIndex, A.getValue());
    break;
  case Effect::Library:
  case Effect::WeakLibrary:
  case Effect::ReexportLibrary:
    addLibrary(C, A.getValue(), /*Needed=*/false);
    break;
  case Effect::LibraryDir:
    C.LibraryDirs.push_back(A.getValue());
    break;
  case Effect::LinkerCommaArgs:
    for (const char *V : A.getValues())
      C.LinkerArgs.push_back(V);
    break;
  case Effect::LinkerArg:
    C.LinkerArgs.push_back(A.getValue());
    break;
  case Effect::LinkerZ:
    C.LinkerArgs.push_back("-z");
    C.LinkerArgs.push_back(A.getValue());
    break;
  case Effect::Target:
    S.LastTargetArg = &A;
    break;
  case Effect::Arch:
    C.Target.Archs.push_back(A.getValue());
    break;
  default:
    break;
  }
}

TargetInfo decideTarget(const State &S, const ProgramName &Prog,
                        const ClassifyOptions &Opts,
                        std::vector<std::string> Archs) {
  TargetInfo T;
  T.Archs = std::move(Archs);
  bool PrefixIsApple =
      !Prog.TargetPrefix.empty() && Triple(Prog.TargetPrefix).isOSDarwin();
  if (S.LastTargetArg) {
    // --target= and -target: the last one wins, as for any joined option.
    T.Triple = S.LastTargetArg->getValue();
    T.Source = TargetSource::TargetFlag;
  } else if (!T.Archs.empty() &&
             (Opts.HostFormat == ObjectFormat::MachO || PrefixIsApple)) {
    // -arch is Darwin's spelling; clang only honours it for Darwin targets.
    // With several -arch the driver builds one link per arch and lipo's them:
    // the first stands for all, the format is the same.
    std::string Rest = "apple-macos";
    if (PrefixIsApple) {
      Triple P(Prog.TargetPrefix);
      Rest = (P.getVendorName() + "-" + P.getOSAndEnvironmentName()).str();
    }
    T.Triple = T.Archs.front() + "-" + Rest;
    T.Source = TargetSource::Arch;
  } else if (!Prog.TargetPrefix.empty()) {
    T.Triple = Prog.TargetPrefix;
    T.Source = TargetSource::CompilerName;
  } else {
    T.Triple = hostTriple(Opts);
    T.Source = TargetSource::Host;
  }
  T.Format = T.Source == TargetSource::Host ? Opts.HostFormat
                                            : formatOfTriple(T.Triple);
  return T;
}

std::vector<Input> resolveInputs(const State &S, const ProgramName &Prog,
                                 bool Darwin) {
  std::vector<Input> Out;
  for (const PendingInput &P : S.Inputs) {
    Input In;
    In.Path = P.Path;
    In.IsStdin = P.Path == "-";
    if (!P.ExplicitType.empty()) {
      In.Type = P.ExplicitType;
    } else if (In.IsStdin) {
      // clang: C without -x (and an error unless -E).
      In.Type = "c";
    } else {
      In.Type = typeForExtension(P.Path, Darwin);
      if (Prog.CxxMode)
        In.Type = cxxTypeForCType(In.Type);
      if (!isLinkerType(In.Type) && S.ObjC)
        In.Type = "objective-c";
      else if (!isLinkerType(In.Type) && S.ObjCXX)
        In.Type = "objective-c++";
    }
    Out.push_back(std::move(In));
  }
  return Out;
}

} // namespace

std::string targetPrefixOfCompilerName(StringRef CompilerName) {
  return parseProgramName(CompilerName).TargetPrefix;
}

Expected<Classification> classify(ArrayRef<std::string> RawArgs,
                                  const ClassifyOptions &Opts) {
  Classification C;

  // 1. Response files, for reading only.
  std::vector<std::string> Expanded;
  std::vector<std::string> MissingFiles;
  bool HasAt =
      std::any_of(RawArgs.begin(), RawArgs.end(), [](const std::string &A) {
        return A.size() > 1 && A[0] == '@';
      });
  ArrayRef<std::string> Args = RawArgs;
  if (HasAt) {
    Expected<ExpandedArgs> E = expandResponseFiles(RawArgs, Opts.WorkingDir);
    if (!E)
      return E.takeError();
    Expanded = std::move(E->Args);
    C.ResponseFiles = std::move(E->Files);
    MissingFiles = std::move(E->Missing);
    // An @file linkguard must not read: the command is only partly known.
    for (const UnreadResponseFile &U : E->Unread)
      C.UnknownArgs.push_back("@" + U.Name + " (" + U.Reason + ")");
    Args = Expanded;
  }

  // 2. Parse with clang's own table.
  std::vector<const char *> Argv;
  Argv.reserve(Args.size());
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  InputArgList List = clangOptTable().ParseArgs(
      Argv, MissingIndex, MissingCount, clangDriverVisibility());
  if (MissingCount)
    // clang fails with "argument to '-o' is missing"; rules must decline.
    C.UnknownArgs.push_back(std::string(List.getArgString(MissingIndex)) +
                            " (missing value)");

  // 3. Walk every argument in order.
  State S;
  const Arg *Language = nullptr;
  for (const Arg *A : List) {
    // "@name" with no file `name` that clang would open as an input.
    if (A->getOption().getID() == copts::OPT_INPUT &&
        StringRef(A->getValue()).starts_with("@") &&
        llvm::is_contained(MissingFiles, A->getValue() + 1))
      return make_error<ResponseFileError>(A->getValue() + 1,
                                           "No such file or directory");
    processArg(*A, List, S, C, Language);
  }
  scanLinkerArgsForLibraries(C);

  ProgramName Prog = parseProgramName(Opts.CompilerName);
  C.Target = decideTarget(S, Prog, Opts, std::move(C.Target.Archs));
  bool Darwin = C.Target.Format == ObjectFormat::MachO;
  C.Inputs = resolveInputs(S, Prog, Darwin);

  // 4. Decide the phase.
  auto decide = [&](Phase P, std::string Why) {
    C.Ph = P;
    C.DecidingArg = std::move(Why);
  };
  auto spelled = [&](const Arg *A) { return A->getAsString(List); };

  size_t Headers = 0;
  const Input *FirstHeader = nullptr;
  std::string HeaderLanguageArg;
  for (size_t I = 0; I < C.Inputs.size(); ++I) {
    if (!isHeaderType(C.Inputs[I].Type))
      continue;
    if (!FirstHeader) {
      FirstHeader = &C.Inputs[I];
      HeaderLanguageArg = S.Inputs[I].LanguageArg;
    }
    ++Headers;
  }
  auto headerReason = [&] {
    return !HeaderLanguageArg.empty()
               ? HeaderLanguageArg
               : FirstHeader->Path + " (" + FirstHeader->Type + ")";
  };
  bool OnlyHeaders =
      Headers > 0 && Headers == C.Inputs.size() && S.LinkerInputOptions == 0;
  size_t LinkInputs = C.Inputs.size() - Headers + S.LinkerInputOptions;

  const Arg *PhaseArg = nullptr;
  Effect PhaseEffect = Effect::Assemble;
  for (size_t I = 0; I < std::size(PhaseEffects) && !PhaseArg; ++I)
    if (S.LastPhaseArg[I]) {
      PhaseArg = S.LastPhaseArg[I];
      PhaseEffect = PhaseEffects[I];
    }

  if (S.DryRun) {
    decide(Phase::Probe, spelled(S.DryRun));
  } else if (S.FirstProbe) {
    decide(Phase::Probe, spelled(S.FirstProbe));
  } else if (C.Inputs.empty() && S.LinkerInputOptions == 0) {
    decide(Phase::Probe, S.Verbose ? spelled(S.Verbose) : "(no inputs)");
  } else if (Prog.CppMode) {
    decide(Phase::Preprocess, "(cpp mode: " + Opts.CompilerName + ")");
  } else if (PhaseArg) {
    Phase P = phaseOfEffect(PhaseEffect);
    // -c or -S on nothing but headers writes a PCH (the header pipeline
    // ends at precompile); -fsyntax-only on a header only checks it.
    if ((PhaseEffect == Effect::Assemble || PhaseEffect == Effect::Backend) &&
        OnlyHeaders)
      decide(Phase::Pch, headerReason());
    else
      decide(P, spelled(PhaseArg));
  } else if (Headers > 0 && (LinkInputs == 0 || C.Output)) {
    // Only headers: a PCH. Headers plus linkable inputs would make two
    // outputs, which clang rejects when -o names one ("cannot specify -o
    // when generating multiple output files"): nothing links.
    decide(Phase::Pch, headerReason());
  } else if (S.EmitLlvm) {
    // clang 19: "-emit-llvm cannot be used when linking".
    decide(Phase::Compile, spelled(S.EmitLlvm));
  } else {
    decide(Phase::Link, "(default)");
  }

  if (C.Ph == Phase::Link) {
    C.Kind = OutputKind::Executable;
    if (S.LastKind) {
      switch (*S.LastKind) {
      case Effect::SharedOutput:
        C.Kind = OutputKind::SharedLibrary;
        break;
      case Effect::BundleOutput:
        C.Kind = OutputKind::Bundle;
        break;
      case Effect::RelocatableOutput:
        C.Kind = OutputKind::Relocatable;
        break;
      default:
        break;
      }
    }
  }
  return C;
}

} // namespace linkguard::flags
