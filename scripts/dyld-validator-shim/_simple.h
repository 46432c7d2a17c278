/* shim: libplatform's _simple string API (used by mach_o/Error.cpp), over vsnprintf */
#pragma once
#include <stdarg.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef void *_SIMPLE_STRING;
_SIMPLE_STRING _simple_salloc(void);
void _simple_sfree(_SIMPLE_STRING);
int _simple_vsprintf(_SIMPLE_STRING, const char *, va_list);
int _simple_sprintf(_SIMPLE_STRING, const char *, ...);
const char *_simple_string(_SIMPLE_STRING);
void _simple_sresize(_SIMPLE_STRING);
#ifdef __cplusplus
}
#endif
