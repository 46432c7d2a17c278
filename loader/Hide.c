/*===- Hide.c - a private mount namespace with one name missing -----------===*
 *
 * Linux only (mount_namespaces(7), user_namespaces(7)). The directory that
 * holds the name is covered by a tmpfs; its other entries are bound back
 * from the original directory through /proc/self/fd/N/NAME, where N is a
 * descriptor opened before the cover, so it still reaches what lies
 * beneath. Symbolic links are recreated with the same target. The tmpfs is
 * then made read-only. All of it dies with the process.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "loader/Hide.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__linux__)
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int writeText(const char *Path, const char *Text) {
  int Fd = open(Path, O_WRONLY | O_CLOEXEC);
  if (Fd < 0)
    return 0;
  ssize_t N = write(Fd, Text, strlen(Text));
  close(Fd);
  return N == (ssize_t)strlen(Text);
}

int enterPrivateMounts(char *Why, size_t Size) {
  if (unshare(CLONE_NEWNS) != 0) {
    int First = errno;
    char Map[64];
    unsigned Uid = (unsigned)getuid(), Gid = (unsigned)getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
      snprintf(Why, Size,
               "unshare(CLONE_NEWNS): %s; unshare(CLONE_NEWUSER | "
               "CLONE_NEWNS): %s",
               strerror(First), strerror(errno));
      return 0;
    }
    writeText("/proc/self/setgroups", "deny"); /* absent before Linux 3.19 */
    snprintf(Map, sizeof Map, "0 %u 1", Uid);
    int Ok = writeText("/proc/self/uid_map", Map);
    snprintf(Map, sizeof Map, "0 %u 1", Gid);
    if (!Ok || !writeText("/proc/self/gid_map", Map)) {
      snprintf(Why, Size, "mapping ids in a new user namespace: %s",
               strerror(errno));
      return 0;
    }
  }
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
    snprintf(Why, Size, "making mounts private: %s", strerror(errno));
    return 0;
  }
  return 1;
}

/* Binds (or, for a symbolic link, recreates) entry Name of the directory
 * open as Old into Dir, which now shows the tmpfs. */
static int rebind(int Old, const char *Dir, const char *Name, char *Why,
                  size_t Size) {
  char Target[PATH_MAX], Source[PATH_MAX];
  struct stat St;
  if (fstatat(Old, Name, &St, AT_SYMLINK_NOFOLLOW) != 0)
    return 1; /* gone meanwhile */
  snprintf(Target, sizeof Target, "%s/%s", Dir, Name);
  if (S_ISLNK(St.st_mode)) {
    char Link[PATH_MAX];
    ssize_t N = readlinkat(Old, Name, Link, sizeof Link - 1);
    if (N < 0)
      return 1;
    Link[N] = '\0';
    if (symlink(Link, Target) == 0)
      return 1;
  } else {
    int Made = S_ISDIR(St.st_mode)
                   ? mkdir(Target, 0700)
                   : close(open(Target, O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    snprintf(Source, sizeof Source, "/proc/self/fd/%d/%s", Old, Name);
    if (Made == 0 && mount(Source, Target, NULL, MS_BIND | MS_REC, NULL) == 0)
      return 1;
  }
  snprintf(Why, Size, "binding %s back: %s", Target, strerror(errno));
  return 0;
}

int hidePath(const char *Path, char *Why, size_t Size) {
  char Copy[PATH_MAX], Dir[PATH_MAX];
  struct stat St;
  size_t Len = strlen(Path);
  if (Path[0] != '/' || Len >= sizeof Copy) {
    snprintf(Why, Size, "not an absolute path");
    return 0;
  }
  memcpy(Copy, Path, Len + 1);
  while (Len > 1 && Copy[Len - 1] == '/')
    Copy[--Len] = '\0';
  char *Slash = strrchr(Copy, '/');
  const char *Name = Slash + 1;
  *Slash = '\0';
  if (Slash == Copy || !strcmp(Name, ".") || !strcmp(Name, "..")) {
    snprintf(Why, Size, "hiding an entry of / is not supported");
    return 0;
  }
  if (!realpath(Copy, Dir) ||
      fstatat(AT_FDCWD, Path, &St, AT_SYMLINK_NOFOLLOW) != 0) {
    snprintf(Why, Size, "%s", strerror(errno));
    return 0;
  }
  /* The directory as the kernel will cover it: "/./etc", "/tmp/../etc" and
   * a symbolic link to / all name an entry of / and would cover the root. */
  if (!strcmp(Dir, "/")) {
    snprintf(Why, Size, "hiding an entry of / is not supported");
    return 0;
  }
  int Old = open(Dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *List = Old < 0 ? NULL : fdopendir(dup(Old));
  struct stat DirSt;
  char Options[32];
  if (!List || fstat(Old, &DirSt) != 0) {
    snprintf(Why, Size, "opening %s: %s", Dir, strerror(errno));
    return 0;
  }
  snprintf(Options, sizeof Options, "mode=%o", DirSt.st_mode & 07777);
  int Ok =
      mount("linkguard-hide", Dir, "tmpfs", MS_NOSUID | MS_NODEV, Options) == 0;
  if (!Ok)
    snprintf(Why, Size, "covering %s: %s", Dir, strerror(errno));
  for (struct dirent *E; Ok && (E = readdir(List));)
    if (strcmp(E->d_name, ".") && strcmp(E->d_name, "..") &&
        strcmp(E->d_name, Name))
      Ok = rebind(Old, Dir, E->d_name, Why, Size);
  closedir(List);
  close(Old);
  if (Ok && mount(NULL, Dir, NULL,
                  MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
                  NULL) != 0) {
    snprintf(Why, Size, "making %s read-only: %s", Dir, strerror(errno));
    Ok = 0;
  }
  return Ok;
}

#else /* no mount namespaces */

int enterPrivateMounts(char *Why, size_t Size) {
  snprintf(Why, Size, "mount namespaces are Linux only");
  return 0;
}

int hidePath(const char *Path, char *Why, size_t Size) {
  (void)Path;
  snprintf(Why, Size, "mount namespaces are Linux only");
  return 0;
}

#endif
