//===- Advice.cpp - the fix each finding names, as tables -----------------===//
#include "contract/Advice.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace linkguard::contract {

using llvm::StringRef;

namespace {

constexpr auto Posix = llvm::sys::path::Style::posix;

bool macho(const AdviceContext &C) { return C.Fmt == objlib::Format::MachO; }

/// The file name a dependency loads as (libomp.dylib from
/// /opt/llvm-openmp/lib/libomp.dylib or @rpath/libomp.dylib).
std::string leaf(const Finding &F) {
  return llvm::sys::path::filename(F.Dependency, Posix).str();
}

/// "export again under linkguard.inductor.use()": the link of a PyTorch
/// export is inductor's, and that call routes it through linkguard's
/// rules (docs/python.md). On Linux the rule that adds --as-needed is a
/// rules file's (examples/linkguard.toml), not built in.
std::string exportAgain(const AdviceContext &C) {
  std::string S = "export the model again under linkguard.inductor.use() (docs/python.md)";
  if (macho(C))
    return S + ": its link drops a library no symbol binds to (" +
           (C.DropFlag.empty() ? std::string("-Wl,-dead_strip_dylibs") : C.DropFlag) + ")";
  return S + " with LINKGUARD_CONFIG naming a rules file whose ELF rule adds " +
         (C.DropFlag.empty() ? std::string("-Wl,--as-needed") : C.DropFlag) +
         " (examples/linkguard.toml; docs/rules.md)";
}

/// Drop a dependency nothing binds to: the rule's flag on the link line.
std::string dropIt(const AdviceContext &C) {
  if (C.From == Origin::PyTorchExport)
    return exportAgain(C);
  return (C.DropFlag.empty() ? std::string() : "link with " + C.DropFlag + " or ") +
         "drop it from the link line" +
         (macho(C) ? " (a -needed-l / -needed_library keeps it)"
                   : " (a --no-as-needed before it keeps it)");
}

/// ELF without symbol versions: the file cannot say; the process can.
std::string undecidedBinding(const AdviceContext &) {
  return "the file cannot tell (no symbol versions): run linkguard try-load on it to see "
         "what a process maps, or give the library symbol versions (a version script)";
}

/// --forbid / --unique GROUP where a library's exports, or the library,
/// cannot be read: whether it is a runtime of the group is unknown.
std::string unreadableMember() {
  return "ship libraries linkguard can read (linkguard inspect FILE says what is wrong "
         "with one: a damaged export trie or .gnu.version, a file it cannot open): what "
         "a library defines tells a runtime under another name";
}

/// The phrase shipment's undecided placements carry (commands/
/// Shipments.cpp unreadableMemberFinding, Check.cpp forbiddenRuntimes).
constexpr const char *UndecidedLoad = "which file the loader loads cannot be decided";

std::string unreadableMember(const Finding &F) {
  if (StringRef(F.Message).contains(UndecidedLoad))
    return "make the search decidable: replace $LIB/$PLATFORM in the search paths with "
           "$ORIGIN-relative directories";
  return unreadableMember();
}

std::string forbid(const Finding &F, const AdviceContext &C) {
  if (F.Kind == FindingKind::Unknown)
    return unreadableMember(F);
  if (C.From == Origin::Process)
    return "remove the dependency on it from the image that loads it (named after "
           "'loaded by'; JSON: the image's via), or hide it (--hide) to see whether the "
           "process needs it";
  if (C.From == Origin::PyTorchExport)
    return "export the model again so that its link does not add " + leaf(F) +
           " (under linkguard.inductor.use(), a rules file decides what the link "
           "adds: docs/rules.md)";
  return "remove what adds it to the link (its -l option or file, or a library that "
         "re-exports it); code that calls it must go with it";
}

std::string forbidUnreferenced(const Finding &F, const AdviceContext &C) {
  switch (F.Kind) {
  case FindingKind::Violation:
  case FindingKind::Allowed: // the fix, should the allowance go
    return dropIt(C);
  case FindingKind::Kept:
    return "nothing to do: the code calls it; to be rid of it, remove those calls";
  case FindingKind::Unknown:
    return undecidedBinding(C);
  }
  return "";
}

std::string require(const Finding &F, const AdviceContext &C) {
  if (F.Kind == FindingKind::Unknown)
    return unreadableMember(); // a library whose exports cannot be read may be it
  StringRef Pat = F.Rule;
  Pat.consume_front("require ");
  if (C.From == Origin::Process)
    return "load a library that matches '" + Pat.str() +
           "' (a dependency of the file, or --call a function that loads it)";
  if (Pat.equals_insensitive("libsystem"))
    return "link against libSystem (no -nostdlib / -nodefaultlibs without -lSystem)";
  return "link against a library that matches '" + Pat.str() + "'";
}

std::string unused(const Finding &F, const AdviceContext &C) {
  switch (F.Kind) {
  case FindingKind::Violation:
  case FindingKind::Allowed: // the fix, should the allowance go
    return dropIt(C);
  case FindingKind::Kept:
    return "nothing to do: ld64 links libSystem into every image";
  case FindingKind::Unknown:
    return undecidedBinding(C);
  }
  return "";
}

// A portable finding's fix, by where its dependency stands.

/// A name the loader cannot find in what ships: ship it, point a search
/// path at it, or declare that the host provides it.
std::string shipOrProvide(const Finding &F, const AdviceContext &C) {
  const std::string L = leaf(F);
  StringRef D = F.Dependency;
  std::string Provide = "; or, if the process that loads it provides " + L +
                        ", --provided '" + L + "'";
  if (C.From == Origin::PyTorchExport)
    return "a model's library must be in the .pt2 or in the torch process that loads it: "
           "export again under linkguard.inductor.use() (docs/python.md)" +
           Provide;
  if (D.starts_with("/"))
    return macho(C)
               ? "ship " + L + " in the tree and load it as @rpath/" + L +
                     " (install_name_tool -change " + F.Dependency + " @rpath/" + L +
                     ", with an LC_RPATH that leads to it: -Wl,-rpath,@loader_path/...)" +
                     "; or, if every machine it runs on has " + F.Dependency +
                     ", --provided " + F.Dependency
               : "link it by its soname, not its path (or after the link: patchelf "
                     "--replace-needed " + F.Dependency + " " + L + "), and ship " + L +
                     " on a DT_RUNPATH $ORIGIN path (-Wl,-rpath,'$ORIGIN/../lib')" +
                     "; or, if every machine it runs on has " + F.Dependency +
                     ", --provided " + F.Dependency;
  if (macho(C) && D.starts_with("@"))
    return "ship " + L + " where the image's LC_RPATHs lead (or add one: " +
           "-Wl,-rpath,@loader_path/...), or name the application's library " +
           "directory with --search DIR" + Provide;
  if (D.contains('/'))
    return "link it by @rpath/ name or soname: a relative path is looked up from the "
           "process's current directory";
  return "ship " + L + " where a DT_RUNPATH $ORIGIN entry of the image leads " +
         "(-Wl,-rpath,'$ORIGIN/../lib'), or name the application's library directory " +
         "with --search DIR" + Provide;
}

std::string undecidedPlacement(const Finding &F, const AdviceContext &C) {
  StringRef D = F.Dependency;
  if (D.contains("@executable_path") && !C.ExecutableGiven)
    return "name the main program that loads it with --executable FILE";
  if (D.contains("$PLATFORM") || D.contains("${PLATFORM}") || D.contains("$LIB") ||
      D.contains("${LIB}"))
    return "judge it on the machine it runs on ($LIB and $PLATFORM are known only "
           "there), or use $ORIGIN paths";
  return "make its search decidable: an @executable_path name needs --executable, a "
         "$LIB / $PLATFORM search path the target machine, and a search past "
         "linkguard's bound fewer search paths; or --provided '" +
         leaf(F) + "' if the process provides it";
}

struct PlacementAdvice {
  const char *Placement; // placementName / shipment::outcomeName
  std::string (*Advise)(const Finding &, const AdviceContext &);
};

/// A file whose loading depends on the machine (shipment::Outcome::
/// HostDependent): the tree's own copy must win on every machine.
std::string hostDependent(const Finding &, const AdviceContext &C) {
  return std::string("drop the absolute (or empty, or relative) search entry, or order it after ") +
         (macho(C) ? "@loader_path" : "$ORIGIN") +
         " entries, so that the tree's own copy loads wherever it is unpacked";
}

/// A root the loader refuses outright (shipment::Root::Refusals: a
/// -z nodlopen library that is dlopened, a PT_INTERP that is not the
/// system's loader).
std::string refused(const Finding &, const AdviceContext &) {
  return "link it again without what the loader refuses: no -z nodlopen for a library "
         "that is dlopened, the system's loader as PT_INTERP (the linker's default "
         "--dynamic-linker)";
}

// clang-format off
const PlacementAdvice PlacementTable[] = {
    {"non-portable",   shipOrProvide},     // contract::Placement, shipment::Outcome
    {"unresolved",     shipOrProvide},     // shipment::Outcome (not weak)
    {"unknown",        undecidedPlacement},
    {"host-dependent", hostDependent},     // shipment::Outcome
    {"refused",        refused},           // shipment::Root::Refusals
};
// clang-format on

std::string portable(const Finding &F, const AdviceContext &C) {
  for (const PlacementAdvice &Row : PlacementTable)
    if (F.Placement == Row.Placement)
      return Row.Advise(F, C);
  return "";
}

std::string installName(const Finding &F, const AdviceContext &) {
  const std::string L = leaf(F);
  return "give it an @rpath/ name at its link (-Wl,-install_name,@rpath/" + L +
         ") or after it (install_name_tool -id @rpath/" + L + ")";
}

/// A code signature that does not cover the bytes (signature/): the
/// finding's own advice names the file; this is what stands without one.
std::string codeSignature(const Finding &, const AdviceContext &) {
  return "sign it after the last change to its bytes (install_name_tool and strip leave a "
         "stale signature): codesign -f -s - FILE, or your identity's codesign";
}

/// A wheel's tag or the target promises less than the files need
/// (contract/PlatformPolicy).
std::string platform(const Finding &, const AdviceContext &) {
  return "build for the target (MACOSX_DEPLOYMENT_TARGET, the architectures the tag "
         "names, an older manylinux toolchain), or tag the wheel for what its files need";
}

/// dyld's refusals: what undoes each, where one tool does; otherwise the
/// link that wrote the file (a tool that rewrote its load commands left
/// what dyld refuses).
std::string dyld(const Finding &F, const AdviceContext &) {
  StringRef Id = F.Rule;
  Id.consume_front("dyld ");
  if (Id == "duplicate-rpath")
    return "keep one LC_RPATH of each path: install_name_tool -delete_rpath PATH removes "
           "one copy (run it once per extra copy), or drop the repeated -rpath at the link";
  if (Id == "duplicate-linked-dylib")
    return "link each library once (a library named twice on the link line, or added "
           "again with install_name_tool -change)";
  if (Id == "id-dylib-missing")
    return "link the dylib with -dynamiclib (it then gets an LC_ID_DYLIB: "
           "-Wl,-install_name,@rpath/NAME)";
  if (Id == "uuid-missing")
    return "link without -no_uuid (ld64) / --no-uuid: dyld wants an LC_UUID";
  return "link the file again with the SDK's linker: a tool that rewrote its load commands "
         "or segments (install_name_tool, a strip or patch step) left what dyld refuses";
}

std::string unique(const Finding &F, const AdviceContext &C) {
  if (F.Kind == FindingKind::Unknown)
    return unreadableMember(F);
  StringRef Group = F.Rule;
  Group.consume_front("unique ");
  if (C.From == Origin::PyTorchExport)
    return "export the model again under linkguard.inductor.use() (docs/python.md): its "
           "link drops a runtime no symbol binds to; a model that calls " +
           Group.str() + " must use the runtime torch loads";
  return "keep one " + Group.str() +
         " runtime in the process: link every image against the same one (the one the "
         "host process loads), or drop the unused one" +
         (C.DropFlag.empty() ? std::string() : " (" + C.DropFlag + ")");
}

/// Two shipped images of one closure export the same strong name
/// (shipment/Definers.h): one copy of the code that defines it.
std::string oneDefiner(const Finding &F, const AdviceContext &) {
  if (F.Kind == FindingKind::Unknown)
    return "ship images whose dynamic symbol table or export trie can be read (linkguard "
           "inspect FILE says what is wrong with it), or check with --no-one-definer";
  return "link the code that defines these names into one shared library that both images "
         "load (a static library linked into two shared libraries is two copies), or hide "
         "it in one of them (-fvisibility=hidden, a version script or "
         "-Wl,-exported_symbols_list)";
}

struct RuleAdvice {
  const char *Word; // Finding::Rule's first word
  std::string (*Advise)(const Finding &, const AdviceContext &);
};

// clang-format off
const RuleAdvice RuleTable[] = {
    {"forbid",              forbid},
    {"forbid-unreferenced", forbidUnreferenced},
    {"require",             require},
    {"unused",              unused},
    {"portable",            portable},
    {"install-name",        installName},
    {"dyld",                dyld},
    {"unique",              unique},
    {"code-signature",      codeSignature},
    {"platform",            platform},
    {"one-definer",         oneDefiner},
};
// clang-format on

StringRef ruleWord(StringRef Rule) { return Rule.split(' ').first; }

} // namespace

