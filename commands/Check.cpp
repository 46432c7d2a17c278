//===- Check.cpp - `linkguard check FILE... [contract]` --------------------===//
//
// A dependency contract for CI, judged by the same contract::judge the
// driver runs after a link (one implementation, two entry points). Options
// fill one ContractSpec; each file is read with objlib, judged, described
// once (checkRecord) and printed: one text line per finding ("FILE[
// (arch)]: violation|kept|unknown: message") and a summary line, or one JSON
// document (docs/check.md). Every file is tried. Exit status: 0 the
// contract holds for every file, 1 a violation, 64 usage, and when a file
// cannot be read the first such file's code (65, 66), which wins over 1: a
// contract that could not be checked did not hold.
//
//===----------------------------------------------------------------------===//
#include "commands/Commands.h"

#include "commands/CommandLine.h"
#include "commands/Contracts.h"
#include "commands/Inputs.h"
#include "commands/Printer.h"
#include "config/RulesFile.h"
#include "driver/ExitCode.h"
#include "driver/Plan.h"
#include "flags/BuiltinRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace linkguard::commands {

namespace {

const CommandSpec Spec = {
    "check", CheckVis, "linkguard check [options] FILE...",
    "Judges the dependencies of Mach-O (thin or universal) and ELF files against a\n"
    "contract. The driver verifies its links with the same code. A zip archive (.pt2,\n"
    "wheel) is a container: each Mach-O or ELF member is judged as\n"
    "PKG!path/in/archive, and the archive is what ships (--portable). A pattern is a\n"
    "glob on the install name / DT_NEEDED string or on its file name, or a group:\n"
    "openmp (libomp, libiomp5, libgomp in every spelling) or libsystem.",
    "Text output: one line per finding, \"FILE[ (arch, ...)]: violation|kept|unknown:\n"
    "message\" (one line for a dependency that breaks several rules, naming the\n"
    "others after \"also:\"); a file or member without findings: \"FILE: holds\"; then\n"
    "a summary line (--quiet: the summary line alone). Every name printed is\n"
    "accepted back as FILE: PKG!member (quote it in an interactive shell: '!' is\n"
    "history expansion there; or write PKG/member), FILE@0xOFFSET.\n"
    "\n"
    "EXIT STATUS: 0 holds, 1 violation, 64 usage, 65 malformed file (also a damaged or\n"
    "lying zip, a container with no image), 66 missing or unreadable file (a file\n"
    "error wins over 1).\n",
    "no input file"};

struct Totals {
  int64_t Files = 0, Violations = 0, Kept = 0, Unknown = 0, Errors = 0;
};

/// The contract and portability options, or the exit status of a usage
/// error. Reads --system-list and makes the bundle root absolute (paths are
/// compared lexically).
std::optional<int> contractFrom(const opt::InputArgList &A, contract::ContractSpec &Spec_) {
  if (std::optional<int> Stop = addPatterns(Spec, A, Spec_))
    return Stop;
  Spec_.FailOnUnused = A.hasArg(OPT_unused);
  if (A.hasArg(OPT_mps_aot)) {
    contract::ContractSpec Mps = driver::mpsAotContract();
    Spec_.ForbidUnreferenced.insert(Spec_.ForbidUnreferenced.end(),
                                    Mps.ForbidUnreferenced.begin(), Mps.ForbidUnreferenced.end());
    Spec_.Require.insert(Spec_.Require.end(), Mps.Require.begin(), Mps.Require.end());
    Spec_.RequireOnlyForMachO = Mps.RequireOnlyForMachO;
  }
  const unsigned PortabilityOnly[] = {OPT_bundle_root_EQ, OPT_search_EQ, OPT_provided_EQ,
                                      OPT_system_list_EQ};
  if (!A.hasArg(OPT_portable)) {
    if (const opt::Arg *Extra = A.getLastArg(PortabilityOnly[0], PortabilityOnly[1],
                                             PortabilityOnly[2], PortabilityOnly[3]))
      return usageError(Spec, optionName(Extra) + " needs --portable");
    return std::nullopt;
  }
  contract::PortabilityOptions P;
  if (const opt::Arg *Root = A.getLastArg(OPT_bundle_root_EQ)) {
    if (!sys::fs::is_directory(Root->getValue())) {
      errs() << "linkguard: error: check: --bundle-root " << Root->getValue()
             << ": no such directory\n";
      return driver::toInt(driver::ExitCode::UnreadableInput);
    }
    P.BundleRoot = absolutePath(Root->getValue());
  }
  for (const std::string &D : A.getAllArgValues(OPT_search_EQ))
    P.SearchDirs.push_back(D);
  if (std::optional<int> Stop = patternsOf(Spec, A, OPT_provided_EQ, P.Provided))
    return Stop;
  if (const opt::Arg *List = A.getLastArg(OPT_system_list_EQ)) {
    auto Buf = MemoryBuffer::getFile(List->getValue(), /*IsText=*/true);
    if (!Buf) {
      errs() << "linkguard: error: check: --system-list " << List->getValue() << ": "
             << Buf.getError().message() << "\n";
      return driver::toInt(driver::ExitCode::UnreadableInput);
    }
    P.SystemList = contract::parseSystemList((*Buf)->getBuffer());
    for (const contract::Pattern &Pat : P.SystemList)
      if (Error E = contract::validatePattern(Pat.Text))
        return usageError(Spec, "--system-list " + std::string(List->getValue()) + ": " +
                                    toString(std::move(E)));
  }
  Spec_.Portable = std::move(P);
  return std::nullopt;
}

/// The flags a rule adds, as one string.
std::string joined(const std::vector<std::string> &Flags) {
  std::string Out;
  for (const std::string &F : Flags)
    Out += (Out.empty() ? "" : " ") + F;
  return Out;
}

/// The flag that drops an unreferenced dependency of a file in Fmt, from
/// the rules linkguard ships: the built-in MPS rule (Mach-O) and the ELF
/// rule of examples/linkguard.toml, compiled in as text.
std::string dropFlagFor(objlib::Format Fmt) {
  if (Fmt == objlib::Format::MachO)
    return joined(flags::mpsAotRuleSpec().Add);
  static const std::string Elf = [] {
    static constexpr char Text[] =
#include "commands/ExampleRules.inc"
        ;
    auto File = config::parseRulesText(Text, "examples/linkguard.toml");
    if (!File) {
      consumeError(File.takeError());
      return std::string();
    }
    for (const flags::RuleSpec &R : File->Rules)
      if (R.Match.Format == flags::ObjectFormat::ELF && !R.Contract.ForbidUnreferenced.empty())
        return joined(R.Add);
    return std::string();
  }();
  return Elf;
}

json::Object checkRecord(const std::string &Path, objlib::BinaryInfo &Info,
                         const package::Image *Source, const contract::ContractSpec &Given,
                         const contract::FileProbe &Exists, Totals &T) {
  contract::ContractSpec Spec_ = Given;
  contract::FileProbe Probe = Exists;
  if (Source) {
    ContainerPlacement CP = placeInContainer(*Source, Info, Exists);
    if (Spec_.Portable)
      Spec_.Portable->BundleRoot = CP.BundleRoot;
    Probe = std::move(CP.Exists);
  } else {
    // Portability compares paths lexically: anchor this one at the cwd.
    Info.Path = absolutePath(Path);
  }
  if (Spec_.DropFlag.empty())
    Spec_.DropFlag = dropFlagFor(Info.Fmt);
  contract::Verdict V = contract::judge(Info, Spec_, Probe);
  json::Array Arches, Placements;
  for (const objlib::Slice &S : Info.Slices)
    Arches.push_back(S.Arch);
  for (const contract::Finding &F : V.Findings) {
    T.Violations += F.Kind == contract::FindingKind::Violation;
    T.Kept += F.Kind == contract::FindingKind::Kept;
    T.Unknown += F.Kind == contract::FindingKind::Unknown;
  }
  if (Spec_.Portable)
    for (const contract::DependencyPlacement &P :
         contract::placeDependencies(Info, *Spec_.Portable, Probe))
      Placements.push_back(placementRecord(P));
  json::Object R{{"format", Info.Fmt == objlib::Format::MachO ? "mach-o" : "elf"},
                      {"slices", std::move(Arches)},
                      {"holds", V.ok()},
                      {"container", containerToJSON(Source)},
                      {"findings", findingsRecord(V)},
                      {"placements", Spec_.Portable ? json::Value(std::move(Placements))
                                                    : json::Value(nullptr)}};
  putName(R, "path", Path);
  return R;
}

std::string plural(int64_t N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// One text line per finding: the findings of one dependency with one kind
/// are one line (its first message; the other rules it breaks after
/// "also:"), across the slices of a universal file; a file with none is
/// named as holding. The JSON keeps every finding.
void printRecord(raw_ostream &OS, const json::Object &R) {
  struct Line {
    std::string Dependency, Kind, Message;
    std::vector<std::string> Slices, AlsoRules;
    std::string FirstRule;
  };
  std::vector<Line> Lines;
  for (const json::Value &V : *R.getArray("findings")) {
    const json::Object &F = *V.getAsObject();
    std::string Dep = printableName(F, "dependency"), Kind = str(F, "kind");
    std::string Slice = str(F, "slice"), Rule = str(F, "rule");
    auto Same = [&](const Line &L) {
      return !Dep.empty() && L.Dependency == Dep && L.Kind == Kind;
    };
    auto It = std::find_if(Lines.begin(), Lines.end(), Same);
    if (It == Lines.end()) {
      Lines.push_back({Dep, Kind, printableName(F, "message"), {}, {}, Rule});
      It = std::prev(Lines.end());
    } else if (Rule != It->FirstRule && !llvm::is_contained(It->AlsoRules, Rule)) {
      It->AlsoRules.push_back(Rule);
    }
    if (!Slice.empty() && !llvm::is_contained(It->Slices, Slice))
      It->Slices.push_back(Slice);
  }
  std::string Name = printableName(R, "path");
  if (Lines.empty())
    OS << Name << ": holds\n";
  for (const Line &L : Lines) {
    OS << Name;
    if (!L.Slices.empty())
      OS << " (" << llvm::join(L.Slices, ", ") << ")";
    OS << ": " << coloured(L.Kind) << ": " << L.Message;
    if (!L.AlsoRules.empty())
      OS << " (also: " << llvm::join(L.AlsoRules, ", ") << ")";
    OS << "\n";
  }
}

void printSummary(raw_ostream &OS, const json::Object &Doc) {
  const json::Object &S = *Doc.getObject("summary");
  auto n = [&](StringRef K) { return S.getInteger(K).value_or(0); };
  OS << "linkguard check: " << plural(n("files"), "file", "files") << ", "
     << plural(n("violations"), "violation", "violations") << ", " << n("kept") << " kept, "
     << n("unknown") << " unknown, " << plural(n("errors"), "error", "errors") << ": "
     << coloured(n("errors") ? "incomplete" : n("violations") ? "broken" : "holds") << "\n";
}

} // namespace

int runCheck(const std::vector<std::string> &Args) {
  ParsedCommandLine CL;
  if (std::optional<int> Stop = parseCommandLine(Spec, Args, CL))
    return *Stop;
  package::ContainerOptions Containers;
  if (std::string Why; !containerOptionsFrom(CL.Args, Containers, Why))
    return usageError(Spec, Why);
  contract::ContractSpec Contract;
  if (std::optional<int> Stop = contractFrom(CL.Args, Contract))
    return *Stop;
  bool AnyContract = CL.Args.hasArg(OPT_forbid_EQ, OPT_require_EQ, OPT_forbid_unreferenced_EQ) ||
                     CL.Args.hasArg(OPT_unused, OPT_mps_aot, OPT_portable);
  if (!AnyContract)
    return usageError(Spec, "no contract given (--forbid, --require, --forbid-unreferenced, "
                            "--unused, --mps-aot, --portable)");

  auto Out = makePrinter(CL.Args.hasArg(OPT_json), outs(), "linkguard-check/1",
                         DocumentShape::Files,
                         {CL.Args.hasArg(OPT_quiet) ? Render() : printRecord, printSummary});
  const contract::FileProbe Exists = contract::realFileProbe();
  Totals T;
  int Status = 0;
  const objlib::ReadOptions Read = contract::readOptionsFor(Contract);
  for (const std::string &Path : CL.Positionals)
    forEachInputBinary(
        Path, Containers, Read,
        [&](const std::string &Name, objlib::BinaryInfo &Info, const package::Image *Source) {
          ++T.Files;
          Out->result(checkRecord(Name, Info, Source, Contract, Exists, T));
        },
        [&](const InputFailure &F) {
          ++T.Files;
          ++T.Errors;
          Out->error(F.record());
          if (Status == 0)
            Status = driver::toInt(F.Code);
        });
  bool Holds = T.Violations == 0 && T.Errors == 0;
  Out->finish(json::Object{
      {"contract", contractRecord(Contract)},
      {"summary", json::Object{{"files", T.Files},
                               {"violations", T.Violations},
                               {"kept", T.Kept},
                               {"unknown", T.Unknown},
                               {"errors", T.Errors},
                               {"holds", Holds}}}});
  if (Status != 0)
    return Status;
  return driver::toInt(T.Violations ? driver::ExitCode::Violation : driver::ExitCode::Success);
}

} // namespace linkguard::commands
