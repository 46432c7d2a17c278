//===- RulesFile.cpp - find and read linkguard.toml with toml++ -----------===//
//
// toml++ (Debian libtomlplusplus-dev 3.3) is used header-only and without
// exceptions: parse() then returns a parse_result carrying the error and its
// source position, and every node and key keeps its own source region, which
// is where the line numbers in the error messages come from.
//
//===----------------------------------------------------------------------===//
#include "config/RulesFile.h"

#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

#include "flags/BoundedRead.h"
#include "flags/BuiltinRules.h"
#include "config/RefusedFlags.h"
#include "config/TomlGuard.h"
#include "support/EnumNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"

#include <fcntl.h>

#include <optional>
#include <set>

namespace linkguard::config {

using namespace flags;

namespace {

/// Accumulates the first error; the parse stops at it.
class Reader {
public:
  explicit Reader(std::string Path) : Path(std::move(Path)) {}

  bool failed() const { return !Error.empty(); }

  void fail(const toml::source_region &Where, const std::string &Msg) {
    if (failed())
      return;
    Error = Path + ":" + std::to_string(Where.begin.line) + ": " + Msg + InRule;
  }

  llvm::Error takeError() {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Error);
  }

  /// Fails on any key of T that Allowed does not list.
  void onlyKeys(const toml::table &T, const std::string &Where,
                std::initializer_list<const char *> Allowed) {
    for (auto &&[K, V] : T) {
      bool Known = false;
      for (const char *A : Allowed)
        Known |= K.str() == A;
      if (Known)
        continue;
      std::string Names;
      for (const char *A : Allowed)
        Names += std::string(Names.empty() ? "" : ", ") + A;
      fail(K.source(), "unknown key '" + qualified(Where, K.str()) +
                           "' (expected one of: " + Names + ")");
      return;
    }
  }

  static std::string qualified(const std::string &Where, std::string_view Key) {
    return Where.empty() ? std::string(Key) : Where + "." + std::string(Key);
  }

  std::optional<std::string> string(const toml::table &T, const std::string &Where,
                                    const char *Key) {
    const toml::node *N = T.get(Key);
    if (!N)
      return std::nullopt;
    if (const toml::value<std::string> *V = N->as_string())
      return V->get();
    fail(N->source(), "'" + qualified(Where, Key) + "' must be a string");
    return std::nullopt;
  }

  std::optional<bool> boolean(const toml::table &T, const std::string &Where,
                              const char *Key) {
    const toml::node *N = T.get(Key);
    if (!N)
      return std::nullopt;
    if (const toml::value<bool> *V = N->as_boolean())
      return V->get();
    fail(N->source(), "'" + qualified(Where, Key) + "' must be true or false");
    return std::nullopt;
  }

  /// A string or an array of strings.
  std::vector<std::string> strings(const toml::table &T, const std::string &Where,
                                   const char *Key) {
    std::vector<std::string> Out;
    const toml::node *N = T.get(Key);
    if (!N)
      return Out;
    if (const toml::value<std::string> *V = N->as_string()) {
      Out.push_back(V->get());
      return Out;
    }
    const toml::array *A = N->as_array();
    if (!A) {
      fail(N->source(), "'" + qualified(Where, Key) +
                            "' must be a string or an array of strings");
      return Out;
    }
    for (const toml::node &E : *A) {
      const toml::value<std::string> *V = E.as_string();
      if (!V) {
        fail(E.source().begin.line ? E.source() : N->source(),
             "'" + qualified(Where, Key) + "' must hold strings only");
        return {};
      }
      Out.push_back(V->get());
    }
    return Out;
  }

  /// Globs must compile: a typo like "[abc" fails here, not silently later.
  std::vector<std::string> globs(const toml::table &T, const std::string &Where,
                                 const char *Key) {
    std::vector<std::string> Out = strings(T, Where, Key);
    for (const std::string &G : Out)
      if (auto P = llvm::GlobPattern::create(G); !P) {
        std::string Msg = llvm::toString(P.takeError());
        fail(T.get(Key)->source(), "'" + qualified(Where, Key) + "': bad pattern '" +
                                       G + "': " + Msg);
        return {};
      }
    return Out;
  }

  /// The one of Allowed that NameOf spells S, read from Key; any other
  /// string fails, listing the names of Allowed.
  template <class E, class NameFn>
  std::optional<E> oneOf(const toml::table &T, const std::string &Where,
                         const char *Key, const std::string &S,
                         std::initializer_list<E> Allowed, NameFn NameOf) {
    for (E V : Allowed)
      if (S == NameOf(V))
        return V;
    std::string Expected; // "a, b or c"
    for (auto [I, V] : llvm::enumerate(Allowed))
      Expected += std::string(I == 0                   ? ""
                              : I + 1 < Allowed.size() ? ", "
                                                       : " or ") +
                  NameOf(V);
    fail(T.get(Key)->source(), "'" + Where + "." + Key + "': unknown " + Key +
                                   " '" + S + "' (expected " + Expected + ")");
    return std::nullopt;
  }

