//===- FuzzClassify.cpp - libFuzzer entry point for flags::classify -------===//
//
// The first byte chooses the variant, the rest is the command:
//   bit 0 clear: the rest split on NUL bytes is argv (without argv[0]), as
//                the kernel hands it to linkguard-clang++;
//   bit 0 set:   the rest is the content of a response file, and argv is
//                {"@<scratch file>"} plus "-c" when bit 3 is set, so the GNU
//                tokenizer, nesting and the size/argument limits run.
//   bit 1:       the host object format (ELF / Mach-O);
//   bits 4-5:    the compiler name (target prefixes, "++" or not);
//   bit 2:       also classify with flags/ClangArgParser's shortcuts forced
//                on (any length) and off, and abort unless the two
//                classifications are the same; for an argv (bit 0 clear)
//                also compare the two parses argument for argument; for a
//                response file (bit 0 set), compare flags/ResponseFiles'
//                tokenizer with LLVM's GNU tokenizer word for word;
//   bit 6:       also classify with ClassifyOptions::MacrosRead set (USE_MPS,
//                a name no command defines, and every other macro the full
//                classification holds) and abort unless its Defines is the
//                full one restricted to those names, in the same order.
// classify() must return a Classification or a ResponseFileError, never
// crash, hang or leak, whatever the bytes (ASan, UBSan, libFuzzer's -timeout
// and -rss_limit_mb check the rest).
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"
#include "ParseCompare.h"

#include "flags/Classify.h"
#include "flags/ClassifyState.h"
#include "flags/ResponseFiles.h"

#include "llvm/Support/CommandLine.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

using namespace linkguard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  static fuzz::ScratchFile Rsp(".rsp");
  const uint8_t Mode = Data[0];
  const char *Rest = reinterpret_cast<const char *>(Data + 1);
  const size_t RestSize = Size - 1;

  std::vector<std::string> Args;
  if (Mode & 1) {
    if (Mode & 4) {
      std::string Text(Rest, RestSize);
      llvm::BumpPtrAllocator A;
      llvm::StringSaver S(A);
      llvm::SmallVector<const char *, 16> Want;
      ArgVector Got;
      llvm::cl::TokenizeGNUCommandLine(Text, S, Want, /*MarkEOLs=*/false);
      flags::tokenizeResponseFile(Text, 0, S, Got);
      if (Want.size() != Got.size())
        std::abort();
      for (size_t I = 0; I < Want.size(); ++I)
        if (std::strcmp(Want[I], Got[I]) != 0)
          std::abort();
    }
    Rsp.write(Data + 1, RestSize);
    Args.push_back("@" + Rsp.path());
    if (Mode & 8)
      Args.push_back("-c");
  } else {
    std::string Current;
    for (size_t I = 0; I < RestSize; ++I) {
      if (Rest[I] == '\0') {
        Args.push_back(std::move(Current));
        Current.clear();
      } else {
        Current += Rest[I];
      }
    }
    Args.push_back(std::move(Current));
  }

  if ((Mode & 4) && !(Mode & 1)) {
    std::vector<const char *> Argv;
    for (const std::string &A : Args)
      Argv.push_back(A.c_str());
    auto [Want, Got] = fuzz::bothParses(Argv, flags::needsOnlyValue);
    if (Want != Got)
      std::abort();
  }

  static const char *const Names[] = {"clang++", "arm64-apple-darwin-clang++",
                                      "clang", "x86_64-linux-gnu-clang++"};
  flags::ClassifyOptions Opts;
  Opts.CompilerName = Names[(Mode >> 4) & 3];
  Opts.HostFormat = (Mode & 2) ? flags::ObjectFormat::MachO : flags::ObjectFormat::ELF;
  Opts.WorkingDir = "/nonexistent-linkguard-fuzz-cwd";

  auto Cls = flags::classify(Args, Opts);
  if (Mode & 4) {
    flags::ClassifyOptions Fast = Opts, Slow = Opts;
    Fast.ParseShortcutThreshold = 0;
    Slow.ParseShortcutThreshold = static_cast<size_t>(-1);
    auto F = flags::classify(Args, Fast);
    auto S = flags::classify(Args, Slow);
    if (static_cast<bool>(F) != static_cast<bool>(S) || (F && fuzz::render(*F) != fuzz::render(*S)))
      std::abort();
    if (!F)
      llvm::consumeError(F.takeError());
    if (!S)
      llvm::consumeError(S.takeError());
  }
  if ((Mode & 64) && Cls) {
    std::vector<std::string> Read = {"USE_MPS", "LINKGUARD_FUZZ_NEVER_DEFINED"};
    for (size_t I = 0; I < Cls->Defines.size(); I += 2)
      Read.push_back(Cls->Defines[I].first);
    flags::ClassifyOptions Filtered = Opts;
    Filtered.MacrosRead = Read;
    auto F = flags::classify(Args, Filtered);
    if (!F)
      std::abort();
    decltype(Cls->Defines) Want;
    for (const auto &D : Cls->Defines)
      if (std::find(Read.begin(), Read.end(), D.first) != Read.end())
        Want.push_back(D);
    if (F->Defines != Want)
      std::abort();
    // Nothing else may change.
    F->Defines = Cls->Defines;
    if (fuzz::render(*F) != fuzz::render(*Cls))
      std::abort();
  }
  if (!Cls) {
    // The only documented failure.
    llvm::handleAllErrors(Cls.takeError(), [](const flags::ResponseFileError &) {});
    return 0;
  }
  // Touch what the driver reads, so a dangling reference shows up here.
  size_t Sum = Cls->Inputs.size() + Cls->Defines.size() + Cls->UnknownArgs.size() +
               Cls->DecidingArg.size() + (Cls->Output ? Cls->Output->size() : 0);
  return Sum == static_cast<size_t>(-1) ? 1 : 0;
}
