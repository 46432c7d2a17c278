#!/usr/bin/env python3
"""Signal races against linkguard's spawn path (tests/e2e/signals.bash).

race: runs `LGXX -shared x.o -o out-TAG.so` through the fake driver
tests/fake-compilers/spawning-compiler (a driver that runs a sleeping
"linker" child and forwards nothing) TRIES times, sends one signal after a
random delay in [0, MAX_DELAY_MS] ms, and checks for every try that
linkguard died by that very signal and that no process of the job (driver,
linker) is left once linkguard is gone. Half the tries run linkguard as a
process group leader (as ninja and `timeout` start commands), half inside
the harness's group (as make does); the harness runs in a session of its
own, so linkguard never has a controlling terminal here.

tty: runs linkguard as the foreground job of a pseudo-terminal, started the
way an interactive shell does (own process group, made the terminal's
foreground group), and types ^Z, then ^C or ^\\ into the terminal: the stop
must stop the whole job (driver and linker too) and the interrupt must end
it, linkguard dying by that signal.

Prints one line per failure and a summary; exit 1 on any failure.
"""
import argparse
import os
import random
import signal
import subprocess
import sys
import time

SIGNALS = ["TERM", "INT", "HUP", "QUIT", "USR1", "USR2", "ALRM", "PIPE"]
# How long the job's processes may take to be gone once linkguard has died
# (polled: they are gone within milliseconds when all is well). 30 s, not
# 3: a loaded 2-core CI machine running ASan builds (CI robustness).
GONE_SECONDS = 30


def job_processes(tag):
    """(pid, state, args) of every live process whose argv names TAG."""
    out = subprocess.run(["ps", "-A", "-o", "pid=,stat=,args="],
                         capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and tag in parts[2] and not parts[1].startswith("Z"):
            if int(parts[0]) != os.getpid():
                found.append((int(parts[0]), parts[1], parts[2]))
    return found


def wait_gone(tag, seconds):
    """The job's processes still alive after SECONDS (polling), else []."""
    deadline = time.monotonic() + seconds
    while True:
        left = job_processes(tag)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.02)


def kill_all(procs):
    for pid, _, _ in procs:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def status_name(rc):
    return "signal SIG%s" % signal.Signals(-rc).name[3:] if rc < 0 else "exit %d" % rc


