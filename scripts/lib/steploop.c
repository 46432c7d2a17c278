/* steploop: the 200-step loops of scripts/bench, paired.
 *
 *   steploop STEPS ROUNDS CMD_A ARGS... :: CMD_B ARGS...
 *
 * Runs command A STEPS times in a row (posix_spawn + waitpid, each step must
 * exit 0), then B STEPS times, ROUNDS times over, alternating A and B so
 * that a load that comes and goes on a shared machine falls on both alike.
 * Prints one JSON object: per round, the wall time (CLOCK_MONOTONIC) and the
 * CPU time of the children (getrusage RUSAGE_CHILDREN, user + system) of A's
 * and of B's STEPS steps, in milliseconds. CMD_A and CMD_B are paths, not
 * looked up on PATH; their standard output goes to /dev/null. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double nowMs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6;
}

static double childCpuMs(void) {
  struct rusage U;
  getrusage(RUSAGE_CHILDREN, &U);
  return (U.ru_utime.tv_sec + U.ru_stime.tv_sec) * 1e3 +
         (U.ru_utime.tv_usec + U.ru_stime.tv_usec) / 1e3;
}

/* Runs Argv Steps times; 0, or 1 when a step failed to start or exit 0. */
static int loop(long Steps, char **Argv, double *Wall, double *Cpu) {
  /* The steps' standard output goes to /dev/null: ours is the JSON. */
  posix_spawn_file_actions_t Quiet;
  posix_spawn_file_actions_init(&Quiet);
  posix_spawn_file_actions_addopen(&Quiet, 1, "/dev/null", O_WRONLY, 0);
  double W = nowMs(), C = childCpuMs();
  for (long I = 0; I < Steps; ++I) {
    pid_t Pid;
    int Status;
    if (posix_spawn(&Pid, Argv[0], &Quiet, NULL, Argv, environ) != 0 ||
        waitpid(Pid, &Status, 0) != Pid || !WIFEXITED(Status) ||
        WEXITSTATUS(Status) != 0) {
      fprintf(stderr, "steploop: %s failed\n", Argv[0]);
      posix_spawn_file_actions_destroy(&Quiet);
      return 1;
    }
  }
  *Wall = nowMs() - W;
  *Cpu = childCpuMs() - C;
  posix_spawn_file_actions_destroy(&Quiet);
  return 0;
}

static void printRounds(const char *Name, const double *V, long N,
                        const char *Tail) {
  printf("\"%s\": [", Name);
  for (long I = 0; I < N; ++I)
    printf("%s%.3f", I ? ", " : "", V[I]);
  printf("]%s", Tail);
}

int main(int Argc, char **Argv) {
  int Sep = 0;
  for (int I = 4; I < Argc; ++I)
    if (strcmp(Argv[I], "::") == 0)
      Sep = I;
  long Steps = Argc > 2 ? atol(Argv[1]) : 0,
       Rounds = Argc > 2 ? atol(Argv[2]) : 0;
  if (Sep == 0 || Sep + 1 >= Argc || Steps <= 0 || Rounds <= 0) {
    fprintf(stderr,
            "usage: steploop STEPS ROUNDS CMD_A ARGS... :: CMD_B ARGS...\n");
    return 64;
  }
  Argv[Sep] = NULL;
  char **A = Argv + 3, **B = Argv + Sep + 1;
  double *V = calloc(4 * (size_t)Rounds, sizeof(double));
  if (!V)
    return 1;
  double *AW = V, *AC = V + Rounds, *BW = V + 2 * Rounds, *BC = V + 3 * Rounds;
  for (long R = 0; R < Rounds; ++R)
    if (loop(Steps, A, &AW[R], &AC[R]) || loop(Steps, B, &BW[R], &BC[R]))
      return 1;
  printf("{\"steps\": %ld, ", Steps);
  printRounds("a_wall_ms", AW, Rounds, ", ");
  printRounds("a_cpu_ms", AC, Rounds, ", ");
  printRounds("b_wall_ms", BW, Rounds, ", ");
  printRounds("b_cpu_ms", BC, Rounds, "}\n");
  free(V);
  return 0;
}
