//===- FuzzInput.h - shared helpers for the libFuzzer entry points -*- C++ -*-===//
//
// Each fuzz_*.cpp defines LLVMFuzzerTestOneInput. The same sources are built
// twice: with -fsanitize=fuzzer in the fuzz tree (scripts/fuzz), and in the
// normal tree linked with RegressionMain.cpp, which feeds every file under
// tests/regression/<fuzzer>/ to the entry point once (ctest label "sanitize":
// scripts/test reruns it under ASan + UBSan).
//
// Inputs that must be files (a binary for objlib, an @file for classify) are
// written to one scratch file per process, created with mkstemp under
// $TMPDIR and removed at exit, so a long run does not fill /tmp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace linkguard::fuzz {

/// A file this process rewrites for every input.
class ScratchFile {
public:
  explicit ScratchFile(const char *Suffix) {
    const char *Dir = std::getenv("TMPDIR");
    Path = std::string(Dir && *Dir ? Dir : "/tmp") + "/linkguard-fuzz-XXXXXX" + Suffix;
    int Fd = ::mkstemps(Path.data(), static_cast<int>(std::string(Suffix).size()));
    if (Fd < 0) {
      std::perror("linkguard fuzz: mkstemps");
      std::abort();
    }
    ::close(Fd);
  }
  ~ScratchFile() { ::unlink(Path.c_str()); }
  ScratchFile(const ScratchFile &) = delete;
  ScratchFile &operator=(const ScratchFile &) = delete;

  /// Replaces the file's contents with Data.
  const std::string &write(const uint8_t *Data, size_t Size) {
    std::FILE *F = std::fopen(Path.c_str(), "wb");
    if (!F || (Size && std::fwrite(Data, 1, Size, F) != Size) || std::fclose(F) != 0) {
      std::perror("linkguard fuzz: writing the scratch file");
      std::abort();
    }
    return Path;
  }
  const std::string &path() const { return Path; }

private:
  std::string Path;
};

} // namespace linkguard::fuzz
