/* The program of every tree (tests/ldso/ldso_diff.py): prints the name of
 * each object ld.so mapped into it, as dl_iterate_phdr reports them (the
 * path ld.so opened; "" for the program itself) and the file it leads to. */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
static int cb(struct dl_phdr_info *i, size_t s, void *d) {
  (void)s; (void)d;
  /* and the file that path leads to, resolved in the run's own mounts */
  char *r = i->dlpi_name[0] ? realpath(i->dlpi_name, NULL) : NULL;
  printf("@@map %s\n@@real %s\n", i->dlpi_name, r ? r : "");
  free(r);
  return 0;
}
int main(void) { dl_iterate_phdr(cb, 0); return 0; }
