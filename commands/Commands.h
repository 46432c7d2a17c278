//===- Commands.h - linkguard's subcommands ------------------------*- C++ -*-===//
//
// The tools beside the wrapper path: each takes the arguments after its own
// name and returns the process exit status (driver/ExitCode.h). Options come
// from Opts.td (CommandLine.h), output goes through a Printer (Printer.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace linkguard::commands {

int runInspect(const std::vector<std::string> &Args); // Inspect.cpp
int runCheck(const std::vector<std::string> &Args);   // Check.cpp
int runTryLoad(const std::vector<std::string> &Args); // TryLoad.cpp
int runExplain(const std::vector<std::string> &Args); // Explain.cpp
int runReport(const std::vector<std::string> &Args);  // Report.cpp
int runRun(const std::vector<std::string> &Args);     // Run.cpp
int runEnv(const std::vector<std::string> &Args);     // Env.cpp
int runCompletion(const std::vector<std::string> &Args); // Completion.cpp

/// The subcommand Name with Args; nothing when there is no such subcommand.
std::optional<int> runSubcommand(const std::string &Name, const std::vector<std::string> &Args);

/// The names runSubcommand knows, in the order help lists them.
const std::vector<std::string> &subcommandNames();

std::string topLevelHelp(); // Help.cpp
/// `linkguard help TOPIC` for a topic that is not a subcommand
/// ("environment", "exit-codes"): prints it and returns 0, or nothing.
std::optional<int> printHelpTopic(const std::string &Name);
/// The subcommands and topics `linkguard help` takes, in the order it lists
/// them; helpTopicList() is the same, comma-separated, for a message.
std::vector<std::string> helpTopics();
std::string helpTopicList();
/// linkguard's version, and the real compiler it would use from here.
int printVersion();

} // namespace linkguard::commands
