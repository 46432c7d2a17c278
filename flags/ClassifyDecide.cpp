//===- ClassifyDecide.cpp - target, inputs and phase from the walk ---------===//
#include "flags/ClassifyState.h"

#include "flags/InputTypes.h"

#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace llvm::opt;

namespace linkguard::flags {

ObjectFormat hostObjectFormat() {
#if defined(__APPLE__)
  return ObjectFormat::MachO;
#else
  return ObjectFormat::ELF;
#endif
}

namespace {

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

// Final-phase effects in getFinalPhase's precedence; the order matches
// State::LastPhaseArg (ClassifyWalk.cpp).
constexpr Effect PhaseEffects[] = {Effect::Preprocess,  Effect::Dependencies,
                                   Effect::Precompile,  Effect::CompileOnly,
                                   Effect::Backend,     Effect::Assemble,
                                   Effect::InterfaceStubs};

Phase phaseOfEffect(Effect E) {
  if (E == Effect::Preprocess || E == Effect::Dependencies)
    return Phase::Preprocess;
  return E == Effect::Precompile ? Phase::Pch : Phase::Compile;
}

OutputKind linkOutputKind(const State &S) {
  if (!S.LastKind)
    return OutputKind::Executable;
  switch (*S.LastKind) {
  case Effect::SharedOutput:
    return OutputKind::SharedLibrary;
  case Effect::BundleOutput:
    return OutputKind::Bundle;
  case Effect::RelocatableOutput:
    return OutputKind::Relocatable;
  default:
    return OutputKind::Executable;
  }
}

} // namespace

TargetInfo decideTarget(const State &S, const ProgramName &Prog,
                        const ClassifyOptions &Opts, std::vector<std::string> Archs) {
  TargetInfo T;
  T.Archs = std::move(Archs);
  bool PrefixIsApple = !Prog.TargetPrefix.empty() && Triple(Prog.TargetPrefix).isOSDarwin();
  if (S.LastTargetArg) {
    // --target= and -target: the last one wins, as for any joined option.
    T.Triple = S.LastTargetArg->getValue();
    T.Source = TargetSource::TargetFlag;
  } else if (!T.Archs.empty() && (Opts.HostFormat == ObjectFormat::MachO || PrefixIsApple)) {
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
  T.Format = T.Source == TargetSource::Host ? Opts.HostFormat : formatOfTriple(T.Triple);
  return T;
}

std::vector<Input> resolveInputs(const State &S, const ProgramName &Prog, bool Darwin) {
  std::vector<Input> Out;
  Out.reserve(S.Inputs.size());
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
      if (!isLinkerInputType(In.Type) && S.ObjC)
        In.Type = "objective-c";
      else if (!isLinkerInputType(In.Type) && S.ObjCXX)
        In.Type = "objective-c++";
    }
    Out.push_back(std::move(In));
  }
  return Out;
}

ProgramName applyDriverMode(const State &S, ProgramName Prog, Classification &C) {
  if (S.DriverMode.empty())
    return Prog;
  // Driver::setDriverMode: gcc, g++, cpp, cl, flang, dxc.
  if (S.DriverMode == "cpp") {
    Prog.CppMode = true;
  } else if (S.DriverMode == "g++" || S.DriverMode == "gcc") {
    Prog.CppMode = false;
    Prog.CxxMode = S.DriverMode == "g++";
  } else {
    C.Uncertain.push_back("--driver-mode=" + S.DriverMode +
                          " reads another command-line syntax");
  }
  return Prog;
}

void decidePhase(const State &S, const ArgList &List, const ProgramName &Prog,
                 const ClassifyOptions &Opts, Classification &C) {
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
    return !HeaderLanguageArg.empty() ? HeaderLanguageArg
                                      : FirstHeader->Path + " (" + FirstHeader->Type + ")";
  };
  bool OnlyHeaders = Headers > 0 && Headers == C.Inputs.size() && S.LinkerInputOptions == 0;
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
    // -c or -S on nothing but headers writes a PCH (the header pipeline
    // ends at precompile); -fsyntax-only on a header only checks it.
    if ((PhaseEffect == Effect::Assemble || PhaseEffect == Effect::Backend) && OnlyHeaders)
      decide(Phase::Pch, headerReason());
    else
      decide(phaseOfEffect(PhaseEffect), spelled(PhaseArg));
  } else if (Headers > 0 && (LinkInputs == 0 || C.Output)) {
    // Only headers: a PCH. Headers plus linkable inputs would make two
    // outputs, which clang rejects when -o names one ("cannot specify -o
    // when generating multiple output files"): nothing links.
    decide(Phase::Pch, headerReason());
  } else if (S.EmitLlvm) {
    // clang 19: "-emit-llvm cannot be used when linking".
    decide(Phase::Compile, spelled(S.EmitLlvm));
  } else if (S.StaticLib) {
    // clang runs the static-library tool (libtool -static, llvm-ar), never
    // the linker (checked with clang++-19 -###).
    decide(Phase::Archive, spelled(S.StaticLib));
  } else {
    decide(Phase::Link, "(default)");
  }
  C.Kind = C.Ph == Phase::Link ? linkOutputKind(S) : OutputKind::None;
}

} // namespace linkguard::flags
