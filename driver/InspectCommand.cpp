//===- InspectCommand.cpp - `linkguard inspect` ---------------------------===//
//
// Reads each file with objlib and prints what it depends on. Errors are one
// line each on stderr ("linkguard: error: FILE: problem"); every file is
// tried, and the status is that of the first file that failed
// (docs/inspect.md lists the codes).
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"

#include "driver/DriverError.h"
#include "driver/ExitCode.h"
#include "driver/Inputs.h"
#include "driver/InspectPrinter.h"
#include "objlib/Reader.h"

#include "llvm/Object/MachO.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace linkguard::driver {
namespace {

const char *const HelpText =
    R"(USAGE: linkguard inspect [--json] [--symbols] [--rpaths] [--arch ARCH] [--scan] FILE...

Prints the libraries a Mach-O (thin or universal) or ELF file depends on,
in the layout of `otool -L`. A zip archive (.pt2, wheel) is read as a
container: each Mach-O or ELF member is listed as PKG!path/in/archive.

OPTIONS:
  --json         print one JSON document (schema in docs/inspect.md)
  --symbols      list, under each library, the imported symbols bound to it,
                 then dynamic-lookup, executable, weak-lookup and
                 unattributed imports
  --rpaths       list LC_RPATH / DT_RPATH / DT_RUNPATH search paths
  --arch ARCH    only the slice for ARCH (arm64, x86_64, ...)
  --scan         find Mach-O and ELF images embedded in any other file
                 (a .pte, a blob) and list each as FILE@0xOFFSET
  --help         print this help

EXIT STATUS: 0 all files read, 64 usage, 65 malformed or unsupported file
(also: a damaged or lying zip, a container with no image), 66 missing or
unreadable file; with several files, the first failure's code.
)";

int usage(const Twine &Msg) {
  errs() << "linkguard: error: " << Msg << "\n"
         << "usage: linkguard inspect [--json] [--symbols] [--rpaths] "
            "[--arch ARCH] [--scan] FILE...\n";
  return toInt(ExitCode::Usage);
}

/// An error message must stay one line even if libObject's spans several.
std::string oneLine(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '\r')
      C = ' ';
  return S;
}

bool isKnownArch(StringRef A) {
  return object::MachOObjectFile::isValidArch(A) ||
         Triple::getArchTypeForLLVMName(A) != Triple::UnknownArch;
}

/// Mach-O says arm64 where ELF and LLVM say aarch64.
bool archMatches(StringRef Want, StringRef Have) {
  auto canon = [](StringRef A) { return A == "aarch64" ? "arm64" : A; };
  return canon(Want) == canon(Have);
}

enum class ParseResult { Ok, Help, Error };

ParseResult parseArgs(const std::vector<std::string> &Args,
                      InspectOptions &Opts, int &Status) {
  bool OptionsDone = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (OptionsDone || A == "-" || !A.starts_with("-")) {
      Opts.Files.push_back(A.str());
    } else if (A == "--") {
      OptionsDone = true;
    } else if (A == "--help" || A == "-h") {
      return ParseResult::Help;
    } else if (A == "--json") {
      Opts.Json = true;
    } else if (A == "--symbols") {
      Opts.Symbols = true;
    } else if (A == "--rpaths") {
      Opts.RPaths = true;
    } else if (A == "--scan") {
      Opts.Scan = true;
    } else if (A == "--arch" || A.starts_with("--arch=")) {
      std::string Value;
      if (A == "--arch") {
        if (I + 1 == Args.size()) {
          Status = usage("--arch needs a value");
          return ParseResult::Error;
        }
        Value = Args[++I];
      } else {
        Value = A.drop_front(strlen("--arch=")).str();
      }
      if (!isKnownArch(Value)) {
        Status = usage("unknown architecture '" + Value + "'");
        return ParseResult::Error;
      }
      Opts.Arch = Value;
    } else {
      Status = usage("unknown option '" + A + "'");
      return ParseResult::Error;
    }
  }
  if (Opts.Files.empty()) {
    Status = usage("no input file");
    return ParseResult::Error;
  }
  return ParseResult::Ok;
}

} // namespace

int runInspect(const std::vector<std::string> &Args) {
  InspectOptions Opts;
  int Status = 0;
  switch (parseArgs(Args, Opts, Status)) {
  case ParseResult::Help:
    outs() << HelpText;
    return toInt(ExitCode::Success);
  case ParseResult::Error:
    return Status;
  case ParseResult::Ok:
    break;
  }

  json::Array Files, Errors;
  auto fail = [&](const std::string &Path, const char *Kind,
                  const std::string &Msg, ExitCode Code) {
    errs() << "linkguard: error: " << oneLine(Msg) << "\n";
    Errors.push_back(json::Object{
        {"path", Path}, {"kind", Kind}, {"message", oneLine(Msg)}});
    if (Status == 0)
      Status = toInt(Code);
  };

  auto inspectOne = [&](const std::string &Path,
                        Expected<objlib::BinaryInfo> Info,
                        const package::Image *Source) {
    if (!Info) {
      handleAllErrors(
          Info.takeError(),
          [&](const objlib::ReadError &E) {
            fail(Path, objlib::readErrorKindName(E.kind()), E.message(),
                 exitCodeFor(E.kind()));
          },
          [&](const ErrorInfoBase &E) {
            fail(Path, "malformed", Path + ": " + E.message(),
                 ExitCode::MalformedBinary);
          });
      return;
    }
    if (Opts.Arch) {
      std::vector<objlib::Slice> Kept;
      for (objlib::Slice &S : Info->Slices)
        if (archMatches(*Opts.Arch, S.Arch))
          Kept.push_back(std::move(S));
      if (Kept.empty()) {
        fail(Path, "usage",
             Path + ": does not contain architecture " + *Opts.Arch,
             ExitCode::Usage);
        return;
      }
      Info->Slices = std::move(Kept);
    }
    // Warnings go to stderr so stdout stays comparable with otool's.
    for (const objlib::Slice &S : Info->Slices)
      for (const std::string &W : S.Warnings)
        errs() << "linkguard: warning: " << sliceTitle(*Info, S) << ": "
               << oneLine(W) << "\n";
    if (Opts.Json) {
      json::Value File = inspectToJSON(*Info);
      File.getAsObject()->insert({"container", containerToJSON(Source)});
      Files.push_back(std::move(File));
    } else {
      printInspectText(outs(), *Info, Opts);
    }
  };
  for (const std::string &Path : Opts.Files)
    forEachInputBinary(Path, Opts.Scan, inspectOne);

  if (Opts.Json) {
    json::Object Doc{{"schema", "linkguard-inspect/1"},
                     {"files", std::move(Files)},
                     {"errors", std::move(Errors)}};
    outs() << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
  }
  outs().flush();
  return Status;
}

} // namespace linkguard::driver
