//===- main.cpp - linkguard entry point -----------------------------------===//
//
// Before anything else: make sure descriptors 0, 1 and 2 are open. A caller
// that closed one (`linkguard-clang++ -E a.c >&-`) would otherwise hand that
// number to the next file linkguard opens -- the log file taking fd 1, and
// the compiler's -E output landing in the log. They are filled with
// /dev/null, as git's sanitize_stdfds() (common-main.c) does; the compiler
// then inherits /dev/null where the caller gave it nothing. Static
// initializers (LLVM's option registry, spdlog's registry) open no files,
// so main is early enough.
//
//===----------------------------------------------------------------------===//
#include "driver/Main.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define LINKGUARD_EXIT_NORMALLY 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LINKGUARD_EXIT_NORMALLY 1
#endif
#ifndef LINKGUARD_EXIT_NORMALLY
#define LINKGUARD_EXIT_NORMALLY 0
#endif

static void reserveStandardDescriptors() {
  for (int Fd = 0; Fd <= 2; ++Fd) {
    if (::fcntl(Fd, F_GETFD) != -1 || errno != EBADF)
      continue;
    // Not O_CLOEXEC: these are the standard descriptors of the compiler too.
    int Null = ::open("/dev/null", Fd == 0 ? O_RDONLY : O_WRONLY);
    if (Null < 0)
      continue;       // no /dev/null: nothing better to do
    if (Null != Fd) { // only if a lower one was open after all
      ::dup2(Null, Fd);
      ::close(Null);
    }
  }
}

int main(int argc, char **argv) {
  reserveStandardDescriptors();
  const int Status = linkguard::driver::linkguardMain(argc, argv);
  // Everything linkguard writes is out by now: llvm::outs() was flushed
  // (and its error reported, driver/Main.cpp checkedOutput), llvm::errs()
  // and the log (flushed on every message, its own descriptor) write
  // through, and what stdio holds is flushed here. What exit() would add
  // is the destructors of static objects (LLVM's option registry, the log
  // settings), which touch pages nothing else did: 2-3 % of a tree
  // check's time, for memory the kernel takes back whole.
#if LINKGUARD_EXIT_NORMALLY
  // LeakSanitizer checks from an atexit handler: the sanitizer builds
  // (scripts/test's malformed-input and signal suites) exit normally.
  return Status;
#else
  std::fflush(nullptr);
  std::_Exit(Status);
#endif
}
