//===- CommandLine.h - one OptTable for every subcommand ----------*- C++ -*-===//
//
// The subcommands' options come from Opts.td (llvm-readobj's Opts.td
// pattern): one parse through libOption, generated help, and "did you mean"
// for a misspelled option, instead of a hand loop over argv per command.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"

#include <optional>
#include <string>
#include <vector>

namespace linkguard::commands {

/// Which subcommands see an option (the OptionVisibility defs of Opts.td);
/// bit 0 is libOption's DefaultVis.
enum CommandVisibility : unsigned {
  InspectVis = 1u << 1,
  CheckVis = 1u << 2,
  TryLoadVis = 1u << 3,
  ExplainVis = 1u << 4,
  RunVis = 1u << 5,
  EnvVis = 1u << 6,
  CompletionVis = 1u << 7,
  ReportVis = 1u << 8,
};

/// The option ids of Opts.td (OPT_json, OPT_forbid_EQ, ...).
enum OptID : unsigned {
  OPT_INVALID = 0,
#define OPTION(...) LLVM_MAKE_OPT_ID(__VA_ARGS__),
#include "commands/Opts.inc"
#undef OPTION
};

/// What a subcommand is, for its command line and its help.
struct CommandSpec {
  const char *Name;  // "inspect"
  unsigned Visibility; // its OptionVisibility in Opts.td
  const char *Usage; // "linkguard inspect [options] FILE..."
  const char *About; // one paragraph, before the options
  const char *After; // exit status and notes, after the options
  /// The usage error when no FILE or COMMAND is given; null when none is
  /// needed.
  const char *Missing = nullptr;
  /// The words after the options are a command (explain, run): parsing stops
  /// at "--" or the first word that is not an option.
  bool TakesCommand = false;
  /// Said after "it is an option of `linkguard check`" when one of check's
  /// options is given here: why this subcommand does not take it.
  const char *CheckOptionHint = nullptr;
};

struct ParsedCommandLine {
  llvm::opt::InputArgList Args;
  /// FILEs, or the COMMAND of explain/run.
  std::vector<std::string> Positionals;
};

/// Parses Args for Spec. Returns nothing when the command should go on, or
/// the exit status when it should stop: 0 after printing --help, 64 after
/// one "linkguard: error: NAME: ..." line (an unknown option, with the
/// subcommand it belongs to or the nearest spelling; a missing value; no
/// FILE or COMMAND when Spec.Missing says one is needed).
std::optional<int> parseCommandLine(const CommandSpec &Spec,
                                    const std::vector<std::string> &Args,
                                    ParsedCommandLine &Out);

/// One usage error line for Spec, and its exit status (64); with --json
/// among the options, also a JSON document on stdout
/// (docs/schema/error.json).
int usageError(const CommandSpec &Spec, const std::string &Message);

/// An option as --help shows it, for the shell completions (Completion.cpp).
struct OptionDoc {
  std::string Spelling; // "--forbid"
  bool TakesValue = false;
  std::string MetaVar; // "<pattern>", "<sh|bash|zsh|fish>"
  std::string Help;
};

/// The options --help shows for the subcommand with visibility Vis (no
/// hidden options, no aliases), in Opts.td's order.
std::vector<OptionDoc> visibleOptions(unsigned Vis);

/// Each subcommand that parses options from Opts.td, with its visibility.
const std::vector<std::pair<std::string, unsigned>> &commandVisibilities();

} // namespace linkguard::commands