def race(args):
    env = dict(os.environ, LINKGUARD_CXX=args.compiler, LINKGUARD_MODE="verify",
               FAKE_SLEEP="30")
    failures = 0
    counts = {}
    rng = random.Random(args.seed)
    for i in range(args.tries):
        name = SIGNALS[i % len(SIGNALS)]
        sig = getattr(signal, "SIG" + name)
        tag = "lgrace%dx%d" % (os.getpid(), i)
        env["FAKE_JOB_TAG"] = tag
        leader = (i // len(SIGNALS)) % 2 == 0
        p = subprocess.Popen([args.lgxx, "-shared", "x.o", "-o", "out-%s.so" % tag],
                             env=env, stdin=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=leader)
        time.sleep(rng.uniform(0, args.max_delay_ms / 1000.0))
        p.send_signal(sig)
        try:
            rc = p.wait(timeout=60)  # a hang guard, far above normal (CI robustness)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = p.wait()
            print("try %d SIG%s: linkguard still running 60 s after the signal" % (i, name))
            failures += 1
        problems = []
        if rc != -sig:
            problems.append("linkguard ended with %s, not signal SIG%s" % (status_name(rc), name))
        left = wait_gone(tag, GONE_SECONDS)
        if left:
            problems.append("still running: " + "; ".join(a for _, _, a in left))
            kill_all(left)
        c = counts.setdefault(name, [0, 0])
        c[0] += 1
        if problems:
            c[1] += 1
            failures += 1
            print("try %d SIG%s (%s): %s" % (i, name, "group leader" if leader else "in the caller's group",
                                             "; ".join(problems)))
    print("signal race: " + ", ".join("SIG%s %d/%d failed" % (n, c[1], c[0]) for n, c in counts.items()))
    print("%d passed, %d failed" % (args.tries - failures, failures))
    return 1 if failures else 0


def tty_job(args, key, sig):
    """Runs linkguard as the foreground job of a new pty; types ^Z, checks the
    whole job stopped, resumes it, types KEY, returns a list of problems."""
    import pty
    import termios
    tag = "lgtty%dx%d" % (os.getpid(), sig)
    pidfile = os.path.abspath("pids-" + tag)
    env = dict(os.environ, LINKGUARD_CXX=args.compiler, LINKGUARD_MODE="verify",
               FAKE_SLEEP="30", FAKE_JOB_TAG=tag, FAKE_PIDFILE=pidfile)
    rfd, wfd = os.pipe()
    shell, master = pty.fork()
    if shell == 0:
        # The pty's session leader plays the interactive shell: the job gets
        # a process group of its own and the terminal's foreground.
        os.close(rfd)
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        job = os.fork()
        if job == 0:
            os.setpgid(0, 0)
            os.tcsetpgrp(0, os.getpid())
            signal.signal(signal.SIGTTOU, signal.SIG_DFL)
            devnull = os.open(os.devnull, os.O_RDWR)
            os.dup2(devnull, 2)
            os.execve(args.lgxx, [args.lgxx, "-shared", "x.o", "-o", "out-%s.so" % tag], env)
        try:
            os.setpgid(job, job)  # as shells do, in both: whichever runs first
        except OSError:
            pass  # EACCES: the job already exec'd, after its own setpgid
        os.write(wfd, b"job %d\n" % job)
        events = []
        while True:
            _, st = os.waitpid(job, os.WUNTRACED)
            if os.WIFSTOPPED(st):
                events.append("stopped")
                os.write(wfd, b"stopped\n")
                continue
            events.append("signal %d" % os.WTERMSIG(st) if os.WIFSIGNALED(st)
                          else "exit %d" % os.WEXITSTATUS(st))
            break
        os.write(wfd, (events[-1] + "\n").encode())
        os._exit(0)
    os.close(wfd)
    problems = []
    reader = os.fdopen(rfd)
    first = reader.readline().split()
    if len(first) != 2 or first[0] != "job":
        return ["the pty's shell failed before starting the job"]
    job = int(first[1])
    for _ in range(2000):  # 20 s: a sanitizer build starts slowly
        if os.path.exists(pidfile) and os.path.getsize(pidfile) > 0:
            break
        time.sleep(0.01)
    else:
        problems.append("the fake driver never started")
    if not problems:
        time.sleep(0.1)
        tio = termios.tcgetattr(master)
        os.write(master, tio[6][termios.VSUSP])
        if reader.readline().strip() != "stopped":
            problems.append("^Z did not stop linkguard")
        # The stop reaches every process of the job; ps sees it once each
        # has been scheduled: poll (10 s on a loaded machine), not a fixed 0.2 s.
        deadline = time.monotonic() + 10
        while True:
            running = [a for _, s, a in job_processes(tag) if not s.startswith("T")]
            if not running or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if running:
            problems.append("^Z left part of the job running: " + "; ".join(running))
        os.killpg(job, signal.SIGCONT)  # what the shell's `fg` does
        os.write(master, tio[6][key])
    line = reader.readline().strip()
    if line != "signal %d" % sig:
        problems.append("linkguard ended with [%s], not signal %d" % (line, sig))
    left = wait_gone(tag, GONE_SECONDS)
    if left:
        problems.append("still running: " + "; ".join(a for _, _, a in left))
        kill_all(left)
    os.waitpid(shell, 0)
    os.close(master)
    return problems


def tty(args):
    import termios
    failures = 0
    for key, sig in ((termios.VINTR, signal.SIGINT), (termios.VQUIT, signal.SIGQUIT)):
        problems = tty_job(args, key, sig)
        if problems:
            failures += 1
            print("tty %s: %s" % (signal.Signals(sig).name, "; ".join(problems)))
    print("%d passed, %d failed" % (2 - failures, failures))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["race", "tty"])
    ap.add_argument("--lgxx", required=True)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--tries", type=int, default=160)
    ap.add_argument("--max-delay-ms", type=float, default=6.0)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    if args.mode == "race" and os.getsid(0) != os.getpid():
        # A session of our own: no controlling terminal, whoever runs us.
        child = os.fork()
        if child == 0:
            os.setsid()
            sys.exit(race(args))
        _, st = os.waitpid(child, 0)
        sys.exit(os.WEXITSTATUS(st) if os.WIFEXITED(st) else 1)
    sys.exit(race(args) if args.mode == "race" else tty(args))


if __name__ == "__main__":
    main()
