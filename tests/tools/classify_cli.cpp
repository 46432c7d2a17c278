//===- classify_cli.cpp - test-only front end to flags::classify ----------===//
//
// Used by tests/e2e/classify_differential.bash:
//   classify_cli [--host=macho|elf] [--name=COMPILER] [--details] -- ARGS...
// prints the phase name ("link", "compile", "pch", "preprocess", "probe")
// for ARGS (argv without argv[0]); --details adds the deciding argument,
// output kind and target, and "unknown=N" when clang would reject N
// arguments. A response file that cannot be read exits 67,
// as the driver does. Not installed; `linkguard explain` is the user-facing
// version of this.
//
//===----------------------------------------------------------------------===//
#include "flags/Classify.h"
#include "flags/ResponseFiles.h"

#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <string>
#include <vector>

using namespace linkguard::flags;

int main(int Argc, char **Argv) {
  ClassifyOptions Opts;
  bool Details = false;
  int I = 1;
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A == "--host=macho")
      Opts.HostFormat = ObjectFormat::MachO;
    else if (A == "--host=elf")
      Opts.HostFormat = ObjectFormat::ELF;
    else if (A.rfind("--name=", 0) == 0)
      Opts.CompilerName = A.substr(strlen("--name="));
    else if (A == "--details")
      Details = true;
    else {
      llvm::errs() << "classify_cli: unknown option " << A << "\n";
      return 64;
    }
  }
  std::vector<std::string> Args(Argv + I, Argv + Argc);
  llvm::Expected<Classification> C = classify(Args, Opts);
  if (!C) {
    int Code = 70;
    llvm::handleAllErrors(
        C.takeError(),
        [&](const ResponseFileError &E) {
          llvm::errs() << "classify_cli: error: " << E.message() << "\n";
          Code = 67;
        },
        [&](const llvm::ErrorInfoBase &E) {
          llvm::errs() << "classify_cli: error: " << E.message() << "\n";
        });
    return Code;
  }
  llvm::outs() << phaseName(C->Ph);
  if (Details)
    llvm::outs() << "\t" << C->DecidingArg << "\t" << outputKindName(C->Kind)
                 << "\t" << C->Target.Triple << "\t"
                 << objectFormatName(C->Target.Format);
  if (!C->UnknownArgs.empty())
    llvm::outs() << "\tunknown=" << C->UnknownArgs.size();
  llvm::outs() << "\n";
  return 0;
}
