/* A fake linker driver shaped like clang's, for the signal tests
 * (tests/e2e/signals.bash, tests/e2e/signal_race.py): it starts a "linker"
 * child and waits for it, and passes no signal on, as clang's driver runs ld
 * through llvm::sys::ExecuteAndWait, which forwards nothing. So a signal that
 * reaches only the driver leaves the linker running; only the process group
 * reaches both. C rather than a shell script: a shell may ignore SIGINT and
 * SIGQUIT in its `&` children, or for a moment while it forks, and a test of
 * signal delivery must not depend on that.
 *
 *   FAKE_JOB_TAG=t   the linker runs as "fake-linker-t" (argv[0]), and the
 *                    driver's own arguments carry t in -o, so a test finds
 *                    every process of one job with ps
 *   FAKE_SLEEP=s     how long the linker runs (default 30)
 *   FAKE_PIDFILE=f   "driver-pid linker-pid" is written there once both run
 * Exits like the linker: its exit status, or 128+N if it died by signal N.
 * Writes no output file. Built by tests/CMakeLists.txt. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  const char *tag = getenv("FAKE_JOB_TAG");
  const char *secs = getenv("FAKE_SLEEP");
  const char *pidfile = getenv("FAKE_PIDFILE");
  char name[256];
  snprintf(name, sizeof name, "fake-linker-%s", tag ? tag : "none");
  pid_t linker = fork();
  if (linker < 0)
    return 71;
  if (linker == 0) {
    execl("/bin/sleep", name, secs ? secs : "30", (char *)NULL);
    _exit(127);
  }
  if (pidfile) {
    FILE *f = fopen(pidfile, "w");
    if (f) {
      fprintf(f, "%ld %ld\n", (long)getpid(), (long)linker);
      fclose(f);
    }
  }
  int status;
  while (waitpid(linker, &status, 0) < 0)
    if (errno != EINTR)
      return 71;
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
