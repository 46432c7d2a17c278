//===- CheckCommand.cpp - `linkguard check FILE... [options]` -------------===//
//
// A dependency contract for CI, judged by the same contract::judge the
// driver runs after a link (one implementation, two entry points). Options
// fill one ContractSpec; each file is read with objlib, judged, and printed
// by CheckPrinter. Every file is tried. Exit status (docs/check.md): 0 the
// contract holds for every file, 1 a violation, 64 usage, and when a file
// cannot be read the first such file's code (65 malformed, 66 unreadable),
// which wins over 1: a contract that could not be checked did not hold.
//
//===----------------------------------------------------------------------===//
#include "driver/CheckPrinter.h"
#include "driver/Commands.h"

#include "driver/DriverError.h"
#include "driver/ExitCode.h"
#include "driver/Inputs.h"
#include "driver/Plan.h"
#include "objlib/Reader.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

namespace linkguard::driver {
namespace {

const char *const Usage =
    R"(usage: linkguard check [--forbid P] [--require P] [--forbid-unreferenced P]
                       [--unused] [--mps-aot] [--portable [--bundle-root DIR]
                       [--search DIR] [--provided P] [--system-list FILE]]
                       [--json] [--scan] FILE...
)";

const char *const HelpText =
    R"(USAGE: linkguard check [options] FILE...

Judges the dependencies of Mach-O (thin or universal) and ELF files against a
contract. The driver verifies its links with the same code. A zip archive
(.pt2, wheel) is a container: each Mach-O or ELF member is judged as
PKG!path/in/archive, and the archive is what ships (--portable).

A pattern P is a glob on the install name / DT_NEEDED string or on its file
name, or a group: openmp (libomp, libiomp5, libgomp in every spelling) or
libsystem (libSystem.B.dylib).

CONTRACT:
  --forbid P               no dependency may match P
  --require P              some dependency must match P
  --forbid-unreferenced P  a dependency matching P may stay only if an
                           imported symbol binds to it
  --unused                 no dependency that no imported symbol binds to
                           (ELF: unknown without symbol versions)
  --mps-aot                the contract the MPS AOT rule verifies after a
                           link: --forbid-unreferenced openmp, and (Mach-O)
                           --require libsystem
  --portable               every dependency is a system library, shipped
                           under the bundle root, or --provided; an absolute
                           path outside the system prefixes is non-portable
                           even when the file exists on this machine
PORTABILITY:
  --bundle-root DIR        what ships (default: each binary's directory)
  --search DIR             an application library directory where @rpath
                           names are also looked up (relative to the bundle
                           root); repeatable
  --provided P             a library the application provides; repeatable
  --system-list FILE       more system libraries, one pattern a line
OUTPUT:
  --json                   one JSON document (schema in docs/check.md)
  --scan                   judge every Mach-O and ELF image embedded in any
                           other file (a .pte, a blob) as FILE@0xOFFSET
  --help                   print this help

Text output: one line per finding, "FILE[ (arch)]: violation|kept|unknown:
message" (a container's member without findings: "PKG!member: holds"), then
a summary line.

EXIT STATUS: 0 holds, 1 violation, 64 usage, 65 malformed file (also a
damaged or lying zip, a container with no image), 66 missing or unreadable
file (a file error wins over 1).
)";

int usage(const Twine &Msg) {
  errs() << "linkguard: error: check: " << Msg << "\n" << Usage;
  return toInt(ExitCode::Usage);
}

struct CheckOptions {
  contract::ContractSpec Spec;
  bool Json = false;
  bool Portable = false;
  bool Scan = false;
  std::optional<std::string> BundleRoot;
  std::optional<std::string> SystemListFile;
  std::vector<std::string> SearchDirs;
  std::vector<contract::Pattern> Provided;
  std::vector<std::string> PortabilityOnly; // options given, for the check
  std::vector<std::string> Files;
  bool AnyContract = false;
};

enum class Parse { Ok, Help, Error };

/// Options that take a value, as "--opt VALUE" or "--opt=VALUE".
const StringRef ValueOptions[] = {
    "--forbid", "--require",  "--forbid-unreferenced", "--bundle-root",
    "--search", "--provided", "--system-list"};

Parse parseArgs(const std::vector<std::string> &Args, CheckOptions &O,
                int &Status) {
  auto fail = [&](const Twine &Msg) {
    Status = usage(Msg);
    return Parse::Error;
  };
  bool OptionsDone = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (OptionsDone || A == "-" || !A.starts_with("-")) {
      O.Files.push_back(A.str());
      continue;
    }
    if (A == "--") {
      OptionsDone = true;
      continue;
    }
    StringRef Name = A.split('=').first, Inline = A.split('=').second;
    std::optional<std::string> Value;
    bool TakesValue = false;
    for (StringRef V : ValueOptions)
      TakesValue |= Name == V;
    if (TakesValue) {
      if (A.contains('='))
        Value = Inline.str();
      else if (I + 1 < Args.size())
        Value = Args[++I];
      else
        return fail(Name + " needs a value");
      if (Value->empty())
        return fail(Name + " needs a non-empty value");
    } else if (A.contains('=')) {
      return fail("unknown option '" + A + "'");
    }

    auto pattern = [&](std::vector<contract::Pattern> &Into) {
      if (Error E = contract::validatePattern(*Value)) {
        Status = usage(Name + ": " + toString(std::move(E)));
        return false;
      }
      Into.push_back({*Value});
      return true;
    };

    if (Name == "--help" || Name == "-h") {
      return Parse::Help;
    } else if (Name == "--json") {
      O.Json = true;
    } else if (Name == "--scan") {
      O.Scan = true;
    } else if (Name == "--unused") {
      O.Spec.FailOnUnused = O.AnyContract = true;
    } else if (Name == "--portable") {
      O.Portable = O.AnyContract = true;
    } else if (Name == "--mps-aot") {
      contract::ContractSpec Mps = mpsAotContract();
      for (auto &P : Mps.ForbidUnreferenced)
        O.Spec.ForbidUnreferenced.push_back(P);
      for (auto &P : Mps.Require)
        O.Spec.Require.push_back(P);
      O.Spec.RequireOnlyForMachO = Mps.RequireOnlyForMachO;
      O.AnyContract = true;
    } else if (Name == "--forbid") {
      if (!pattern(O.Spec.Forbid))
        return Parse::Error;
      O.AnyContract = true;
    } else if (Name == "--require") {
      if (!pattern(O.Spec.Require))
        return Parse::Error;
      O.AnyContract = true;
    } else if (Name == "--forbid-unreferenced") {
      if (!pattern(O.Spec.ForbidUnreferenced))
        return Parse::Error;
      O.AnyContract = true;
    } else if (Name == "--provided") {
      if (!pattern(O.Provided))
        return Parse::Error;
      O.PortabilityOnly.push_back(Name.str());
    } else if (Name == "--bundle-root") {
      O.BundleRoot = *Value;
      O.PortabilityOnly.push_back(Name.str());
    } else if (Name == "--search") {
      O.SearchDirs.push_back(*Value);
      O.PortabilityOnly.push_back(Name.str());
    } else if (Name == "--system-list") {
      O.SystemListFile = *Value;
      O.PortabilityOnly.push_back(Name.str());
    } else {
      return fail("unknown option '" + A + "'");
    }
  }
  if (!O.Portable && !O.PortabilityOnly.empty())
    return fail(O.PortabilityOnly.front() + " needs --portable");
  if (!O.AnyContract)
    return fail("no contract given (--forbid, --require, "
                "--forbid-unreferenced, --unused, --mps-aot, --portable)");
  if (O.Files.empty())
    return fail("no input file");
  return Parse::Ok;
}