std::string adviceFor(const Finding &F, const AdviceContext &C) {
  for (const RuleAdvice &Row : RuleTable)
    if (ruleWord(F.Rule) == Row.Word)
      return Row.Advise(F, C);
  return "";
}

std::string adviceText(const Finding &F, const AdviceContext &C) {
  std::string A = adviceFor(F, C);
  if (A.empty()) // a defect: tests/unit/AdviceTest.cpp
    A = "linkguard knows no fix for rule '" + F.Rule + "'" +
        (F.Placement.empty() ? std::string() : " (" + F.Placement + ")") + "; please report it";
  return A;
}

void advise(Verdict &V, const AdviceContext &C) {
  for (Finding &F : V.Findings)
    // A link's fix already given (the resolver's own, or judge()'s) stays;
    // another origin (a .pt2's member) has its own.
    if (F.Advice.empty() || C.From != Origin::Link)
      F.Advice = adviceText(F, C);
}

std::vector<StringRef> advisedRules() {
  std::vector<StringRef> Out;
  for (const RuleAdvice &Row : RuleTable)
    Out.push_back(Row.Word);
  return Out;
}

std::vector<StringRef> advisedPlacements() {
  std::vector<StringRef> Out;
  for (const PlacementAdvice &Row : PlacementTable)
    Out.push_back(Row.Placement);
  return Out;
}

bool placementIsFine(StringRef Placement) {
  return Placement == "system" || Placement == "shipped" || Placement == "provided";
}

const std::vector<Pattern> &pytorchProvided() {
  // PyTorch's own shared libraries (torch/lib in a torch wheel: libtorch,
  // libtorch_cpu, libtorch_cuda, libtorch_python, libc10, libc10_cuda): a
  // .pt2 is loaded by torch._inductor.aoti_load_package in a process that
  // has them mapped already.
  static const std::vector<Pattern> P = {{"libtorch*"}, {"libc10*"}};
  return P;
}

} // namespace linkguard::contract
