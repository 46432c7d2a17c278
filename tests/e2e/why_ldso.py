#!/usr/bin/env python3
"""inspect --tree --why against the real ld.so (tests/e2e/inspect_why.bash).

    why_ldso.py TREE_JSON LD_DEBUG_TRACE LDSO_HELP

TREE_JSON: `linkguard inspect --tree --why --json TREE`; LD_DEBUG_TRACE: the
stderr of `env -i LD_DEBUG=libs TREE/bin/app`; LDSO_HELP: `ld.so --help`.
For each library ld.so searched ("find library=NAME"), the paths it tried
("trying file=") up to the system's own search (ld.so.cache, the default
directories: linkguard does not list them) must equal the paths
inspect --tree --why lists under that dependency of bin/app's closure, in
order. Exits 1 and prints both lists when they differ.

linkguard lists what ld.so tries on any machine; this one's ld.so tries a
subset, and three normalisations make the two comparable (nothing else):
 - a glibc-hwcaps or legacy subdirectory this ld.so does not search (its
   own --help says which it searches) is dropped from linkguard's list;
 - ld.so tries a legacy subdirectory twice where its platform and hwcap
   names are the same (x86_64/ for AT_PLATFORM x86_64 and hwcap x86_64):
   a path tried twice in a row is one candidate;
 - an absolute entry is the machine's directory, listed by linkguard once
   (reason host-dependent, PATH = DIR/NAME); ld.so's run of tries under DIR
   (its subdirectories, then DIR/NAME) is that one candidate.
 - "missing-directory" (a directory found missing for an earlier name) is
   linkguard's note that ld.so does not try it again: no try, dropped.
"""
import itertools
import json
import re
import sys

LEGACY = {"tls", "x86_64", "haswell", "xeon_phi", "avx512_1"}


def host_subdirs(help_text):
    """The optional subdirectories this ld.so searches, "sub/" strings."""
    subs, hwcaps, platform, tls = set(), [], [], False
    section = None
    for line in help_text.splitlines():
        if line.startswith("Subdirectories of glibc-hwcaps"):
            section = "hwcaps"
            continue
        if line.startswith("Legacy HWCAP subdirectories"):
            section = "legacy"
            continue
        if line and not line[0].isspace():
            section = None
        m = re.match(r"\s+(\S+)(?: \((.*)\))?$", line)
        if not m or section is None:
            continue
        name, notes = m.group(1), m.group(2) or ""
        if "searched" not in notes:
            continue
        if section == "hwcaps":
            subs.add("glibc-hwcaps/%s/" % name)
        elif name == "tls":
            tls = True
        elif "AT_PLATFORM" in notes:
            platform.append(name)
        else:
            hwcaps.append(name)
    for t in ([["tls"], []] if tls else [[]]):
        for p in [[x] for x in platform] + [[]]:
            for n in range(len(hwcaps) + 1):
                for caps in itertools.combinations(hwcaps, n):
                    parts = t + p + list(caps)
                    if parts:
                        subs.add("/".join(parts) + "/")
    return subs


def optional_sub(path, name):
    """The glibc-hwcaps or legacy subdirectory PATH lies in ("" if none)."""
    d = path[: -len(name) - 1] if path.endswith("/" + name) else path
    parts = d.split("/")
    if len(parts) >= 2 and parts[-2] == "glibc-hwcaps" and re.match(r"x86-64-v\d$", parts[-1]):
        return "glibc-hwcaps/%s/" % parts[-1]
    k = 0
    while k < 3 and len(parts) > k + 1 and parts[-1 - k] in LEGACY:
        k += 1
    return "/".join(parts[len(parts) - k:]) + "/" if k else ""


def linkguard_lists(doc):
    """NAME -> [(path, reason)] for bin/app's root, in resolution order."""
    out = {}

    def walk(deps):
        for d in deps:
            if d.get("tried") and d["dependency"] not in out:
                out[d["dependency"]] = [(t["path"], t["reason"]) for t in d["tried"]]
            walk(d.get("dependencies", []))

    for root in doc["files"]:
        if root["path"].endswith("bin/app"):
            walk(root["dependencies"])
    return out


def ldso_lists(trace):
    out, cur = {}, None
    for line in trace.splitlines():
        body = line.split(":", 1)[1].strip() if ":" in line else ""
        m = re.match(r"find library=(\S+) \[\d+\]; searching", body)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        if cur is None:
            continue
        if body.startswith("search cache=") or body.endswith("(system search path)") or body == "":
            cur = None
            continue
        m = re.match(r"trying file=(.*)$", body)
        if m:
            out[cur].append(m.group(1))
    return out


def main():
    doc = json.load(open(sys.argv[1]))
    trace = open(sys.argv[2], errors="replace").read()
    searched = host_subdirs(open(sys.argv[3]).read())
    lg, ld = linkguard_lists(doc), ldso_lists(trace)
    bad = 0
    compared = 0
    for name, tries in ld.items():
        if name not in lg:
            # A name linkguard searches no entry for (the C library's, no
            # DT_RUNPATH applies): ld.so's list must be empty too.
            if tries:
                print("%s: ld.so tried %s; linkguard lists nothing" % (name, tries))
                bad = 1
            continue
        mine = []
        for path, reason in lg[name]:
            if reason == "missing-directory":
                continue
            sub = optional_sub(path, name) if reason != "host-dependent" else ""
            if sub and sub not in searched:
                continue
            mine.append((path, reason))
        theirs = [p for i, p in enumerate(tries) if i == 0 or tries[i - 1] != p]
        hosts = [p for p, r in mine if r == "host-dependent"]
        folded = []
        for p in theirs:
            h = next((h for h in hosts if p.endswith("/" + name) and
                      p.startswith(h[: -len(name)])), None)
            if h is not None:
                if not folded or folded[-1] != h:
                    folded.append(h)
                continue
            folded.append(p)
        compared += 1
        if [p for p, _ in mine] != folded:
            bad = 1
            print("%s: linkguard and ld.so differ" % name)
            for a, b in itertools.zip_longest([f"{p} [{r}]" for p, r in mine], folded,
                                              fillvalue="-"):
                print("  %s %-90s | %s" % ("  " if a.split(" [")[0] == b else "!=", a, b))
        else:
            print("%s: %d candidates, as ld.so tried them" % (name, len(mine)))
    if compared == 0:
        print("no library searched by both")
        bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