/// Fills Spec.Portable from the options: reads --system-list and makes the
/// bundle root absolute (paths are compared lexically). Returns an exit
/// status, 0 on success.
int preparePortability(CheckOptions &O) {
  if (!O.Portable)
    return 0;
  contract::PortabilityOptions P;
  if (O.BundleRoot) {
    if (!sys::fs::is_directory(*O.BundleRoot)) {
      errs() << "linkguard: error: check: --bundle-root " << *O.BundleRoot
             << ": no such directory\n";
      return toInt(ExitCode::UnreadableInput);
    }
    P.BundleRoot = absolutePath(*O.BundleRoot);
  }
  P.SearchDirs = O.SearchDirs;
  P.Provided = O.Provided;
  if (O.SystemListFile) {
    auto Buf = MemoryBuffer::getFile(*O.SystemListFile, /*IsText=*/true);
    if (!Buf) {
      errs() << "linkguard: error: check: --system-list " << *O.SystemListFile
             << ": " << Buf.getError().message() << "\n";
      return toInt(ExitCode::UnreadableInput);
    }
    P.SystemList = contract::parseSystemList((*Buf)->getBuffer());
    for (const contract::Pattern &Pat : P.SystemList)
      if (Error E = contract::validatePattern(Pat.Text))
        return usage("--system-list " + *O.SystemListFile + ": " +
                     toString(std::move(E)));
  }
  O.Spec.Portable = std::move(P);
  return 0;
}

} // namespace