  /// Key as a string naming one of Allowed ("position": "end").
  template <class E, class NameFn>
  std::optional<E> name(const toml::table &T, const std::string &Where,
                        const char *Key, std::initializer_list<E> Allowed,
                        NameFn NameOf) {
    if (std::optional<std::string> S = string(T, Where, Key))
      return oneOf(T, Where, Key, *S, Allowed, NameOf);
    return std::nullopt;
  }

  /// Key as a string or an array of strings, each naming one of Allowed
  /// ("phase": ["compile", "link"]).
  template <class E, class NameFn>
  std::vector<E> names(const toml::table &T, const std::string &Where,
                       const char *Key, std::initializer_list<E> Allowed,
                       NameFn NameOf) {
    std::vector<E> Out;
    for (const std::string &S : strings(T, Where, Key))
      if (std::optional<E> V = oneOf(T, Where, Key, S, Allowed, NameOf))
        Out.push_back(*V);
    return Out;
  }

  const toml::table *subtable(const toml::table &T, const std::string &Where,
                              const char *Key) {
    const toml::node *N = T.get(Key);
    if (!N)
      return nullptr;
    if (const toml::table *Sub = N->as_table())
      return Sub;
    fail(N->source(), "'" + qualified(Where, Key) + "' must be a table");
    return nullptr;
  }

