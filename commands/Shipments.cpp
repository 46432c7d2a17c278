//===- Shipments.cpp - trees for check and inspect --------------------------===//
#include "commands/Shipments.h"

#include "commands/Printer.h"
#include "config/Config.h"
#include "config/Rules.h"
#include "objlib/Reader.h"
#include "support/Printable.h"

#include "package/Container.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace linkguard::commands {

namespace {

json::Value orNull(const std::string &S) { return S.empty() ? json::Value(nullptr) : json::Value(S); }

} // namespace

bool isTreeInput(const std::string &Path, bool Zip) {
  if (sys::fs::is_directory(Path))
    return true;
  return Zip && package::classifyInput(Path) == package::InputKind::Zip;
}

std::unique_ptr<shipment::Shipment>
openShipment(const std::string &Path, const std::string &Root, const objlib::ReadOptions &Read,
             function_ref<void(const InputFailure &)> OnFailure,
             const package::ContainerOptions &Opts, bool SkipPrefix) {
  auto report = [&](const InputFailure &F) {
    errs() << "linkguard: error: " << printable(F.Message) << "\n";
    OnFailure(F);
  };
  shipment::TreeLimits Limits;
  Limits.KeepOthers = Opts.Scan; // --scan: every other file may be a blob with images
  Expected<std::unique_ptr<shipment::Shipment>> S =
      sys::fs::is_directory(Path) ? shipment::Shipment::directory(Path, Read, Limits)
      : package::classifyInput(Path) == package::InputKind::Zip
          ? shipment::Shipment::zip(Path, Read, Opts, SkipPrefix)
          : shipment::Shipment::file(Path, Root, Read);
  if (!S) {
    report(InputFailure::from(Path, S.takeError()));
    return nullptr;
  }
  for (const shipment::ShipmentFailure &F : (*S)->failures())
    report(InputFailure::from(F.Name, make_error<objlib::ReadError>(F.Kind, F.Message)));
  return std::move(*S);
}

std::optional<std::string> configuredRoots(std::vector<std::string> &Roots,
                                           std::vector<config::AllowSpec> *Allow) {
  Expected<config::Config> Cfg = config::configFromEnvironment();
  if (!Cfg)
    return toString(Cfg.takeError());
  // [roots] says what ships; LINKGUARD=off and LINKGUARD_RULES=off turn
  // the wrapper's rules off, not what a check judges.
  config::Config C = *Cfg;
  C.RunMode = config::Mode::Default;
  C.RulesEnabled = true;
  config::Rules R = config::loadRules(C);
  if (R.Error)
    return R.Error;
  Roots.insert(Roots.end(), R.Roots.begin(), R.Roots.end());
  if (Allow)
    *Allow = std::move(R.Allow);
  return std::nullopt;
}

size_t undecidedRoots(const std::string &Path, const shipment::Shipment &S,
                      const shipment::ClosureOptions &CO) {
  size_t N = 0;
  std::vector<std::string> Unmatched;
  shipment::rootsNamed(S, CO, &Unmatched);
  for (const std::string &R : Unmatched) {
    errs() << "linkguard: error: " << printable(Path) << ": --root " << printable(R)
           << " names no Mach-O or ELF file of the tree: undecided\n";
    ++N;
  }
  for (const std::string &Why : S.undecided()) {
    errs() << "linkguard: error: " << printable(Path) << ": " << printable(Why)
           << ": undecided\n";
    ++N;
  }
  return N;
}

std::string edgeMessage(const shipment::Shipment &S, const shipment::Closure &C,
                        const shipment::Edge &E) {
  std::string M = std::string(objlib::dependencyKindName(E.Kind)) + " " + E.Dependency + " (" +
                  E.Slice + ")";
  const shipment::Root &R = C.Roots[E.Root];
  if (R.Image != E.Image)
    M += ", loaded under " + S.printName(R.Image) + ",";
  return M + " " + E.Reason;
}

std::string conflictMessage(const shipment::Shipment &S, const shipment::Closure &C,
                            const shipment::Conflict &K) {
  const shipment::Root &R = C.Roots[K.Root];
  // A member by its exports says so: its name does not.
  auto marked = [](const std::string &Marker) {
    return Marker.empty() ? std::string() : ", a runtime by its exports: it defines " + Marker;
  };
  std::string M = "the load closure of " + S.printName(R.Image) + " (" + R.Arch +
                  ") holds two " + K.Group + " runtimes: " + K.First + " (loaded by " +
                  K.FirstVia + marked(K.FirstMarker) + ") and " + K.Second + " (loaded by " +
                  K.SecondVia + marked(K.SecondMarker) + ")";
  if (K.Abort)
    M += std::string("; the second to start aborts the process: \"") + K.Abort + "\"";
  else
    M += "; each keeps its own thread pool and settings in one process";
  return M;
}