int runCheck(const std::vector<std::string> &Args) {
  CheckOptions O;
  int Status = 0;
  switch (parseArgs(Args, O, Status)) {
  case Parse::Help:
    outs() << HelpText;
    return toInt(ExitCode::Success);
  case Parse::Error:
    return Status;
  case Parse::Ok:
    break;
  }
  if (int S = preparePortability(O))
    return S;

  const contract::FileProbe Exists = contract::realFileProbe();
  std::vector<CheckResult> Results;
  std::vector<CheckFailure> Failures;
  auto checkOne = [&](const std::string &Path,
                      Expected<objlib::BinaryInfo> Info,
                      const package::Image *Source) {
    if (!Info) {
      handleAllErrors(
          Info.takeError(),
          [&](const objlib::ReadError &E) {
            Failures.push_back(
                {Path, objlib::readErrorKindName(E.kind()), E.message()});
            if (Status == 0)
              Status = toInt(exitCodeFor(E.kind()));
          },
          [&](const ErrorInfoBase &E) {
            Failures.push_back({Path, "malformed", Path + ": " + E.message()});
            if (Status == 0)
              Status = toInt(ExitCode::MalformedBinary);
          });
      errs() << "linkguard: error: " << Failures.back().Message << "\n";
      return;
    }
    CheckResult R;
    R.Path = Path;
    R.Fmt = Info->Fmt;
    for (const objlib::Slice &S : Info->Slices)
      R.Arches.push_back(S.Arch);
    R.Container = containerToJSON(Source);
    R.InContainer = Source != nullptr;
    contract::ContractSpec Spec = O.Spec;
    contract::FileProbe Probe = Exists;
    if (Source) {
      ContainerPlacement CP = placeInContainer(*Source, *Info, Exists);
      if (Spec.Portable)
        Spec.Portable->BundleRoot = CP.BundleRoot;
      Probe = std::move(CP.Exists);
    } else {
      // Portability compares paths lexically: anchor this one at the cwd.
      Info->Path = absolutePath(Path);
    }
    R.Verdict = contract::judge(*Info, Spec, Probe);
    if (Spec.Portable)
      R.Placements = contract::placeDependencies(*Info, *Spec.Portable, Probe);
    if (!O.Json)
      printCheckText(outs(), R);
    Results.push_back(std::move(R));
  };
  for (const std::string &Path : O.Files)
    forEachInputBinary(Path, O.Scan, checkOne);

  CheckTotals T = totalsOf(Results, Failures);
  if (O.Json)
    outs() << formatv("{0:2}", checkToJSON(O.Spec, Results, Failures)) << "\n";
  else
    printCheckSummary(outs(), T);
  outs().flush();
  if (Status != 0)
    return Status;
  return toInt(T.Violations ? ExitCode::Violation : ExitCode::Success);
}

} // namespace linkguard::driver