  std::string Path;
  std::string Error;
  std::string InRule; // " (rule 'omp')" while reading a named rule
};

/// How a rules file spells an object format.
const char *formatKeyName(ObjectFormat F) {
  return F == ObjectFormat::ELF ? "elf" : "mach-o";
}

void readMatch(Reader &R, const toml::table &T, const std::string &W, RuleMatch &M) {
  R.onlyKeys(T, W,
             {"phase", "format", "output", "target", "defined", "not-defined",
              "libraries", "flags", "not-linked", "not-linked-dirs",
              "not-linked-probe", "aot", "jit-inputs", "already-present", "opt-out"});
  M.Phases = R.names(T, W, "phase",
                     {Phase::Probe, Phase::Preprocess, Phase::Pch,
                      Phase::Compile, Phase::Link},
                     phaseName);
  M.Format = R.name(T, W, "format", {ObjectFormat::ELF, ObjectFormat::MachO},
                    formatKeyName);
  M.Outputs = R.names(T, W, "output",
                      {OutputKind::Executable, OutputKind::SharedLibrary,
                       OutputKind::Bundle, OutputKind::Relocatable},
                      outputKindName);
  if (auto G = R.string(T, W, "target")) {
    if (auto P = llvm::GlobPattern::create(*G); !P) {
      std::string Msg = llvm::toString(P.takeError());
      R.fail(T.get("target")->source(), "'" + W + ".target': bad pattern: " + Msg);
    } else
      M.TargetGlob = *G;
  }
  M.Defined = R.strings(T, W, "defined");
  M.NotDefined = R.strings(T, W, "not-defined");
  M.Libraries = R.globs(T, W, "libraries");
  M.Flags = R.globs(T, W, "flags");
  M.NotLinked = R.globs(T, W, "not-linked");
  M.NotLinkedDirs = R.globs(T, W, "not-linked-dirs");
  M.NotLinkedProbe = R.strings(T, W, "not-linked-probe");
  M.Aot = R.boolean(T, W, "aot");
  M.JitInputs = R.globs(T, W, "jit-inputs");
  M.AlreadyPresent = R.strings(T, W, "already-present");
  M.OptOut = R.strings(T, W, "opt-out");
}

void readAdd(Reader &R, const toml::table &T, const std::string &W, RuleSpec &S) {
  R.onlyKeys(T, W, {"flags", "position"});
  S.Add = R.strings(T, W, "flags");
  if (!R.failed() && !S.Add.empty())
    if (std::optional<RefusedFlag> F = refusedRuleFlag(S.Add)) {
      // The line of the offending string inside the array, when toml++
      // recorded one.
      const toml::node *N = T.get("flags");
      const toml::array *A = N->as_array();
      const toml::node *E = A && F->Index < A->size() ? A->get(F->Index) : N;
      R.fail(E->source().begin.line ? E->source() : N->source(),
             "'" + W + ".flags': " + F->Why + "; a rules file may not add it");
    }
  if (auto P = R.name(T, W, "position",
                      {InsertPosition::End, InsertPosition::BeforeLibraries},
                      insertPositionName))
    S.Position = *P;
}

void readContract(Reader &R, const toml::table &T, const std::string &W,
                  ContractRequest &C) {
  R.onlyKeys(T, W,
             {"forbid-unreferenced", "forbid", "require", "require-only-mach-o",
              "report-search-paths"});
  C.ForbidUnreferenced = R.strings(T, W, "forbid-unreferenced");
  C.Forbid = R.strings(T, W, "forbid");
  C.Require = R.strings(T, W, "require");
  C.RequireOnlyForMachO = R.boolean(T, W, "require-only-mach-o").value_or(false);
  C.ReportSearchPaths = R.boolean(T, W, "report-search-paths").value_or(false);
}

std::optional<RuleSpec> readRule(Reader &R, const toml::table &T, size_t Index,
                                 const std::string &Path) {
  std::string W = "rule[" + std::to_string(Index) + "]";
  RuleSpec S;
  S.Origin = llvm::sys::path::filename(Path).str() + ":" +
             std::to_string(T.source().begin.line);
  auto Name = R.string(T, W, "name");
  if (!Name || Name->empty()) {
    R.fail(T.source(), "'" + W + ".name' is required");
    return std::nullopt;
  }
  S.Name = *Name;
  R.InRule = " (rule '" + S.Name + "')";
  R.onlyKeys(T, W, {"name", "description", "enabled", "match", "add", "contract"});
  S.Description = R.string(T, W, "description").value_or("");
  bool Enabled = R.boolean(T, W, "enabled").value_or(true);
  if (const toml::table *M = R.subtable(T, W, "match"))
    readMatch(R, *M, W + ".match", S.Match);
  if (const toml::table *A = R.subtable(T, W, "add"))
    readAdd(R, *A, W + ".add", S);
  if (const toml::table *C = R.subtable(T, W, "contract"))
    readContract(R, *C, W + ".contract", S.Contract);
  if (!R.failed() && S.Add.empty() && S.Contract.empty())
    R.fail(T.source(), W + " adds no flags and checks nothing: give "
                           "[rule.add] flags or a [rule.contract]");
  if (!R.failed())
    R.InRule.clear();
  if (!Enabled || R.failed())
    return std::nullopt;
  return S;
}

/// One [[allow]] table: file, exactly one of dependency / runpath /
/// symbol, and a reason that is not blank. Every fault names the table's
/// line (or the key's): an allow-list that cannot be read in full is no
/// allow-list (check stops with 78 rather than judge without it).
std::optional<AllowSpec> readAllow(Reader &R, const toml::table &T, size_t Index,
                                   const std::string &Path) {
  const std::string W = "allow[" + std::to_string(Index) + "]";
  R.onlyKeys(T, W, {"file", "dependency", "runpath", "symbol", "reason"});
  AllowSpec A;
  A.Origin = llvm::sys::path::filename(Path).str() + ":" +
             std::to_string(T.source().begin.line);
  // A glob that is given, a string, not empty, and compiles.
  auto glob = [&](const char *Key) -> std::optional<std::string> {
    std::optional<std::string> G = R.string(T, W, Key);
    if (!G)
      return std::nullopt;
    if (G->empty()) {
      R.fail(T.get(Key)->source(), "'" + W + "." + Key + "' is empty");
      return std::nullopt;
    }
    if (auto P = llvm::GlobPattern::create(*G); !P) {
      std::string Msg = llvm::toString(P.takeError());
      R.fail(T.get(Key)->source(),
             "'" + W + "." + Key + "': bad pattern '" + *G + "': " + Msg);
      return std::nullopt;
    }
    return G;
  };
  std::optional<std::string> File = glob("file");
  if (R.failed())
    return std::nullopt;
  if (!File) {
    R.fail(T.source(), "'" + W + ".file' is required (a glob over the file's path in "
                                 "the tree or package; \"*\" for every file)");
    return std::nullopt;
  }
  A.File = *File;
  std::vector<AllowKind> Given;
  for (AllowKind K : {AllowKind::Dependency, AllowKind::Runpath, AllowKind::Symbol})
    if (T.get(allowKindName(K)))
      Given.push_back(K);
  if (Given.size() != 1) {
    R.fail(T.source(),
           Given.empty()
               ? W + " names no finding: give one of dependency, runpath, symbol"
               : W + " gives both '" + allowKindName(Given[0]) + "' and '" +
                     allowKindName(Given[1]) +
                     "': give exactly one of dependency, runpath, symbol (one "
                     "[[allow]] each)");
    return std::nullopt;
  }
  A.Kind = Given[0];
  std::optional<std::string> Value = glob(allowKindName(A.Kind));
  if (!Value)
    return std::nullopt;
  A.Value = *Value;
  std::optional<std::string> Reason = R.string(T, W, "reason");
  if (R.failed())
    return std::nullopt;
  if (!Reason || llvm::StringRef(*Reason).trim().empty()) {
    R.fail(Reason ? T.get("reason")->source() : T.source(),
           "'" + W + ".reason' is required and may not be blank: say why this " +
               allowKindName(A.Kind) + " is accepted (check prints it)");
    return std::nullopt;
  }
  A.Reason = *Reason;
  return A;
}

} // namespace

