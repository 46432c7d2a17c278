/* shim implementations: strlcpy/strlcat (BSD) and libplatform's _simple strings */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
size_t lg_strlcpy(char *d, const char *s, size_t n) {
  size_t l = strlen(s);
  if (n) { size_t c = l < n - 1 ? l : n - 1; memcpy(d, s, c); d[c] = 0; }
  return l;
}
size_t lg_strlcat(char *d, const char *s, size_t n) {
  size_t dl = strnlen(d, n);
  if (dl == n) return n + strlen(s);
  return dl + lg_strlcpy(d + dl, s, n - dl);
}
struct lg_simple { char *buf; size_t len, cap; };
void *_simple_salloc(void) { struct lg_simple *s = calloc(1, sizeof *s); s->cap = 256; s->buf = calloc(1, s->cap); return s; }
void _simple_sfree(void *p) { struct lg_simple *s = p; if (s) { free(s->buf); free(s); } }
int _simple_vsprintf(void *p, const char *fmt, va_list ap) {
  struct lg_simple *s = p; va_list c; va_copy(c, ap);
  int n = vsnprintf(NULL, 0, fmt, c); va_end(c);
  if (n < 0) return n;
  if (s->len + n + 1 > s->cap) { s->cap = s->len + n + 1; s->buf = realloc(s->buf, s->cap); }
  vsnprintf(s->buf + s->len, n + 1, fmt, ap); s->len += n; return n;
}
int _simple_sprintf(void *p, const char *fmt, ...) { va_list ap; va_start(ap, fmt); int n = _simple_vsprintf(p, fmt, ap); va_end(ap); return n; }
const char *_simple_string(void *p) { return ((struct lg_simple *)p)->buf; }
void _simple_sresize(void *p) { struct lg_simple *s = p; s->len = strlen(s->buf); }
/* Mach VM calls (common/Array.h's OverflowSafeArray grows with vm_allocate)
   over mmap; host calls (Architecture::current(), never reached by valid())
   fail. */
#include <stdint.h>
#include <sys/mman.h>
unsigned int mach_task_self_ = 1;
int vm_allocate(unsigned int task, uintptr_t *addr, uintptr_t size, int flags) {
  (void)task; (void)flags;
  void *p = mmap(0, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 3; /* KERN_NO_SPACE */
  *addr = (uintptr_t)p;
  return 0;
}
int vm_deallocate(unsigned int task, uintptr_t addr, uintptr_t size) { (void)task; return munmap((void *)addr, size) ? 4 : 0; }
unsigned int mach_host_self(void) { return 0; }
int host_info(unsigned int h, int flavor, void *info, unsigned int *count) { (void)h; (void)flavor; (void)info; (void)count; return 5; /* KERN_FAILURE */ }
int mach_port_deallocate(unsigned int task, unsigned int name) { (void)task; (void)name; return 0; }
uintptr_t vm_page_size = 16384;