contract::Finding definerFinding(const shipment::Shipment &S, const shipment::Closure &C,
                                 const shipment::DuplicateDefinitions &D,
                                 const std::string &Slice, bool OnSecond) {
  constexpr size_t MaxListed = 8, MaxSymbols = 64;
  contract::Finding F;
  F.Slice = Slice;
  F.Rule = "one-definer";
  F.Dependency = S.printName(D.First);
  const size_t N = D.Symbols.size();
  std::string Names;
  for (size_t I = 0; I < N && I < MaxListed; ++I)
    Names += (I ? ", " : "") + D.Symbols[I];
  if (N > MaxListed)
    Names += " and " + std::to_string(N - MaxListed) + " more";
  const shipment::Root &R = C.Roots[D.Root];
  F.Message = (OnSecond ? std::string() : S.printName(D.Second) + " ") + "defines " +
              std::to_string(N) + (N == 1 ? " name" : " names") + " that " +
              S.printName(D.First) + " defines too (" + Names + "), and the load closure of " +
              S.printName(R.Image) + " (" + D.Slice +
              ") holds both: two copies of their code and state in one process (the loader "
              "binds the other images' references to " +
              S.printName(D.First) + "'s, loaded first)";
  F.Symbols.assign(D.Symbols.begin(),
                   D.Symbols.begin() + static_cast<std::ptrdiff_t>(std::min(N, MaxSymbols)));
  F.SymbolsNotListed = N - F.Symbols.size();
  return F;
}

contract::Finding unreadableExportsFinding(const shipment::Shipment &S,
                                           const shipment::Closure &C,
                                           const shipment::UnreadableExports &U,
                                           const std::string &Slice) {
  contract::Finding F;
  F.Kind = contract::FindingKind::Unknown;
  F.Slice = Slice;
  F.Rule = "one-definer";
  F.Message = "its exports cannot be read (" + U.Why + "), so whether the load closure of " +
              S.printName(C.Roots[U.Root].Image) + " (" + U.Slice +
              ") has one definer per symbol cannot be decided";
  return F;
}

contract::Finding unreadableMemberFinding(const shipment::Shipment &S,
                                          const shipment::Closure &C,
                                          const shipment::UnreadableMember &U,
                                          const std::string &Slice) {
  const shipment::Root &R = C.Roots[U.Root];
  contract::Finding F;
  F.Kind = contract::FindingKind::Unknown;
  F.Slice = Slice;
  F.Dependency = U.Id;
  F.Rule = "unique " + U.Group;
  F.Message = U.Id + " (loaded by " + U.Via + "): " +
              (!U.Undecided.empty() ? "which file the loader loads cannot be decided (" +
                                          U.Undecided + ")"
               : U.Why.empty()      ? std::string("linkguard cannot read it")
                                    : "its exports cannot be read (" + U.Why + ")") +
              ", so whether the load closure of " + S.printName(R.Image) + " (" + R.Arch +
              ") holds two " + U.Group + " runtimes cannot be decided";
  return F;
}

json::Object edgeRecord(const shipment::Shipment &S, const shipment::Closure &C,
                        const shipment::Edge &E) {
  json::Object O{{"slice", E.Slice},
                 {"kind", objlib::dependencyKindName(E.Kind)},
                 {"placement", shipment::outcomeName(E.Where)},
                 {"resolvedPath", nullptr},
                 {"via", nullptr},
                 {"file", nullptr},
                 {"allowed", E.Allowed}};
  // Every name from a file or the tree, as every record has them (a name
  // that is not UTF-8 also as its exact bytes, escaped: Printer.h).
  putName(O, "dependency", E.Dependency);
  putName(O, "reason", E.Reason);
  putName(O, "root", S.printName(C.Roots[E.Root].Image));
  if (!E.ResolvedPath.empty())
    putName(O, "resolvedPath", E.ResolvedPath);
  if (!E.Via.empty())
    putName(O, "via", E.Via);
  if (E.Target)
    putName(O, "file", S.printName(*E.Target));
  return O;
}

