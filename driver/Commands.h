//===- Commands.h - linkguard's subcommands ----------------------*- C++ -*-===//
//
// Each subcommand takes the arguments after its own name and returns the
// process exit status (driver/ExitCode.h). Only these functions print.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace linkguard::driver {

int runInspect(const std::vector<std::string> &Args); // InspectCommand.cpp
int runCheck(const std::vector<std::string> &Args);   // CheckCommand.cpp
int runExplain(const std::vector<std::string> &Args); // ExplainCommand.cpp
int runRun(const std::vector<std::string> &Args);     // RunCommand.cpp
int runEnv(const std::vector<std::string> &Args);     // EnvCommand.cpp
int runTryLoad(const std::vector<std::string> &Args); // TryLoadCommand.cpp

} // namespace linkguard::driver
