//===- dyld_rules_cli.cpp - test-only front end to contract::dyldRefusals -===//
//
// Used by tests/e2e/dyld_oracle.bash and scripts/fuzz --dyld-oracle to set
// linkguard's reading of dyld's load-time checks beside dyld's own code
// (scripts/dyld-validator builds it):
//   dyld_rules_cli FILE...     (or "-": one path a line on stdin)
// prints, per file, slice and dyld release, one line, tab-separated:
//   FILE  SLICE  RELEASE  refused|ok|malformed|unreadable|unsupported  RULE  MESSAGE
// SLICE is the index in a universal file, "-" for a thin one; RELEASE the
// dyld archive the range is checked against (dyld-1284.13, dyld-1323.3,
// dyld-1378); RULE the first refusal that release meets (dyldRefusals lists
// them in the loader's order), or the read error's kind. Not installed:
// `linkguard check --portable` is the user-facing version of this.
//
//===----------------------------------------------------------------------===//
#include "contract/DyldRules.h"
#include "objlib/Reader.h"
#include "support/Printable.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>
#include <string>

using namespace linkguard;

namespace {
// The archive each of contract::dyldReleaseRanges() is run against.
const char *const Archives[] = {"dyld-1284.13", "dyld-1323.3", "dyld-1378"};

std::string clean(const std::string &S) {
  std::string P = printable(S);
  for (char &C : P)
    if (C == '\t' || C == '\n')
      C = ' ';
  return P;
}

void judge(const std::string &Path) {
  llvm::raw_ostream &OS = llvm::outs();
  const size_t N = contract::dyldReleaseRanges().size();
  llvm::Expected<objlib::BinaryInfo> B = objlib::readBinary(Path);
  if (!B) {
    std::string Kind = "malformed", Msg;
    llvm::handleAllErrors(
        B.takeError(),
        [&](const objlib::ReadError &E) {
          Kind = objlib::readErrorKindName(E.kind());
          Msg = E.message();
        },
        [&](const llvm::ErrorInfoBase &E) { Msg = E.message(); });
    for (size_t R = 0; R < N && R < std::size(Archives); ++R)
      OS << clean(Path) << "\t-\t" << Archives[R] << "\t" << Kind << "\t"
         << Kind << "\t" << clean(Msg) << "\n";
    return;
  }
  for (size_t I = 0; I < B->Slices.size(); ++I) {
    const objlib::Slice &S = B->Slices[I];
    std::string Slice = B->Universal ? std::to_string(I) : "-";
    std::vector<contract::DyldRefusal> Rs = contract::dyldRefusals(S);
    for (size_t R = 0; R < N && R < std::size(Archives); ++R) {
      const contract::DyldRefusal *First = nullptr;
      for (const contract::DyldRefusal &D : Rs)
        if (D.ReleaseMask & (1u << R)) {
          First = &D;
          break;
        }
      OS << clean(Path) << "\t" << Slice << "\t" << Archives[R] << "\t";
      if (First)
        OS << "refused\t" << First->Rule << "\t" << clean(First->DyldMessage);
      else
        OS << "ok\t-\t";
      OS << "\n";
    }
  }
}
} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    llvm::errs() << "usage: dyld_rules_cli FILE... | -\n";
    return 2;
  }
  if (Argc == 2 && std::string(Argv[1]) == "-") {
    std::string Line;
    while (std::getline(std::cin, Line))
      if (!Line.empty())
        judge(Line);
  } else
    for (int I = 1; I < Argc; ++I)
      judge(Argv[I]);
  llvm::outs().flush();
  return 0;
}
