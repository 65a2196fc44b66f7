/* The C23 entry points of glibc 2.38 that Debian trixie's prebuilt Swift runtime
 * archives (and its libstdc++.a) call, defined over the glibc 2.36 functions of
 * Raspberry Pi OS bookworm, so the aarch64 paneld needs no GLIBC_2.38.
 * packaging/build-aarch64.sh compiles this file and links it into the binaries.
 *
 * What C23 changed in these functions, and whether it matters here (audited with
 * `nm` and `objdump -d` on the archives paneld links):
 * - strtol and friends with base 0 or 2 accept a "0b"/"0B" prefix. The wrappers
 *   below do the same (parse_binary_prefix), so they return what glibc 2.38 does
 *   for every input. Their callers in paneld are libswiftCore's environment
 *   variables (SWIFT_DEBUG_* and the like), its crash handler and the concurrency
 *   runtime's settings: numbers a user types, where "0b101" reads as 5 either way.
 * - scanf gained %b (binary integers) and 0b for %i. The one sscanf call linked in
 *   is libswiftCore's CommandLine.cpp reading /proc/self/maps with "%p-%p": no %b,
 *   no %i, so glibc 2.36's vsscanf reads it the same way.
 * - bookworm's libstdc++.a (GCC 12, linked instead of libstdc++.so) calls none of
 *   them. Foundation's and libdispatch's callers (CFUUID, ICU, workqueue) are not
 *   linked into paneld or panelgauge-bench.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* If nptr (after blanks and a sign) holds "0b" or "0B" and a binary digit, and
 * base is 0 or 2, returns a pointer to the first binary digit and sets *negative;
 * otherwise NULL: the caller then uses the glibc 2.36 function unchanged. */
static const char *parse_binary_prefix(const char *nptr, int base, int *negative) {
    const char *p = nptr;
    if (base != 0 && base != 2) return NULL;
    while (isspace((unsigned char)*p)) p++;
    *negative = 0;
    if (*p == '+' || *p == '-') *negative = *p++ == '-';
    if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) return p + 2;
    return NULL;
}

/* Reads binary digits from p; sets *endptr and *overflow, returns the magnitude. */
static unsigned long long read_binary(const char *p, char **endptr, int *overflow) {
    unsigned long long v = 0;
    *overflow = 0;
    for (; *p == '0' || *p == '1'; p++) {
        if (v > ULLONG_MAX / 2) *overflow = 1;
        v = v * 2 + (unsigned long long)(*p - '0');
    }
    if (endptr) *endptr = (char *)p;
    return v;
}

long long __isoc23_strtoll(const char *nptr, char **endptr, int base) {
    int negative, overflow;
    const char *p = parse_binary_prefix(nptr, base, &negative);
    if (!p) return strtoll(nptr, endptr, base);
    unsigned long long v = read_binary(p, endptr, &overflow);
    if (overflow || v > (unsigned long long)LLONG_MAX + negative) {
        errno = ERANGE;
        return negative ? LLONG_MIN : LLONG_MAX;
    }
    return negative ? (long long)(0 - v) : (long long)v;
}

long __isoc23_strtol(const char *nptr, char **endptr, int base) {
    /* long and long long have the same width on aarch64 Linux (LP64). */
    return (long)__isoc23_strtoll(nptr, endptr, base);
}

unsigned long long __isoc23_strtoull(const char *nptr, char **endptr, int base) {
    int negative, overflow;
    const char *p = parse_binary_prefix(nptr, base, &negative);
    if (!p) return strtoull(nptr, endptr, base);
    unsigned long long v = read_binary(p, endptr, &overflow);
    if (overflow) {
        errno = ERANGE;
        return ULLONG_MAX;
    }
    return negative ? 0 - v : v;
}

unsigned long __isoc23_strtoul(const char *nptr, char **endptr, int base) {
    return (unsigned long)__isoc23_strtoull(nptr, endptr, base);
}

int __isoc23_vsscanf(const char *s, const char *format, va_list ap) { return vsscanf(s, format, ap); }

int __isoc23_sscanf(const char *s, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsscanf(s, format, ap);
    va_end(ap);
    return n;
}
