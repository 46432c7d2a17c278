//===- CommandLine.cpp - the OptTable over Opts.inc ------------------------===//
#include "commands/CommandLine.h"

#include "commands/Printer.h"
#include "driver/ExitCode.h"

#include "llvm/Option/Option.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#include <iterator>

using namespace llvm;
using namespace llvm::opt;

namespace linkguard::commands {

namespace {

#define PREFIX(NAME, VALUE)                                                    \
  static constexpr StringLiteral NAME##_init[] = VALUE;                        \
  static constexpr ArrayRef<StringLiteral> NAME(NAME##_init,                   \
                                                std::size(NAME##_init) - 1);
#include "commands/Opts.inc"
#undef PREFIX

constexpr OptTable::Info InfoTable[] = {
#define OPTION(...) LLVM_CONSTRUCT_OPT_INFO(__VA_ARGS__),
#include "commands/Opts.inc"
#undef OPTION
};

class CommandsOptTable final : public GenericOptTable {
public:
  CommandsOptTable() : GenericOptTable(InfoTable) { setDashDashParsing(true); }
};

const CommandsOptTable &table() {
  static const CommandsOptTable T;
  return T;
}

/// Where the options end and a command begins (explain, run): "--" or the
/// first word that does not start with '-'.
size_t commandStart(const std::vector<std::string> &Args) {
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I] == "--" || Args[I].empty() || Args[I].front() != '-')
      return I;
  return Args.size();
}

/// Which subcommand each visibility is, to name the one an option belongs to.
constexpr std::pair<CommandVisibility, const char *> VisibilityNames[] = {
    {InspectVis, "inspect"}, {CheckVis, "check"}, {TryLoadVis, "try-load"},
    {ExplainVis, "explain"}, {RunVis, "run"},     {EnvVis, "env"},
    {CompletionVis, "completion"},
};

constexpr unsigned EveryCommand =
    InspectVis | CheckVis | TryLoadVis | ExplainVis | RunVis | EnvVis | CompletionVis;

/// "; it is an option of `linkguard check`" (and Spec's hint for check's
/// options) when Spelling is another subcommand's option, or "".
std::string otherCommandsOf(const CommandSpec &Spec, const std::string &Spelling) {
  // A value after it, so an option that takes one ("--forbid P") parses.
  const char *Argv[] = {Spelling.c_str(), "value"};
  unsigned MissingIndex = 0, MissingCount = 0;
  InputArgList Args =
      table().ParseArgs(Argv, MissingIndex, MissingCount, Visibility(EveryCommand));
  if (Args.size() == 0 || (*Args.begin())->getOption().matches(OPT_UNKNOWN) ||
      (*Args.begin())->getOption().matches(OPT_INPUT))
    return "";
  const Option O = (*Args.begin())->getOption();
  std::string Names;
  for (const auto &[Vis, Name] : VisibilityNames)
    if (O.hasVisibilityFlag(Vis))
      Names += std::string(Names.empty() ? "" : " or ") + "`linkguard " + Name + "`";
  if (Names.empty())
    return "";
  std::string Msg = "; it is an option of " + Names;
  if (Spec.CheckOptionHint && O.hasVisibilityFlag(CheckVis))
    Msg += ": " + std::string(Spec.CheckOptionHint);
  return Msg;
}

/// Stands for an empty argument while libOption parses: it skips empty
/// strings, and a forgotten "$LIB" must not vanish from a command line.
constexpr char EmptyArgument[] = "\x01linkguard-empty-argument";

/// --json was among the options: a usage error is also a JSON document on
/// stdout, so a CI step that parses stdout gets one, not nothing.
bool JsonRequested = false;

} // namespace

int usageError(const CommandSpec &Spec, const std::string &Message) {
  errs() << "linkguard: error: " << Spec.Name << ": " << Message << " (usage: " << Spec.Usage
         << ")\n";
  int Status = driver::toInt(driver::ExitCode::Usage);
  if (JsonRequested) {
    json::Object Doc{{"schema", "linkguard-error/1"},
                     {"command", Spec.Name},
                     {"kind", "usage"},
                     {"exitCode", Status},
                     {"usage", Spec.Usage}};
    putName(Doc, "message", Message);
    outs() << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
    outs().flush();
  }
  return Status;
}

std::optional<int> parseCommandLine(const CommandSpec &Spec,
                                    const std::vector<std::string> &Args,
                                    ParsedCommandLine &Out) {
  size_t End = Spec.TakesCommand ? commandStart(Args) : Args.size();
  const auto Options = std::next(Args.begin(), static_cast<std::ptrdiff_t>(End));
  JsonRequested =
      (Spec.Visibility & (InspectVis | CheckVis | TryLoadVis | ExplainVis | ReportVis)) &&
      std::find(Args.begin(), Options, "--json") != Options;
  std::vector<const char *> Argv;
  Argv.reserve(End);
  for (size_t I = 0; I < End; ++I)
    Argv.push_back(Args[I].empty() ? EmptyArgument : Args[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  Visibility Vis(Spec.Visibility);
  Out.Args = table().ParseArgs(Argv, MissingIndex, MissingCount, Vis);
  if (MissingCount)
    return usageError(Spec, std::string(Out.Args.getArgString(MissingIndex)) +
                                " needs a value");
  for (const Arg *A : Out.Args.filtered(OPT_UNKNOWN)) {
    std::string Nearest;
    std::string Spelling = A->getAsString(Out.Args);
    std::string Msg = "unknown option '" + Spelling + "'";
    if (std::string Elsewhere = otherCommandsOf(Spec, Spelling); !Elsewhere.empty())
      Msg += Elsewhere;
    else if (table().findNearest(Spelling, Nearest, Vis) <= 2)
      Msg += "; did you mean '" + Nearest + "'?";
    return usageError(Spec, Msg);
  }
  if (Out.Args.hasArg(OPT_help)) {
    std::string Usage = std::string(Spec.Usage);
    table().printHelp(outs(), Usage.c_str(), Spec.About, /*ShowHidden=*/false,
                      /*ShowAllAliases=*/false, Vis);
    outs() << "\n" << Spec.After;
    return 0;
  }
  for (const Arg *A : Out.Args) {
    if (A->getOption().matches(OPT_INPUT)) {
      Out.Positionals.push_back(StringRef(A->getValue()) == EmptyArgument ? "" : A->getValue());
      continue;
    }
    for (const char *V : A->getValues())
      if (StringRef(V).empty() || StringRef(V) == EmptyArgument)
        return usageError(Spec, A->getSpelling().rtrim('=').str() + " needs a non-empty value");
  }
  size_t Rest = End < Args.size() && Args[End] == "--" ? End + 1 : End;
  Out.Positionals.insert(Out.Positionals.end(),
                         std::next(Args.begin(), static_cast<std::ptrdiff_t>(Rest)),
                         Args.end());
  if (Spec.Missing && Out.Positionals.empty())
    return usageError(Spec, Spec.Missing);
  return std::nullopt;
}

std::vector<OptionDoc> visibleOptions(unsigned Vis) {
  std::vector<OptionDoc> Out;
  const CommandsOptTable &T = table();
  for (unsigned Id = 1; Id <= T.getNumOptions(); ++Id) {
    const Option O = T.getOption(Id);
    const char *Help = T.getOptionHelpText(Id);
    if (!O.hasVisibilityFlag(Vis) || O.hasFlag(HelpHidden) || !Help || !*Help ||
        (O.getKind() != Option::FlagClass && O.getKind() != Option::JoinedClass))
      continue;
    OptionDoc D;
    D.Spelling = O.getPrefixedName().str();
    D.TakesValue = O.getKind() == Option::JoinedClass;
    if (D.TakesValue && StringRef(D.Spelling).ends_with("="))
      D.Spelling.pop_back();
    if (const char *Meta = T.getOptionMetaVar(Id))
      D.MetaVar = Meta;
    D.Help = Help;
    Out.push_back(std::move(D));
  }
  return Out;
}

const std::vector<std::pair<std::string, unsigned>> &commandVisibilities() {
  static const std::vector<std::pair<std::string, unsigned>> V = [] {
    std::vector<std::pair<std::string, unsigned>> Out;
    for (const auto &[Vis, Name] : VisibilityNames)
      Out.emplace_back(Name, Vis);
    return Out;
  }();
  return V;
}

} // namespace linkguard::commands
