//===- FuzzRulesFile.cpp - libFuzzer entry point for the rules-file reader ===//
//
// The bytes are the text of a linkguard.toml (config/RulesFile.h, schema in
// docs/rules.md). parseRulesText must accept it or fail with one error,
// never crash or hang: toml++ does the parsing, config/RulesFile.cpp the
// schema checks on top.
//
//===----------------------------------------------------------------------===//
#include "config/RulesFile.h"

#include <cstdint>

using namespace linkguard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Rules = config::parseRulesText(Text, "fuzz.toml");
  if (!Rules) {
    llvm::consumeError(Rules.takeError());
    return 0;
  }
  return Rules->Rules.size() > (1u << 30) ? 1 : 0;
}
