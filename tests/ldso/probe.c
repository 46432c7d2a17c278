/* The program of every tree (tests/ldso/ldso_diff.py): prints the name of
 * each object ld.so mapped into it, as dl_iterate_phdr reports them (the
 * path ld.so opened; "" for the program itself). */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
static int cb(struct dl_phdr_info *i, size_t s, void *d) {
  (void)s; (void)d;
  printf("@@map %s\n", i->dlpi_name);
  return 0;
}
int main(void) { dl_iterate_phdr(cb, 0); return 0; }
