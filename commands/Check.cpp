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

#include "allow/AllowList.h"
#include "commands/CommandLine.h"
#include "commands/Contracts.h"
#include "commands/Inputs.h"
#include "commands/Printer.h"
#include "commands/Shipments.h"
#include "config/RulesFile.h"
#include "driver/ExitCode.h"
#include "driver/Logging.h"
#include "driver/Plan.h"
#include "flags/BuiltinRules.h"
#include "libnames/LibraryNames.h"
#include "contract/Advice.h"
#include "contract/LoaderRules.h"
#include "contract/PlatformPolicy.h"
#include "signature/CodeSignature.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/MemoryBuffer.h"

#include <set>
#include <tuple>

using namespace llvm;

namespace linkguard::commands {

namespace {

const CommandSpec Spec = {
    "check", CheckVis, "linkguard check [options] FILE|DIR...",
    "Judges the dependencies of Mach-O (thin or universal) and ELF files against a\n"
    "contract. The driver verifies its links with the same code. A zip archive (.pt2,\n"
    "wheel) is a container: each Mach-O or ELF member is judged as\n"
    "PKG!path/in/archive, and the archive is what ships (--portable). A pattern is a\n"
    "glob on the install name / DT_NEEDED string or on its file name, or a group:\n"
    "openmp (libomp, libiomp5, libgomp in every spelling) or libsystem. A directory\n"
    "(an .app, an install prefix) is a tree: every Mach-O and ELF file in it is judged;\n"
    "under --portable or --unique a tree or a zip is judged by its load closure, as\n"
    "dyld and ld.so will load it (docs/check.md).",
    "Text output: one line per finding, \"FILE[ (arch, ...)]: violation|kept|unknown:\n"
    "message; advice\" (the advice is its fix; one line for a dependency that breaks\n"
    "several rules, naming the others after \"also:\"); a file or member without\n"
    "findings: \"FILE: holds\"; then a summary line (a tree's object files are counted\n"
    "as skipped, not judged; --quiet: the summary line alone). Every name printed is\n"
    "accepted back as FILE: PKG!member (quote it in an interactive shell: '!' is\n"
    "history expansion there; or write PKG/member), FILE@0xOFFSET.\n"
    "\n"
    "EXIT STATUS: 0 holds, 1 violation, 64 usage, 65 malformed file (also a damaged or\n"
    "lying zip, a container with no image), 66 missing or unreadable file (a file\n"
    "error wins over 1), 78 an unusable linkguard.toml ([roots], [[allow]]),\n"
    "92 undecided (an unknown finding, a tree's closure that cannot be decided here).\n"
    "A finding an [[allow]] entry of linkguard.toml accepts is printed \"allowed:\n"
    "message (reason: ...; linkguard.toml:LINE)\" and is no violation\n"
    "(docs/check.md#allow-lists).\n",
    "no input file"};

struct Totals {
  int64_t Files = 0, Violations = 0, Kept = 0, Unknown = 0, Errors = 0;
  int64_t Undecided = 0; // closure verdicts that cannot be decided (exit 92)
  int64_t Skipped = 0;   // a tree's object files: not shipped images
  int64_t Allowed = 0;   // violations an [[allow]] entry accepted
  /// linkguard.toml's [[allow]] entries, and which of them matched.
  allow::AllowList *Allow = nullptr;
};

/// Keeps the strongest of the exit statuses of the inputs' failures: a
/// file that cannot be read (65, 66) wins over an undecided tree (92),
/// whatever the order of the inputs; a violation wins over undecided too
/// (runCheck's end).
void noteStatus(int &Status, driver::ExitCode Code) {
  const int C = driver::toInt(Code);
  if (Status == 0 || (Status == driver::toInt(driver::ExitCode::Undecided) &&
                      Code != driver::ExitCode::Undecided))
    Status = C;
}

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

/// Whether the file at P, links followed, is under Root, links followed
/// too (the tree's rule: a link out of the tree names nothing).
bool insideRoot(const std::string &P, const std::string &Root) {
  SmallString<256> RealP, RealRoot;
  if (sys::fs::real_path(P, RealP) || sys::fs::real_path(Root, RealRoot))
    return false;
  return contract::isUnder(RealP, RealRoot);
}

/// --portable's code signatures (rule code-signature, signature/): which
/// slices, or none (--no-signatures, or no --portable).
using SignatureScope = std::optional<signature::Scope>;

/// The findings of a Mach-O image's code signatures, its bytes read from
/// Path (a plain file or a file of a tree; mapped, not copied).
void judgeSignaturesAt(const std::string &Path, const std::string &Name,
                       const objlib::BinaryInfo &Info, signature::Scope Scope,
                       contract::Verdict &V) {
  if (Info.Fmt != objlib::Format::MachO)
    return;
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf) {
    contract::Finding F;
    F.Kind = contract::FindingKind::Unknown;
    F.Rule = "code-signature";
    F.Message = "its code signature cannot be checked: " + Buf.getError().message();
    V.Findings.push_back(std::move(F));
    return;
  }
  signature::judgeSignatures((*Buf)->getBuffer(), Scope, Name, Info.Universal, V);
}

/// Whether an image of the zip Container (at Member) is part of a PyTorch
/// export: a .pt2 (torch._inductor.package writes its model libraries
/// under data/aotinductor/). Its user's fix is to export again, and the
/// torch process that loads it provides PyTorch's own libraries.
bool isPyTorchExport(StringRef Container, StringRef Member) {
  return Container.ends_with_insensitive(".pt2") || Member.contains("data/aotinductor/");
}

/// PyTorch's own libraries as provided, for a PyTorch export's
/// portability (docs/check.md): appended to the user's --provided.
void providePyTorch(std::vector<contract::Pattern> &Provided) {
  for (const contract::Pattern &P : contract::pytorchProvided())
    if (llvm::none_of(Provided, [&](const contract::Pattern &Q) { return Q.Text == P.Text; }))
      Provided.push_back(P);
}

/// The reason of a dependency provided only by the PyTorch default (not by
/// a --provided of the user's), instead of "(--provided)".
bool providedByPyTorch(const std::string &Dependency, const std::vector<contract::Pattern> &User) {
  auto Matches = [&](const contract::Pattern &P) {
    return StringRef(Dependency).starts_with("/") ? P.matchesWholeName(Dependency)
                                                  : P.matches(Dependency);
  };
  return llvm::none_of(User, Matches) && llvm::any_of(contract::pytorchProvided(), Matches);
}
const char *const PyTorchProvidedReason =
    "is PyTorch's own library, which the torch process that loads a .pt2 provides "
    "(docs/check.md)";

/// The text's lines, and what the summary counts: the findings of one slice
/// on one dependency with one kind are one line, with the first rule's
/// message (forbid-unreferenced's, which names the fix, when it is among
/// them) and the other rules it breaks named after "also:" (one libomp
/// that breaks --forbid, --mps-aot, --unused and --portable is one problem,
/// not four). A finding about no dependency (an install name, a duplicate
/// LC_RPATH) is a line of its own. The JSON keeps every rule's finding.
struct FindingLine {
  std::string Slice, Dependency, Kind, Message, Advice;
  std::string AllowedBy; // "reason: ...; linkguard.toml:12" (kind allowed)
  std::vector<std::string> AlsoRules;
  std::string FirstRule;
  const json::Object *Tried = nullptr; // the finding that holds "tried" (--why)
};

std::vector<FindingLine> findingLines(const json::Array &Findings) {
  std::vector<FindingLine> Lines;
  for (const json::Value &V : Findings) {
    const json::Object &F = *V.getAsObject();
    std::string Slice = str(F, "slice"), Dep = printableName(F, "dependency");
    std::string Kind = str(F, "kind"), Rule = str(F, "rule");
    auto It = std::find_if(Lines.begin(), Lines.end(), [&](const FindingLine &L) {
      return !Dep.empty() && L.Slice == Slice && L.Dependency == Dep && L.Kind == Kind;
    });
    if (It == Lines.end()) {
      std::string By;
      if (const json::Array *A = F.getArray("allowedBy"))
        for (const json::Value &E : *A)
          if (const json::Object *O = E.getAsObject())
            By += (By.empty() ? "" : "; ") + ("reason: " + printableName(*O, "reason")) + "; " +
                  printableName(*O, "origin");
      Lines.push_back({Slice, Dep, Kind, printableName(F, "message"),
                       printableName(F, "advice"), By, {}, Rule});
      It = Lines.end() - 1;
    } else if (Rule != It->FirstRule && !llvm::is_contained(It->AlsoRules, Rule)) {
      // The line leads with the rule that says what to do: a library kept
      // although nothing binds to it is dropped by the rule's link flag
      // (-Wl,-dead_strip_dylibs), which --forbid's message does not say.
      if (Rule.rfind("forbid-unreferenced", 0) == 0 &&
          It->FirstRule.rfind("forbid-unreferenced", 0) != 0) {
        It->AlsoRules.insert(It->AlsoRules.begin(), It->FirstRule);
        It->FirstRule = Rule;
        It->Message = printableName(F, "message");
        It->Advice = printableName(F, "advice");
      } else {
        It->AlsoRules.push_back(Rule);
      }
    }
    if (!It->Tried && F.getArray("tried"))
      It->Tried = &F;
  }
  return Lines;
}

/// A judged file's record, counted in the totals: the summary counts the
/// lines the text prints (findingLines), and an unknown one leaves the
/// check undecided (92), never "holds" (fail closed) - a file's or a
/// tree's image alike. Names: what the file is called, for [[allow]]
/// (the name printed, its path under the tree or its member name).
json::Object fileRecord(const objlib::BinaryInfo &Info, contract::Verdict &V,
                        const contract::AdviceContext &Advice, json::Value Container,
                        json::Value Placements, Totals &T, ArrayRef<std::string> Names) {
  // Every finding's fix, for where the image came from (contract/Advice.h).
  contract::advise(V, Advice);
  // What linkguard.toml's [[allow]] accepts: no violation, with its reason.
  if (T.Allow)
    T.Allow->apply(Names, V);
  json::Array Arches;
  for (const objlib::Slice &S : Info.Slices)
    Arches.push_back(S.Arch);
  json::Array Findings = findingsRecord(V);
  for (const FindingLine &L : findingLines(Findings)) {
    T.Violations += L.Kind == "violation";
    T.Kept += L.Kind == "kept";
    T.Unknown += L.Kind == "unknown";
    T.Undecided += L.Kind == "unknown";
    T.Allowed += L.Kind == "allowed";
  }
  return json::Object{{"format", Info.Fmt == objlib::Format::MachO ? "mach-o" : "elf"},
                      {"slices", std::move(Arches)},
                      {"holds", V.ok()},
                      {"container", std::move(Container)},
                      {"findings", std::move(Findings)},
                      {"placements", std::move(Placements)}};
}

/// --portable for a plain file: the tree's own resolver (ld.so's
/// algorithm, shipment/LdSo.cpp; dyld's, shipment/Dyld.cpp) over the file
/// as a root in its bundle root (default: its directory), so the file and
/// a tree holding it as a root get one verdict (issue 37): one search
/// loop, not two.
struct OwnClosure {
  std::vector<contract::Finding> Findings;
  json::Array Placements;
};
/// The names an allow-list's file glob is matched against for image I: its
/// printed name, its path under the root, its zip member name, and, for a
/// file's own closure, its path under the bundle root as given (the tree
/// check's printed name there).
std::vector<std::string> imageNames(const shipment::Shipment &S, size_t I,
                                    const std::string &BundleRootGiven = "") {
  const shipment::ShippedImage &SI = S.images()[I];
  std::vector<std::string> Out{S.printName(I), SI.Rel, SI.Member};
  if (!BundleRootGiven.empty())
    Out.push_back(contract::joinPath(BundleRootGiven, SI.Rel));
  return Out;
}

/// Unknown, rule Rule: C (or another machine's, Others) was cut short by
/// the search bound, so what the process holds is not known.
void truncatedFinding(std::vector<contract::Finding> &Out, const std::string &Path,
                      const std::string &Rule, const shipment::Closure &C,
                      const std::vector<shipment::MachineClosure> &Others, size_t MaxEdges) {
  const shipment::MachineClosure *Cut = nullptr;
  for (const shipment::MachineClosure &M : Others)
    if (!Cut && M.C.Truncated)
      Cut = &M;
  if (!C.Truncated && !Cut)
    return;
  contract::Finding F;
  F.Kind = contract::FindingKind::Unknown;
  F.Rule = Rule;
  F.Message = "the load closure of " + Path +
              (C.Truncated ? "" : shipment::machineNote(Cut->Searched)) +
              " is too large to resolve (more than " + std::to_string(MaxEdges) +
              " dependencies, search entries x names, candidates and links tried): undecided";
  Out.push_back(std::move(F));
}

/// A finding of another machine's closure (otherMachineClosures): said
/// unless this machine's says the same, marked with the machines that
/// have it (Searched: shipment::machineNote), once.
void addMachineFinding(std::vector<contract::Finding> &Out, contract::Finding F,
                       const std::string &Searched) {
  for (contract::Finding &G : Out)
    if (G.Rule == F.Rule && G.Dependency == F.Dependency &&
        shipment::absorbMachineMessage(G.Message, F.Message, Searched))
      return;
  F.Message += shipment::machineNote(Searched);
  Out.push_back(std::move(F));
}

OwnClosure fileClosure(const std::string &Path, const contract::PortabilityOptions &P,
                       const shipment::ClosureOptions &Given, bool OneDefiner) {
  OwnClosure Out;
  shipment::ClosureOptions CO = Given;
  CO.Unique.clear(); // fileConflicts judges the families
  objlib::ReadOptions Read;
  Read.Imports = false;
  Read.Exports = OneDefiner; // rule one-definer
  Expected<std::unique_ptr<shipment::Shipment>> S =
      shipment::Shipment::file(Path, P.BundleRoot, Read);
  if (!S) {
    contract::Finding F;
    F.Kind = contract::FindingKind::Unknown;
    F.Rule = "portable";
    F.Message = "the load closure of " + Path + " cannot be computed: " + toString(S.takeError());
    Out.Findings.push_back(std::move(F));
    return Out;
  }
  shipment::Closure C = shipment::computeClosure(**S, CO);
  for (const shipment::Root &R : C.Roots)
    for (const std::string &M : R.Refusals)
      if (R.Image == 0) {
        contract::Finding F;
        F.Rule = "portable";
        F.Placement = "refused";
        F.Message = M;
        Out.Findings.push_back(std::move(F));
      }
  // The file's closure is its load: a library it brings whose own
  // dependency fails fails the file's load too (named with that library).
  for (const shipment::Edge &E : C.Edges) {
    if (E.Repeat || C.Roots[E.Root].Image != 0)
      continue;
    if (E.Image == 0)
      Out.Placements.push_back(edgeRecord(**S, C, E));
    const bool Unknown = E.Where == shipment::Outcome::Unknown;
    if (!E.violation() && !Unknown)
      continue;
    contract::Finding F;
    F.Kind = Unknown ? contract::FindingKind::Unknown : contract::FindingKind::Violation;
    // A universal file's finding names its slice beside the file.
    if (E.Image == 0 && (*S)->images()[0].Info.Slices.size() > 1)
      F.Slice = E.Slice;
    F.Dependency = E.Dependency;
    F.Rule = "portable";
    F.Placement = shipment::outcomeName(E.Where);
    F.Advice = E.Advice; // the resolver's own, when it has one
    F.Tried = E.Tried;   // what the search that placed it tried (--why)
    F.TriedNotListed = E.TriedNotListed;
    F.HostEntriesOnly = E.HostEntriesOnly;
    if (E.Image != 0)
      F.AboutNames = imageNames(**S, E.Image, P.BundleRoot);
    // The slice is named beside the file already (as contract::judge did).
    F.Message = !F.Slice.empty() ? std::string(objlib::dependencyKindName(E.Kind)) + " " +
                                       E.Dependency + " " + E.Reason
                : E.Image == 0 ? edgeMessage(**S, C, E)
                             : std::string(objlib::dependencyKindName(E.Kind)) + " " +
                                   E.Dependency + " (" + E.Slice + ") of " +
                                   (*S)->printName(E.Image) + ", which this file loads, " +
                                   E.Reason;
    Out.Findings.push_back(std::move(F));
  }
  // One definer per symbol in the file's closure (shipment/Definers.h).
  if (OneDefiner) {
    const bool Universal = (*S)->images()[0].Info.Slices.size() > 1;
    auto definers = [&](const shipment::Closure &CC, function_ref<void(contract::Finding)> Put) {
      shipment::Definers D = shipment::findDuplicateDefinitions(**S, CC);
      for (const shipment::DuplicateDefinitions &Dup : D.Duplicates)
        if (CC.Roots[Dup.Root].Image == 0) {
          contract::Finding F = definerFinding(**S, CC, Dup, Universal ? Dup.Slice : std::string(),
                                               Dup.Second == 0);
          if (Dup.Second != 0)
            F.AboutNames = imageNames(**S, Dup.Second, P.BundleRoot);
          Put(std::move(F));
        }
      for (const shipment::UnreadableExports &U : D.Unreadable)
        if (CC.Roots[U.Root].Image == 0)
          Put(unreadableExportsFinding(**S, CC, U, Universal ? U.Slice : std::string()));
    };
    definers(C, [&](contract::Finding F) { Out.Findings.push_back(std::move(F)); });
    const std::vector<shipment::MachineClosure> Others = shipment::otherMachineClosures(**S, C, CO);
    for (const shipment::MachineClosure &M : Others)
      definers(M.C, [&](contract::Finding F) { addMachineFinding(Out.Findings, std::move(F), M.Searched); });
    if (!C.Truncated)
      truncatedFinding(Out.Findings, Path, "one-definer", C, Others, CO.MaxEdges);
  }
  truncatedFinding(Out.Findings, Path, "portable", C, {}, CO.MaxEdges);
  return Out;
}

json::Object checkRecord(const std::string &Path, objlib::BinaryInfo &Info,
                         const package::Image *Source, const contract::ContractSpec &Given,
                         const contract::FileProbe &Exists, Totals &T,
                         std::vector<contract::Finding> Extra = {},
                         const shipment::ClosureOptions *CO = nullptr,
                         const contract::PlatformTarget *Platform = nullptr,
                         bool OneDefiner = false) {
  contract::ContractSpec Spec_ = Given;
  if (Spec_.Portable && !Source && CO) {
    OwnClosure Own = fileClosure(Path, *Spec_.Portable, *CO, OneDefiner);
    Spec_.Portable.reset();
    if (Spec_.DropFlag.empty())
      Spec_.DropFlag = dropFlagFor(Info.Fmt);
    contract::Verdict V = contract::judge(Info, Spec_, Exists);
    contract::judgeLoadability(Info, V);
    for (contract::Finding &F : Own.Findings)
      V.Findings.push_back(std::move(F));
    for (contract::Finding &F : Extra)
      V.Findings.push_back(std::move(F));
    if (Platform && !Platform->empty())
      contract::judgePlatform(Info, *Platform, [&](StringRef D) {
        return llvm::any_of(Own.Placements, [&](const json::Value &P) {
          const json::Object *O = P.getAsObject();
          return O && O->getString("placement") == StringRef("shipped") &&
                 O->getString("dependency") == D;
        });
      }, V);
    contract::AdviceContext Advice;
    Advice.Fmt = Info.Fmt;
    Advice.DropFlag = Spec_.DropFlag.empty() ? dropFlagFor(Info.Fmt) : Spec_.DropFlag;
    Advice.ExecutableGiven = !CO->Executable.empty();
    json::Object R = fileRecord(Info, V, Advice, containerToJSON(Source),
                                json::Value(std::move(Own.Placements)), T, {Path});
    putName(R, "path", Path);
    return R;
  }
  contract::FileProbe Probe = Exists;
  if (Spec_.Portable && !Source)
    Spec_.Portable->InsideRoot = insideRoot;
  if (Source) {
    ContainerPlacement CP = placeInContainer(*Source, Info, Exists);
    if (Spec_.Portable)
      Spec_.Portable->BundleRoot = CP.BundleRoot;
    Probe = std::move(CP.Exists);
  } else {
    // Portability compares paths lexically: anchor this one at the cwd. A
    // main program's origin is its file's, links followed, as the loaders
    // take it (contract::mainProgramPath): bin/app -> ../libexec/app; and
    // any Mach-O image's (dyld keeps the real path it mapped, as in a tree).
    Info.Path = absolutePath(Path);
    if (Info.Fmt == objlib::Format::MachO ||
        llvm::any_of(Info.Slices, [](const objlib::Slice &S) { return S.MainProgram; }))
      Info.Path = contract::mainProgramPath(Info.Path);
  }
  if (Spec_.DropFlag.empty())
    Spec_.DropFlag = dropFlagFor(Info.Fmt);
  const bool PyTorch = Source && isPyTorchExport(Source->Container, Source->Member);
  if (PyTorch && Spec_.Portable)
    providePyTorch(Spec_.Portable->Provided);
  contract::Verdict V = contract::judge(Info, Spec_, Probe);
  for (contract::Finding &F : Extra)
    V.Findings.push_back(std::move(F));
  json::Array Placements;
  std::vector<std::string> ShippedDeps;
  if (Spec_.Portable)
    for (contract::DependencyPlacement &P :
         contract::placeDependencies(Info, *Spec_.Portable, Probe)) {
      if (PyTorch && P.Where == contract::Placement::Provided &&
          providedByPyTorch(P.Dependency, Given.Portable->Provided))
        P.Reason = PyTorchProvidedReason;
      if (P.Where == contract::Placement::Shipped)
        ShippedDeps.push_back(P.Dependency);
      Placements.push_back(placementRecord(P));
    }
  if (Platform && !Platform->empty())
    contract::judgePlatform(Info, *Platform, [&](StringRef D) {
      return llvm::is_contained(ShippedDeps, D);
    }, V);
  contract::AdviceContext Advice;
  Advice.Fmt = Info.Fmt;
  Advice.DropFlag = Spec_.DropFlag;
  Advice.From = PyTorch ? contract::Origin::PyTorchExport : contract::Origin::Link;
  Advice.ExecutableGiven = Spec_.Portable && !Spec_.Portable->ExecutableDir.empty();
  std::vector<std::string> Names = {Path};
  if (Source && !Source->Member.empty())
    Names.push_back(contract::normalizePath(Source->Member));
  json::Object R = fileRecord(Info, V, Advice, containerToJSON(Source),
                              Spec_.Portable ? json::Value(std::move(Placements))
                                             : json::Value(nullptr),
                              T, Names);
  putName(R, "path", Path);
  return R;
}

std::string plural(int64_t N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// One text line per finding line (findingLines): a universal file's line
/// names its slice, `FILE (arm64): ...` (each architecture apart, as
/// `otool -L` prints a fat file); a file with none is named as holding.
/// Why (--why): under a portable finding, the paths the loader tried.
void printRecord(raw_ostream &OS, const json::Object &R, bool Why) {
  const std::string Name = printableName(R, "path");
  const std::vector<FindingLine> Lines = findingLines(*R.getArray("findings"));
  if (Lines.empty())
    OS << Name << ": holds\n";
  for (const FindingLine &L : Lines) {
    OS << Name;
    if (!L.Slice.empty())
      OS << " (" << printable(L.Slice) << ")";
    OS << ": " << coloured(L.Kind) << ": " << L.Message;
    // An allowed finding: why, and where it was allowed (its fix is in
    // the JSON's advice, should the allowance go).
    if (!L.AllowedBy.empty())
      OS << " (" << L.AllowedBy << ")";
    else if (!L.Advice.empty())
      OS << "; " << L.Advice;
    if (!L.AlsoRules.empty())
      OS << " (also: " << llvm::join(L.AlsoRules, ", ") << ")";
    OS << "\n";
    if (Why && L.Tried)
      printTried(OS, *L.Tried, 4);
  }
}

void printSummary(raw_ostream &OS, const json::Object &Doc) {
  const json::Object &S = *Doc.getObject("summary");
  auto n = [&](StringRef K) { return S.getInteger(K).value_or(0); };
  OS << "linkguard check: " << plural(n("files"), "file", "files") << ", "
     << plural(n("violations"), "violation", "violations") << ", " << n("kept") << " kept, "
     << n("unknown") << " unknown, " << plural(n("errors"), "error", "errors");
  if (n("skipped"))
    OS << ", " << n("skipped") << " skipped";
  if (n("allowed"))
    OS << ", " << n("allowed") << " allowed";
  OS << ": "
     << coloured(n("errors")       ? "incomplete"
                 : n("violations") ? "broken"
                 : n("undecided")  ? "undecided"
                                   : "holds")
     << "\n";
}

/// The families --forbid names whose runtimes are known by what they
/// define (libnames::runtimeMarkers): openmp.
std::vector<std::string> forbiddenRuntimeGroups(const contract::ContractSpec &Contract) {
  std::vector<std::string> Out;
  for (const contract::Pattern &P : Contract.Forbid)
    if (libnames::isGroupName(P.Text) &&
        llvm::any_of(libnames::runtimeMarkers(), [&](const libnames::RuntimeMarker &M) {
          return StringRef(P.Text).equals_insensitive(M.Group);
        }))
      Out.push_back(P.Text);
  return Out;
}

/// --unique's findings on the roots of C whose image Wants takes: two
/// members of a family (Conflict), or one whose exports cannot be read
/// where it would make two (UnreadableMember); each to Put(image, finding).
void uniqueFindings(const shipment::Shipment &S, const shipment::Closure &C,
                    function_ref<bool(size_t)> Wants,
                    function_ref<void(size_t, contract::Finding)> Put) {
  auto sliceOf = [&](const shipment::Root &R) {
    return S.images()[R.Image].Info.Slices.size() > 1 ? R.Arch : std::string();
  };
  for (const shipment::Conflict &K : C.Conflicts) {
    const shipment::Root &R = C.Roots[K.Root];
    if (!Wants(R.Image))
      continue;
    contract::Finding F;
    F.Slice = sliceOf(R);
    F.Dependency = K.Second;
    F.Rule = "unique " + K.Group;
    F.Message = conflictMessage(S, C, K);
    Put(R.Image, std::move(F));
  }
  for (const shipment::UnreadableMember &U : C.Unreadable)
    if (const shipment::Root &R = C.Roots[U.Root]; Wants(R.Image))
      Put(R.Image, unreadableMemberFinding(S, C, U, sliceOf(R)));
}

/// --forbid GROUP by exports: each shipped dependency of a closure that is
/// a runtime of a forbidden family by what it defines, not by its name (a
/// renamed copy; its name is judged by contract::judge already). Only the
/// edges Keep accepts (by the image holding the load command).
void forbiddenRuntimes(const shipment::Shipment &S, const shipment::Closure &C,
                       const std::vector<std::string> &Groups,
                       function_ref<std::vector<contract::Finding> *(const shipment::Edge &)> Into) {
  // A violation is said once per image, dependency and group. What is
  // unknown (exports that cannot be read, a file linkguard cannot read) is
  // said once per slice besides: in a universal image, one slice's damaged
  // trie must not hide another slice's certain violation, nor the other
  // way round.
  std::set<std::tuple<size_t, std::string, std::string>> Decided;
  std::set<std::tuple<size_t, std::string, std::string, std::string>> Said;
  struct Pending {
    const shipment::Edge *E;
    std::string Group;
    contract::Finding F;
  };
  std::vector<Pending> Unknowns;
  auto finding = [&](const shipment::Edge &E, const std::string &G) {
    contract::Finding F;
    F.Slice = S.images()[E.Image].Info.Slices.size() > 1 ? E.Slice : "";
    F.Dependency = E.Dependency;
    F.Rule = "forbid " + G;
    return F;
  };
  auto unknown = [&](const shipment::Edge &E, const std::string &G, const std::string &What,
                     const std::string &Why) {
    contract::Finding F = finding(E, G);
    F.Kind = contract::FindingKind::Unknown;
    F.Message = E.Dependency + " (" + What + "): " + Why + ", so whether it is an " + G +
                " runtime, which '" + G + "' forbids, cannot be decided";
    Unknowns.push_back({&E, G, std::move(F)});
  };
  for (const shipment::Edge &E : C.Edges) {
    if (E.Where == shipment::Outcome::Unknown && !E.Unreadable.empty()) {
      // The loader would load a file linkguard cannot read: by its name
      // it is judged already (contract::judge); by what it defines, not.
      for (const std::string &G : Groups)
        if (!libnames::inGroup(G, E.Dependency) &&
            !libnames::inGroup(G, sys::path::filename(E.Unreadable)))
          unknown(E, G, E.Unreadable, "linkguard cannot read it");
      continue;
    }
    if (E.Where == shipment::Outcome::Unknown && !E.Target) {
      // Which file loads cannot be decided ($LIB before the tree's copy):
      // by its name it is judged already; by what it defines, not.
      for (const std::string &G : Groups)
        if (!libnames::inGroup(G, E.Dependency))
          unknown(E, G, "which file the loader loads cannot be decided",
                  E.Reason.empty() ? std::string("unknown") : E.Reason);
      continue;
    }
    if (!E.Target || *E.Target >= S.images().size())
      continue;
    const objlib::BinaryInfo &T = S.images()[*E.Target].Info;
    for (const std::string &G : Groups) {
      if (libnames::inGroup(G, E.Dependency) || libnames::inGroup(G, S.images()[*E.Target].Rel))
        continue;
      for (const objlib::Slice &Sl : T.Slices) {
        if (T.Fmt == objlib::Format::MachO && Sl.Arch != E.Slice && T.Slices.size() > 1)
          continue;
        std::string Marker;
        // Exports that could not be read (a damaged trie): undecided,
        // never "not a runtime".
        if (!libnames::familyMemberByExports(G, Sl.Exports, &Marker)) {
          if (!Sl.ExportsProblem.empty())
            unknown(E, G, S.printName(*E.Target),
                    "its exports cannot be read (" + Sl.ExportsProblem + ")");
          break;
        }
        if (!Decided.insert({E.Image, E.Dependency, G}).second)
          break;
        std::vector<contract::Finding> *Out = Into(E);
        if (!Out)
          break;
        contract::Finding F = finding(E, G);
        F.Message = E.Dependency + " (" + S.printName(*E.Target) + ") is an " + G +
                    " runtime by its exports: it defines " + Marker + ", and '" + G +
                    "' is forbidden";
        Out->push_back(std::move(F));
        break;
      }
    }
  }
  for (Pending &P : Unknowns) {
    if (!Said.insert({P.E->Image, P.E->Dependency, P.Group, P.E->Slice}).second)
      continue;
    if (std::vector<contract::Finding> *Out = Into(*P.E))
      Out->push_back(std::move(P.F));
  }
}

/// --forbid GROUP by exports for a plain file: its closure, followed
/// wherever its libraries are (as fileConflicts does).
std::vector<contract::Finding> fileForbiddenRuntimes(const std::string &Path,
                                                     const std::vector<std::string> &Groups,
                                                     const shipment::ClosureOptions &Given) {
  std::vector<contract::Finding> Out;
  objlib::ReadOptions Read;
  Read.Imports = false;
  Read.Exports = true;
  Read.ExportsAmong = libnames::runtimeMarkerNames();
  Expected<std::unique_ptr<shipment::Shipment>> S = shipment::Shipment::file(Path, "/", Read);
  if (!S) {
    consumeError(S.takeError());
    return Out; // the file itself is judged, and fails, elsewhere
  }
  shipment::ClosureOptions CO = Given;
  CO.Unique.clear();
  shipment::Closure C = shipment::computeClosure(**S, CO);
  forbiddenRuntimes(**S, C, Groups, [&](const shipment::Edge &E) {
    return C.Roots[E.Root].Image == 0 && E.Image == 0 ? &Out : nullptr;
  });
  const std::vector<shipment::MachineClosure> Others = shipment::otherMachineClosures(**S, C, CO);
  for (const shipment::MachineClosure &M : Others) {
    std::vector<contract::Finding> More;
    forbiddenRuntimes(**S, M.C, Groups, [&](const shipment::Edge &E) {
      return M.C.Roots[E.Root].Image == 0 && E.Image == 0 ? &More : nullptr;
    });
    for (contract::Finding &F : More)
      addMachineFinding(Out, std::move(F), M.Searched);
  }
  for (const std::string &G : Groups)
    truncatedFinding(Out, Path, "forbid " + G, C, Others, CO.MaxEdges);
  return Out;
}

/// --unique for a plain file: its closure, looked up in its bundle root
/// (default: its directory), as dyld or ld.so would load it from there.
std::vector<contract::Finding> fileConflicts(const std::string &Path,
                                             const contract::ContractSpec &Contract,
                                             const shipment::ClosureOptions &CO) {
  std::vector<contract::Finding> Out;
  objlib::ReadOptions Read;
  Read.Imports = false;
  // A runtime under another name is one by what it defines.
  Read.Exports = true;
  Read.ExportsAmong = libnames::runtimeMarkerNames();
  // Which libraries meet in one process does not depend on what ships:
  // without a bundle root the closure follows files wherever they are.
  std::string Root = Contract.Portable && !Contract.Portable->BundleRoot.empty()
                         ? Contract.Portable->BundleRoot
                         : "/";
  Expected<std::unique_ptr<shipment::Shipment>> S = shipment::Shipment::file(Path, Root, Read);
  if (!S && Root != "/") {
    // A file outside the bundle root still loads its libraries: follow them
    // wherever they are rather than drop the check.
    consumeError(S.takeError());
    S = shipment::Shipment::file(Path, "/", Read);
  }
  if (!S) {
    // Never "holds" for a closure that was not computed.
    contract::Finding F;
    F.Kind = contract::FindingKind::Unknown;
    F.Rule = "unique";
    F.Message = "the load closure of " + Path + " cannot be computed: " + toString(S.takeError());
    Out.push_back(std::move(F));
    return Out;
  }
  shipment::Closure C = shipment::computeClosure(**S, CO);
  auto file = [](size_t I) { return I == 0; };
  uniqueFindings(**S, C, file, [&](size_t, contract::Finding F) { Out.push_back(std::move(F)); });
  const std::vector<shipment::MachineClosure> Others = shipment::otherMachineClosures(**S, C, CO);
  for (const shipment::MachineClosure &M : Others)
    uniqueFindings(**S, M.C, file, [&](size_t, contract::Finding F) {
      addMachineFinding(Out, std::move(F), M.Searched);
    });
  truncatedFinding(Out, Path, "unique", C, Others, CO.MaxEdges);
  return Out;
}

/// --unique for one image of a zip named on its own ('PKG!member', the name
/// check prints): the archive's load closure (a zip ships as one, as
/// `check --unique G PKG` judges it): the conflicts that check puts on
/// this image, those of the closure it is the root of. One closure per
/// archive, kept for its other members (--scan walks a zip image by image).
class MemberConflicts {
public:
  std::vector<contract::Finding> of(const package::Image &Source, const std::string &Name,
                                    const shipment::ClosureOptions &CO,
                                    const package::ContainerOptions &Given) {
    std::vector<contract::Finding> Out;
    if (!Source.Archive || (Source.Offset && !Source.Member.empty()))
      return Out; // an image a scan found inside a member: loaded from memory
    if (Source.Container != Path) {
      Path = Source.Container;
      objlib::ReadOptions Read;
      Read.Imports = false;
      Read.Exports = true; // a runtime under another name (libnames::runtimeMarkers)
      Read.ExportsAmong = libnames::runtimeMarkerNames();
      // The archive as the member was read from it (--max-inflated); its
      // members only (the closure opens no scanned image).
      package::ContainerOptions Opts;
      Opts.Limits.MaxTotalSize = Given.Limits.MaxTotalSize;
      Expected<std::unique_ptr<shipment::Shipment>> Z =
          shipment::Shipment::zip(Path, Read, Opts);
      S.reset();
      Why.clear();
      if (!Z) {
        Why = toString(Z.takeError());
      } else {
        S = std::move(*Z);
        C = shipment::computeClosure(*S, CO);
        Others = shipment::otherMachineClosures(*S, C, CO);
      }
    }
    if (!S) {
      // Never "holds" for a closure that was not computed.
      contract::Finding F;
      F.Kind = contract::FindingKind::Unknown;
      F.Rule = "unique";
      F.Message = "the load closure of " + Path + " cannot be computed: " + Why;
      Out.push_back(std::move(F));
      return Out;
    }
    std::optional<size_t> Me;
    const std::string Rel = contract::normalizePath(Source.Member);
    for (size_t I = 0; I < S->walked() && !Me; ++I)
      if (Source.Member.empty() ? S->printName(I) == Name : S->images()[I].Member == Rel)
        Me = I;
    if (!Me)
      return Out;
    auto me = [&](size_t I) { return I == *Me; };
    uniqueFindings(*S, C, me, [&](size_t, contract::Finding F) { Out.push_back(std::move(F)); });
    for (const shipment::MachineClosure &M : Others)
      uniqueFindings(*S, M.C, me, [&](size_t, contract::Finding F) {
        addMachineFinding(Out, std::move(F), M.Searched);
      });
    truncatedFinding(Out, Path, "unique", C, Others, CO.MaxEdges);
    return Out;
  }

private:
  std::string Path, Why;
  std::unique_ptr<shipment::Shipment> S;
  shipment::Closure C;
  std::vector<shipment::MachineClosure> Others; // otherMachineClosures
};

/// A tree (a directory, an .app; a zip under --portable or --unique):
/// each image judged by the contract's per-file rules, and its load
/// closure (shipment/Closure.h) for --portable and --unique. The closure
/// replaces the per-file portability check: an @rpath name resolves
/// through the LC_RPATHs of every image up the load chain, and the tree is
/// the bundle root.
/// The archives in a directory (and with --scan its other files) are
/// judged after it: a zip under the closure as a shipment of its own
/// (Nested: one without an image is no error), anything else by JudgeFile.
void checkTree(const std::string &Path, const contract::ContractSpec &Contract,
               const shipment::ClosureOptions &CO, bool WithClosure, SignatureScope Signatures,
               bool OneDefiner, const contract::PlatformTarget &BasePlatform,
               const objlib::ReadOptions &Read, const package::ContainerOptions &Containers,
               function_ref<void(const std::string &, const package::ContainerOptions &, bool)>
                   JudgeFile,
               bool Json, Printer &Out, Totals &T, int &Status, bool Nested = false,
               bool SkipPrefix = false) {
  auto fail = [&](const InputFailure &F) {
    ++T.Files;
    ++T.Errors;
    Out.error(F.record());
    noteStatus(Status, F.Code);
  };
  const int64_t FilesBefore = T.Files;
  contract::ContractSpec PerFile = Contract;
  PerFile.Portable.reset();
  // Only --unused and --forbid-unreferenced read imports; the closure needs
  // names and search paths: the load commands alone.
  objlib::ReadOptions TreeRead = Read;
  TreeRead.Imports = PerFile.FailOnUnused || !PerFile.ForbidUnreferenced.empty();
  // A wheel's platform tags (--portable): its files against them.
  contract::PlatformTarget Platform = BasePlatform;
  if (Contract.Portable)
    if (std::optional<contract::PlatformTarget> Tags = contract::wheelTarget(Path)) {
      Platform.Mac.insert(Platform.Mac.end(), Tags->Mac.begin(), Tags->Mac.end());
      Platform.Linux = Tags->Linux;
      Platform.Unknown = Tags->Unknown;
    }
  TreeRead.VersionNeeds = !Platform.Linux.empty();
  // The closure tells a runtime under another name by what it defines
  // (--unique); rule one-definer reads every strong export.
  const std::vector<std::string> ForbidRuntimes = forbiddenRuntimeGroups(Contract);
  TreeRead.Exports = WithClosure || !ForbidRuntimes.empty();
  if (!OneDefiner)
    TreeRead.ExportsAmong = libnames::runtimeMarkerNames();
  package::ContainerOptions Walk = Containers;
  Walk.EmptyIsFine = Nested;
  std::unique_ptr<shipment::Shipment> S = openShipment(Path, "", TreeRead, fail, Walk, SkipPrefix);
  if (!S)
    return;
  // A build directory's object files are linked into images, never
  // loaded: counted, not judged (shipment::SkippedFile).
  T.Skipped += static_cast<int64_t>(S->skipped().size());
  // A PyTorch export: its user exports again, and the torch process that
  // loads it provides PyTorch's own libraries.
  const bool Zip = S->kind() == shipment::Shipment::Kind::Zip;
  auto pytorchImage = [&](size_t I) {
    return Zip && isPyTorchExport(S->given(), S->images()[I].Member.empty()
                                                  ? S->images()[I].Rel
                                                  : S->images()[I].Member);
  };
  bool PyTorch = false;
  for (size_t I = 0; I < S->walked() && !PyTorch; ++I)
    PyTorch = pytorchImage(I);
  shipment::ClosureOptions TreeCO = CO;
  if (PyTorch)
    providePyTorch(TreeCO.Provided);
  shipment::Closure C;
  // --root names files of the tree on the command line; a nested archive
  // has its own recognised roots (an extension module, a model library).
  if (Nested)
    TreeCO.Roots.clear();
  if (WithClosure) {
    C = shipment::computeClosure(*S, TreeCO);
    T.Undecided += static_cast<int64_t>(undecidedRoots(Path, *S, TreeCO));
  } else if (!ForbidRuntimes.empty()) {
    // --forbid openmp alone: the closure tells which library a name loads,
    // for a runtime known by its exports only.
    TreeCO.Unique.clear();
    C = shipment::computeClosure(*S, TreeCO);
  }
  if (PyTorch)
    for (shipment::Edge &E : C.Edges)
      if (E.Where == shipment::Outcome::Provided && providedByPyTorch(E.Dependency, CO.Provided))
        E.Reason = PyTorchProvidedReason;
  const size_t N = S->walked();
  std::vector<std::vector<contract::Finding>> Extra(N);
  std::vector<json::Array> Placements(N);
  auto sliceOf = [&](size_t I, const std::string &Arch) {
    return S->images()[I].Info.Slices.size() > 1 ? Arch : std::string();
  };
  for (const shipment::Edge &E : C.Edges) {
    if (E.Repeat || E.Image >= N)
      continue;
    // The text layout prints no placement: build them for JSON only.
    if (Contract.Portable && Json)
      Placements[E.Image].push_back(edgeRecord(*S, C, E));
    bool Unknown = E.Where == shipment::Outcome::Unknown;
    if (!Contract.Portable || (!E.violation() && !Unknown))
      continue;
    contract::Finding F;
    F.Kind = Unknown ? contract::FindingKind::Unknown : contract::FindingKind::Violation;
    F.Slice = sliceOf(E.Image, E.Slice);
    F.Dependency = E.Dependency;
    F.Rule = "portable";
    F.Placement = shipment::outcomeName(E.Where);
    F.Advice = E.Advice; // the resolver's own, when it has one
    F.Tried = E.Tried;   // what the search that placed it tried (--why)
    F.TriedNotListed = E.TriedNotListed;
    F.HostEntriesOnly = E.HostEntriesOnly;
    F.Message = edgeMessage(*S, C, E);
    Extra[E.Image].push_back(std::move(F));
  }
  for (const shipment::Root &R : C.Roots)
    for (const std::string &M : R.Refusals) {
      if (R.Image >= N)
        continue;
      contract::Finding F;
      F.Slice = sliceOf(R.Image, R.Arch);
      F.Rule = "portable";
      F.Placement = "refused";
      F.Message = M;
      Extra[R.Image].push_back(std::move(F));
    }
  // What one process holds (--unique, --forbid by exports, one definer),
  // judged over a closure CC: each finding to Put(image, finding).
  auto processRules = [&](const shipment::Closure &CC,
                          function_ref<void(size_t, contract::Finding)> Put) {
    uniqueFindings(*S, CC, [&](size_t I) { return I < N; }, Put);
    if (!ForbidRuntimes.empty()) {
      std::vector<std::vector<contract::Finding>> Forbidden(N);
      forbiddenRuntimes(*S, CC, ForbidRuntimes, [&](const shipment::Edge &E) {
        return E.Image < N ? &Forbidden[E.Image] : nullptr;
      });
      for (size_t I = 0; I < N; ++I)
        for (contract::Finding &F : Forbidden[I])
          Put(I, std::move(F));
    }
    // One definer per symbol in each closure (shipment/Definers.h): the
    // finding is the later-loaded image's, naming the first.
    if (OneDefiner && WithClosure) {
      shipment::Definers D = shipment::findDuplicateDefinitions(*S, CC);
      for (const shipment::DuplicateDefinitions &Dup : D.Duplicates)
        if (Dup.Second < N)
          Put(Dup.Second, definerFinding(*S, CC, Dup, sliceOf(Dup.Second, Dup.Slice)));
      for (const shipment::UnreadableExports &U : D.Unreadable)
        if (U.Image < N)
          Put(U.Image, unreadableExportsFinding(*S, CC, U, sliceOf(U.Image, U.Slice)));
    }
  };
  processRules(C, [&](size_t I, contract::Finding F) { Extra[I].push_back(std::move(F)); });
  // A machine whose ld.so searches fewer subdirectories loads other files
  // where this closure depends on them: its process is judged too, when a
  // rule judges a process.
  const shipment::MachineClosure *OtherTruncated = nullptr;
  std::vector<shipment::MachineClosure> Others;
  if (!TreeCO.Unique.empty() || !ForbidRuntimes.empty() || (OneDefiner && WithClosure))
    Others = shipment::otherMachineClosures(*S, C, TreeCO);
  for (const shipment::MachineClosure &M : Others) {
    processRules(M.C, [&](size_t I, contract::Finding F) {
      addMachineFinding(Extra[I], std::move(F), M.Searched);
    });
    if (!OtherTruncated && M.C.Truncated)
      OtherTruncated = &M;
  }
  if (C.Truncated || OtherTruncated) {
    ++T.Undecided;
    errs() << "linkguard: error: " << printable(Path) << ": the load closure"
           << (C.Truncated ? "" : shipment::machineNote(OtherTruncated->Searched))
           << " is too large to resolve (more than " << CO.MaxEdges
           << " dependencies, search entries x names, candidates and links tried): undecided\n";
  }
  // Code signatures read the bytes: a directory's files from their path, a
  // zip's members in one more pass over the archive (the walk kept none).
  if (Signatures && S->kind() == shipment::Shipment::Kind::Zip) {
    package::ContainerOptions Again = Walk;
    Again.Scan = false;
    consumeError(package::forEachImage(
        Path, Again,
        [&](const package::Image &Img) {
          const std::string Rel = Img.Member.empty() ? "" : contract::normalizePath(Img.Member);
          for (size_t I = 0; I < N; ++I) {
            const shipment::ShippedImage &SI = S->images()[I];
            // A wheel's or .pt2's member keeps its name in Member (Rel is
            // where it is installed or extracted).
            const std::string &Name = SI.Member.empty() ? SI.Rel : SI.Member;
            if (Name != Rel || SI.Offset != Img.Offset || SI.Info.Fmt != objlib::Format::MachO)
              continue;
            contract::Verdict Sig;
            signature::judgeSignatures(Img.Data.getBuffer(), *Signatures, S->printName(I),
                                       SI.Info.Universal, Sig);
            for (contract::Finding &F : Sig.Findings)
              Extra[I].push_back(std::move(F));
          }
        },
        [](const std::string &, Error E) { consumeError(std::move(E)); }));
  } else if (Signatures) {
    for (size_t I = 0; I < N; ++I) {
      contract::Verdict Sig;
      judgeSignaturesAt(S->absPath(I), S->printName(I), S->images()[I].Info, *Signatures, Sig);
      for (contract::Finding &F : Sig.Findings)
        Extra[I].push_back(std::move(F));
    }
  }
  const bool AnyPerFile = !PerFile.Forbid.empty() || !PerFile.Require.empty() ||
                          !PerFile.ForbidUnreferenced.empty() || PerFile.FailOnUnused;
  for (size_t I = 0; I < N; ++I) {
    objlib::BinaryInfo &Info = S->images()[I].Info;
    contract::Verdict V;
    if (AnyPerFile) {
      // The drop flag of this image's format (a tree may hold both).
      contract::ContractSpec Mine = PerFile;
      Mine.DropFlag = dropFlagFor(Info.Fmt);
      V = contract::judge(Info, Mine, contract::realFileProbe());
    }
    // What the closure does not judge: the file's own install name and
    // dyld's load-time refusals (--portable's per-file part).
    if (Contract.Portable)
      contract::judgeLoadability(Info, V);
    for (contract::Finding &F : Extra[I])
      V.Findings.push_back(std::move(F));
    if (Contract.Portable && !Platform.empty())
      contract::judgePlatform(Info, Platform, [&](StringRef D) {
        return llvm::any_of(C.Edges, [&](const shipment::Edge &E) {
          return E.Image == I && E.Dependency == D && E.Where == shipment::Outcome::Shipped;
        });
      }, V);
    contract::AdviceContext Advice;
    Advice.Fmt = Info.Fmt;
    // Only a finding reads it: the ELF flag is parsed from the shipped
    // rules (a tenth of a clean tree's check, issue 36).
    if (!V.Findings.empty())
      Advice.DropFlag = dropFlagFor(Info.Fmt);
    Advice.From = pytorchImage(I) ? contract::Origin::PyTorchExport : contract::Origin::Link;
    Advice.ExecutableGiven = !CO.Executable.empty();
    json::Object R = fileRecord(Info, V, Advice, shipmentContainer(*S, I),
                                Contract.Portable ? json::Value(std::move(Placements[I]))
                                                  : json::Value(nullptr),
                                T, imageNames(*S, I));
    putName(R, "path", S->printName(I));
    ++T.Files;
    Out.result(std::move(R));
  }
  // What the tree ships inside its archives ships too.
  package::ContainerOptions InTree = Containers;
  InTree.EmptyIsFine = true;
  InTree.Limits = shipment::treeZipLimits(Containers.Limits, Path, S->containers());
  for (const shipment::TreeContainer &K : S->containers()) {
    std::string File = contract::joinPath(Path, K.Rel);
    if (WithClosure && package::classifyInput(File) == package::InputKind::Zip) {
      checkTree(File, Contract, CO, WithClosure, Signatures, OneDefiner, BasePlatform, Read,
                InTree, JudgeFile,
                Json, Out, T,
                Status, /*Nested=*/true, K.PrefixIsImage);
    } else if (!K.Archive) {
      // A .pte (or, with --scan, any other file): the images in it, as its
      // runtime writes them out and dlopens them, without --scan.
      package::ContainerOptions Scanned = InTree;
      Scanned.Scan = true;
      JudgeFile(File, Scanned, K.PrefixIsImage);
    } else {
      JudgeFile(File, InTree, K.PrefixIsImage);
    }
  }
  if (!Nested && T.Files == FilesBefore) {
    // Nothing was judged: say what the tree holds and what to add, rather
    // than "holds".
    std::string Why = Path + ": no Mach-O or ELF image to judge in the tree";
    std::vector<std::string> Found;
    if (!S->skipped().empty())
      Found.push_back(std::to_string(S->skipped().size()) + " object file(s) (" +
                      S->skipped().front().Name + ", ...: linked into images, never loaded)");
    if (!S->models().empty())
      Found.push_back(std::to_string(S->models().size()) + " ExecuTorch program(s) (" +
                      contract::joinPath(Path, S->models().front().Rel) +
                      ", ...: no Mach-O or ELF image embedded)");
    size_t Zips = 0;
    std::string FirstZip;
    for (const shipment::TreeContainer &K : S->containers())
      if (K.Archive && Zips++ == 0)
        FirstZip = contract::joinPath(Path, K.Rel);
    if (Zips)
      Found.push_back(std::to_string(Zips) + " archive(s) with no Mach-O or ELF member (" +
                      FirstZip + ", ...: a .pt2 exported without AOTInductor holds no compiled model)");
    if (!Found.empty())
      Why += "; found " + llvm::join(Found, "; ");
    Why += "; add what ships: the executables and shared libraries (a model's runner, its "
           "delegate libraries, an AOTInductor .pt2)";
    errs() << "linkguard: error: " << printable(Why) << "\n";
    fail({Path, "malformed", Why, driver::ExitCode::MalformedBinary});
  }
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
                     CL.Args.hasArg(OPT_unused, OPT_mps_aot, OPT_portable) ||
                     CL.Args.hasArg(OPT_unique_EQ);
  if (!AnyContract)
    return usageError(Spec, "no contract given (--forbid, --require, --forbid-unreferenced, "
                            "--unused, --mps-aot, --portable, --unique)");

  auto Out = makePrinter(CL.Args.hasArg(OPT_json), outs(), "linkguard-check/2",
                         DocumentShape::Files,
                         {CL.Args.hasArg(OPT_quiet)
                              ? Render()
                              : Render([Why = CL.Args.hasArg(OPT_why)](raw_ostream &OS,
                                                                 const json::Object &R) {
                                  printRecord(OS, R, Why);
                                }),
                          printSummary});
  const contract::FileProbe Exists = contract::realFileProbe();
  Totals T;
  int Status = 0;
  const objlib::ReadOptions Read = contract::readOptionsFor(Contract);
  shipment::ClosureOptions CO;
  CO.Unique = CL.Args.getAllArgValues(OPT_unique_EQ);
  for (const std::string &G : CO.Unique)
    if (!libnames::isGroupName(G) || G == "libsystem")
      return usageError(Spec, "--unique " + G + ": not a library family (openmp)");
  if (Contract.Portable) {
    if (!llvm::is_contained(CO.Unique, "openmp"))
      CO.Unique.push_back("openmp");
    CO.SearchDirs = Contract.Portable->SearchDirs;
    CO.Provided = Contract.Portable->Provided;
    CO.SystemList = Contract.Portable->SystemList;
  }
  if (const opt::Arg *Exe = CL.Args.getLastArg(OPT_executable_EQ)) {
    if (!Contract.Portable && CO.Unique.empty())
      return usageError(Spec, "--executable needs --portable or --unique");
    CO.Executable = Exe->getValue();
    // A file's @executable_path is the one its tree's closure would use.
    if (Contract.Portable)
      Contract.Portable->ExecutableDir =
          sys::path::parent_path(contract::mainProgramPath(absolutePath(CO.Executable)),
                                 sys::path::Style::posix)
              .str();
  }
  CO.Roots = CL.Args.getAllArgValues(OPT_root_EQ);
  const bool WithClosure = Contract.Portable || !CO.Unique.empty();
  SignatureScope Signatures;
  if (const opt::Arg *A = CL.Args.getLastArg(OPT_signatures_EQ, OPT_no_signatures)) {
    if (!Contract.Portable)
      return usageError(Spec, optionName(A) + " needs --portable");
    if (A->getOption().matches(OPT_signatures_EQ) && StringRef(A->getValue()) != "all" &&
        StringRef(A->getValue()) != "arm64")
      return usageError(Spec, "--signatures " + std::string(A->getValue()) +
                                  ": not arm64 or all");
  }
  // The last of --signatures and --no-signatures wins; arm64 by default.
  if (const opt::Arg *A = CL.Args.getLastArg(OPT_signatures_EQ, OPT_no_signatures);
      Contract.Portable && !(A && A->getOption().matches(OPT_no_signatures)))
    Signatures = A && StringRef(A->getValue()) == "all" ? signature::Scope::All
                                                        : signature::Scope::Arm64;
  // Rule one-definer: on under --portable, --no-one-definer turns it off.
  if (CL.Args.hasArg(OPT_no_one_definer) && !Contract.Portable)
    return usageError(Spec, "--no-one-definer needs --portable");
  const bool OneDefiner = Contract.Portable && !CL.Args.hasArg(OPT_no_one_definer);
  // --macos-min, or MACOSX_DEPLOYMENT_TARGET: every macOS slice (--portable).
  contract::PlatformTarget Platform;
  if (const opt::Arg *A = CL.Args.getLastArg(OPT_macos_min_EQ, OPT_platform_tag_EQ);
      A && !Contract.Portable)
    return usageError(Spec, optionName(A) + " needs --portable");
  if (Contract.Portable) {
    std::string Min, Source;
    if (const opt::Arg *A = CL.Args.getLastArg(OPT_macos_min_EQ)) {
      Min = A->getValue();
      Source = "--macos-min " + Min;
    } else if (const char *Env = getenv("MACOSX_DEPLOYMENT_TARGET"); Env && *Env) {
      Min = Env;
      Source = "MACOSX_DEPLOYMENT_TARGET=" + Min;
    }
    if (!Min.empty()) {
      std::optional<uint32_t> V = contract::parseMacOSVersion(Min);
      if (!V)
        return usageError(Spec, Source + ": not a macOS version (11.0, 10.15)");
      Platform.Mac.push_back({"", *V, false, Source});
    }
    // --platform-tag: the inputs promise what a wheel with that tag does.
    if (const opt::Arg *A = CL.Args.getLastArg(OPT_platform_tag_EQ)) {
      std::optional<contract::PlatformTarget> Tags =
          contract::wheelTarget("x-0-py3-none-" + std::string(A->getValue()) + ".whl");
      if (!Tags || StringRef(A->getValue()).contains('-') || Tags->empty())
        return usageError(Spec, "--platform-tag " + std::string(A->getValue()) +
                                    ": not a platform tag (macosx_11_0_arm64, "
                                    "manylinux_2_17_x86_64, ...)");
      for (auto &M : Tags->Mac)
        M.Source.replace(0, strlen("the wheel tag "), "--platform-tag ");
      for (auto &L : Tags->Linux)
        L.Source.replace(0, strlen("the wheel tag "), "--platform-tag ");
      Platform.Mac.insert(Platform.Mac.end(), Tags->Mac.begin(), Tags->Mac.end());
      Platform.Linux = Tags->Linux;
      Platform.Unknown = Tags->Unknown;
    }
  }
  if (!CO.Roots.empty() && !WithClosure)
    return usageError(Spec, "--root needs --portable or --unique");
  // linkguard.toml: [roots] (under the closure) and [[allow]].
  std::vector<config::AllowSpec> AllowSpecs;
  if (std::optional<std::string> Bad = configuredRoots(CO.Roots, &AllowSpecs)) {
    // Which files are roots, or what is allowed, is not known: no verdict.
    errs() << "linkguard: error: " << printable(*Bad) << "\n";
    return driver::toInt(driver::ExitCode::BadConfig);
  }
  if (!WithClosure)
    CO.Roots.clear();
  allow::AllowList Allow(std::move(AllowSpecs));
  T.Allow = &Allow;
  MemberConflicts Members;
  auto JudgeFile = [&](const std::string &Path, const package::ContainerOptions &Opts,
                       bool SkipPrefix) {
    forEachInputBinary(
        Path, Opts, Read,
        [&](const std::string &Name, objlib::BinaryInfo &Info, const package::Image *Source) {
          ++T.Files;
          std::vector<contract::Finding> Conflicts;
          if (!Source && !CO.Unique.empty())
            Conflicts = fileConflicts(Name, Contract, CO);
          if (std::vector<std::string> G = forbiddenRuntimeGroups(Contract); !Source && !G.empty())
            for (contract::Finding &F : fileForbiddenRuntimes(Name, G, CO))
              Conflicts.push_back(std::move(F));
          else if (Source && !CO.Unique.empty())
            Conflicts = Members.of(*Source, Name, CO, Opts);
          if (Signatures) {
            contract::Verdict Sig;
            if (Source && Info.Fmt == objlib::Format::MachO)
              signature::judgeSignatures(Source->Data.getBuffer(), *Signatures, Name,
                                         Info.Universal, Sig);
            else if (!Source)
              judgeSignaturesAt(Name, Name, Info, *Signatures, Sig);
            for (contract::Finding &F : Sig.Findings)
              Conflicts.push_back(std::move(F));
          }
          // A wheel's member: the wheel's tags too.
          contract::PlatformTarget FilePlatform = Platform;
          if (Contract.Portable && Source && Source->Archive)
            if (std::optional<contract::PlatformTarget> Tags =
                    contract::wheelTarget(Source->Container)) {
              FilePlatform.Mac.insert(FilePlatform.Mac.end(), Tags->Mac.begin(), Tags->Mac.end());
              FilePlatform.Linux = Tags->Linux;
              FilePlatform.Unknown = Tags->Unknown;
            }
          // checkRecord counts their unknowns with the file's.
          Out->result(checkRecord(Name, Info, Source, Contract, Exists, T, std::move(Conflicts),
                                  &CO, &FilePlatform, OneDefiner));
        },
        [&](const InputFailure &F) {
          ++T.Files;
          ++T.Errors;
          Out->error(F.record());
          noteStatus(Status, F.Code);
        },
        SkipPrefix);
  };
  for (const std::string &Path : CL.Positionals) {
    if (isTreeInput(Path, WithClosure && !CL.Args.hasArg(OPT_scan))) {
      checkTree(Path, Contract, CO, WithClosure, Signatures, OneDefiner, Platform, Read,
                Containers, JudgeFile,
                CL.Args.hasArg(OPT_json), *Out, T, Status);
      continue;
    }
    JudgeFile(Path, Containers, false);
  }
  bool Holds = T.Violations == 0 && T.Errors == 0 && T.Undecided == 0;
  // A stale entry (it matched no finding): said, the verdict unchanged.
  for (const config::AllowSpec *S : Allow.stale())
    driver::printDiagnostic(
        "warning", printable(S->Origin) + ": [[allow]] " + config::allowKindName(S->Kind) + " " +
                       printable(S->Value) + " for file " + printable(S->File) +
                       " matched no finding: remove it, or fix its globs");
  // What the closure was asked: the families kept to one runtime (--unique,
  // and openmp under --portable) and the main program (--executable).
  json::Object ContractRecord = contractRecord(Contract);
  ContractRecord["unique"] = CO.Unique;
  ContractRecord["executable"] =
      CO.Executable.empty() ? json::Value(nullptr) : json::Value(CO.Executable);
  Out->finish(json::Object{
      {"contract", std::move(ContractRecord)},
      {"summary", json::Object{{"files", T.Files},
                               {"violations", T.Violations},
                               {"kept", T.Kept},
                               {"unknown", T.Unknown},
                               {"errors", T.Errors},
                               {"undecided", T.Undecided},
                               {"skipped", T.Skipped},
                               {"allowed", T.Allowed},
                               {"holds", Holds}}}});
  // A file that could not be read wins, then a violation, then a verdict
  // that could not be decided (a tree past its bounds, an unknown).
  if (Status != 0 && Status != driver::toInt(driver::ExitCode::Undecided))
    return Status;
  if (T.Violations)
    return driver::toInt(driver::ExitCode::Violation);
  // A closure that cannot be decided did not hold (docs/check.md).
  return driver::toInt(T.Undecided || Status != 0 ? driver::ExitCode::Undecided
                                                  : driver::ExitCode::Success);
}

} // namespace linkguard::commands