json::Value shipmentContainer(const shipment::Shipment &S, size_t Image) {
  if (S.kind() != shipment::Shipment::Kind::Zip)
    return nullptr;
  // The binary in front of the archive, or (--scan) an image inside a
  // member, as containerToJSON has them.
  if (std::optional<uint64_t> Offset = S.images()[Image].Offset) {
    const std::string &Member = S.images()[Image].Member;
    return json::Object{{"path", S.given()},
                        {"kind", "embedded"},
                        {"member", Member.empty() ? json::Value(nullptr) : json::Value(Member)},
                        {"offset", static_cast<int64_t>(*Offset)}};
  }
  return json::Object{{"path", S.given()},
                      {"kind", "zip"},
                      {"member", S.images()[Image].Member},
                      {"offset", nullptr}};
}

namespace {

constexpr unsigned MaxTreeDepth = 256;

json::Array childrenOf(const shipment::Shipment &S, const shipment::Closure &C,
                       const shipment::Root &R, size_t Image, DenseSet<size_t> &Shown,
                       unsigned Depth, bool Why) {
  json::Array A;
  for (size_t EI : R.Edges) {
    const shipment::Edge &E = C.Edges[EI];
    if (E.Image != Image)
      continue;
    json::Object O = edgeRecord(S, C, E);
    O.erase("root");
    O.erase("rootEscaped");
    O.erase("slice");
    bool Expand = E.Target && Shown.insert(*E.Target).second && Depth < MaxTreeDepth;
    O["shownAbove"] = E.Target && !Expand;
    if (Why)
      putTried(O, E.Tried, E.TriedNotListed);
    O["dependencies"] = Expand
                            ? json::Value(childrenOf(S, C, R, *E.Target, Shown, Depth + 1, Why))
                            : json::Value(json::Array());
    A.push_back(std::move(O));
  }
  return A;
}

void printChildren(raw_ostream &OS, const json::Array &A, unsigned Depth) {
  for (const json::Value &V : A) {
    const json::Object &O = *V.getAsObject();
    OS.indent(4 * Depth) << printableName(O, "dependency");
    std::string Place = str(O, "placement");
    if (O.getString("file"))
      OS << " => " << printableName(O, "file");
    else if (Place == "unresolved")
      OS << " => not found";
    OS << " [" << Place;
    if (O.getBoolean("allowed").value_or(false))
      OS << ", allowed";
    if (!str(O, "via").empty())
      OS << ": " << printableName(O, "via");
    OS << "]";
    if (Place != "system" && Place != "shipped" && Place != "provided")
      OS << " " << printableName(O, "reason");
    if (O.getBoolean("shownAbove").value_or(false))
      OS << " (shown above)";
    OS << "\n";
    // --why: the paths tried, at an indent no dependency line has.
    printTried(OS, O, 4 * Depth + 2);
    if (const json::Array *Sub = O.getArray("dependencies"))
      printChildren(OS, *Sub, Depth + 1);
  }
}

} // namespace

json::Object rootRecord(const shipment::Shipment &S, const shipment::Closure &C, size_t RI,
                        bool Why) {
  const shipment::Root &R = C.Roots[RI];
  DenseSet<size_t> Shown{R.Image};
  json::Object O{{"arch", R.Arch},
                 {"executable", R.Executable},
                 {"executableDir", orNull(R.ExecutableDir)},
                 {"container", shipmentContainer(S, R.Image)},
                 {"dependencies", childrenOf(S, C, R, R.Image, Shown, 1, Why)},
                 {"rootReason", nullptr}};
  json::Array Refusals;
  for (const std::string &M : R.Refusals)
    Refusals.push_back(M);
  O["refusals"] = std::move(Refusals);
  putName(O, "path", S.printName(R.Image));
  if (!R.Named.empty())
    putName(O, "rootReason", R.Named);
  return O;
}

void printRootRecord(raw_ostream &OS, const json::Object &R) {
  OS << printableName(R, "path") << " (" << str(R, "arch")
     << (R.getBoolean("executable").value_or(false) ? ", executable" : ", root");
  if (R.getString("rootReason"))
    OS << ": " << printableName(R, "rootReason");
  OS << ")\n";
  if (const json::Array *A = R.getArray("refusals"))
    for (const json::Value &V : *A)
      OS.indent(4) << "refused: " << printable(V.getAsString().value_or("")) << "\n";
  if (const json::Array *A = R.getArray("dependencies"))
    printChildren(OS, *A, 1);
}

} // namespace linkguard::commands
