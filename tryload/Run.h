//===- Run.h - start linkguard-loader in a clean process ---------*- C++
//-*-===//
//
// A fresh child with a scrubbed environment: the variables that make the
// dynamic loader map something the library did not ask for (ld.so(8):
// LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT; dyld(1): DYLD_INSERT_LIBRARIES,
// DYLD_LIBRARY_PATH, DYLD_FALLBACK_LIBRARY_PATH and their framework and
// versioned kin) are removed unless the caller keeps them. Its stdin is
// /dev/null, its stdout goes to linkguard's stderr (it belongs to the
// library), its report comes back on a pipe as file descriptor 3.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tryload/Report.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace linkguard::tryload {

/// The loader variables, one row each: what the variable does.
struct LoaderVariable {
  const char *Name;
  const char *Effect;
};
llvm::ArrayRef<LoaderVariable> loaderVariables();

struct TryLoadRequest {
  std::string LoaderPath; // linkguard-loader
  std::string Library;    // absolute
  std::optional<std::string> Call;
  std::vector<std::string> Hide;
  bool KeepEnv = false;
  bool Lazy = false;
};

struct LoaderRun {
  LoaderReport Report;
  int ExitStatus = 0; // when it exited
  int Signal = 0;     // when it died by a signal
};

/// Env (NAME=VALUE strings) without the loader variables, unless KeepEnv.
/// Removed receives the names taken out, in order.
std::vector<std::string> scrubEnvironment(const std::vector<std::string> &Env,
                                          bool KeepEnv,
                                          std::vector<std::string> &Removed);

/// Starts the loader with Env, reads its report, waits for it. Started is
/// called with the child's pid as soon as it runs (so a signal handler can
/// forward a signal to it).
llvm::Expected<LoaderRun> runLoader(const TryLoadRequest &Request,
                                    const std::vector<std::string> &Env,
                                    llvm::function_ref<void(pid_t)> Started);

} // namespace linkguard::tryload