const char *allowKindName(AllowKind K) {
  return enumName(K, {"dependency", "runpath", "symbol"});
}

llvm::Expected<RulesFile> parseRulesText(llvm::StringRef Text,
                                         const std::string &Path) {
  // First the structure with every non-ASCII byte replaced by 'x' (toml++
  // is safe on ASCII): invalid TOML fails here, where the scan below could
  // not know where toml++ thinks strings are. Then the scan, which is exact
  // for valid TOML, finds non-ASCII outside strings and comments.
  if (llvm::any_of(Text, [](char C) { return static_cast<unsigned char>(C) >= 0x80; })) {
    std::string Ascii = Text.str();
    for (char &C : Ascii)
      if (static_cast<unsigned char>(C) >= 0x80)
        C = 'x';
    if (Text.starts_with("\xEF\xBB\xBF"))
      Ascii.replace(0, 3, "   ");
    toml::parse_result Structure = toml::parse(std::string_view(Ascii), Path);
    if (!Structure)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          Path + ":" + std::to_string(Structure.error().source().begin.line) + ": " +
              std::string(Structure.error().description()) +
              " (non-ASCII characters read as 'x')");
  }
  unsigned BadLine = 0;
  if (std::optional<std::string> Why = textTomlCannotParseSafely(Text, BadLine))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   Path + ":" + std::to_string(BadLine) + ": " +
                                       *Why + " (TOML allows it only in strings "
                                              "and comments)");
  toml::parse_result Parsed =
      toml::parse(std::string_view(Text.data(), Text.size()), Path);
  if (!Parsed) {
    const toml::parse_error &E = Parsed.error();
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Path + ":" + std::to_string(E.source().begin.line) + ": " +
            std::string(E.description()));
  }
  const toml::table &Top = Parsed.table();
  Reader R(Path);
  RulesFile File;
  File.Path = Path;
  R.onlyKeys(Top, "", {"builtin", "rule", "roots", "allow"});

  // [roots] paths = [...]: files of a tree check --portable / --unique
  // judges as roots of their own (like --root; docs/configuration.md).
  if (const toml::table *Roots = R.subtable(Top, "", "roots")) {
    R.onlyKeys(*Roots, "roots", {"paths"});
    File.Roots = R.globs(*Roots, "roots", "paths");
  }

  // [[allow]]: findings check accepts, each with its reason.
  if (const toml::node *Allow = Top.get("allow"); Allow && !R.failed()) {
    const toml::array *A = Allow->as_array();
    if (!A || !A->is_array_of_tables())
      R.fail(Allow->source(), "'allow' must be an array of tables ([[allow]])");
    for (size_t I = 0; A && I < A->size() && !R.failed(); ++I)
      if (std::optional<AllowSpec> S = readAllow(R, *A->get(I)->as_table(), I, Path))
        File.Allow.push_back(std::move(*S));
  }

  if (const toml::table *B = R.subtable(Top, "", "builtin")) {
    R.onlyKeys(*B, "builtin", {"mps-aot"});
    File.BuiltinMpsAot = R.boolean(*B, "builtin", "mps-aot").value_or(true);
  }
  if (const toml::node *Rules = Top.get("rule")) {
    const toml::array *A = Rules->as_array();
    if (!A || !A->is_array_of_tables())
      R.fail(Rules->source(), "'rule' must be an array of tables ([[rule]])");
    std::set<std::string> Names = {MpsAotRuleName};
    size_t Index = 0;
    for (size_t I = 0; A && I < A->size() && !R.failed(); ++I) {
      const toml::table &T = *A->get(I)->as_table();
      std::optional<RuleSpec> S = readRule(R, T, Index++, Path);
      if (R.failed())
        break;
      if (!S)
        continue; // enabled = false
      if (!Names.insert(S->Name).second) {
        R.fail(T.source(), "rule name '" + S->Name + "' is used twice");
        break;
      }
      File.Rules.push_back(std::move(*S));
    }
  }
  if (R.failed())
    return R.takeError();
  return File;
}

llvm::Expected<RulesFile> readRulesFile(const std::string &Path) {
  BoundedFile F = readBounded(AT_FDCWD, Path.c_str(), MaxRulesFileBytes);
  if (F.Outcome != ReadOutcome::Ok)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Path + ": " +
            (F.Outcome == ReadOutcome::Missing ? std::string("no such file")
                                               : F.Reason));
  return parseRulesText(F.Text, Path);
}

} // namespace linkguard::config
