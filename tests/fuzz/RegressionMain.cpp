//===- RegressionMain.cpp - replay fuzz inputs in the normal build --------===//
//
// A main() for the fuzz entry points outside libFuzzer: every file under the
// directories (or the files) named on the command line is fed to
// LLVMFuzzerTestOneInput once, in sorted order, and its name printed first,
// so a crash names its input. Used by the "regression.<fuzzer>" ctests over
// tests/regression/<fuzzer>/ (crash inputs found by scripts/fuzz, kept
// forever), which scripts/test also runs under ASan + UBSan.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

namespace fs = std::filesystem;

int main(int Argc, char **Argv) {
  std::vector<fs::path> Inputs;
  for (int I = 1; I < Argc; ++I) {
    fs::path P(Argv[I]);
    if (fs::is_directory(P)) {
      for (const auto &E : fs::recursive_directory_iterator(P))
        if (E.is_regular_file() && E.path().filename() != "README.md")
          Inputs.push_back(E.path());
    } else if (fs::is_regular_file(P)) {
      Inputs.push_back(P);
    } else {
      std::fprintf(stderr, "regression: %s: no such file or directory\n", Argv[I]);
      return 2;
    }
  }
  std::sort(Inputs.begin(), Inputs.end());
  for (const fs::path &P : Inputs) {
    std::printf("input %s\n", P.c_str());
    std::fflush(stdout);
    std::ifstream In(P, std::ios::binary);
    std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(In)),
                               std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(Bytes.data(), Bytes.size());
  }
  std::printf("%zu inputs replayed\n", Inputs.size());
  return 0;
}
