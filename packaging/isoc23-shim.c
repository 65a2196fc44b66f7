/* The C23 entry points of glibc 2.38 that Debian trixie's prebuilt Swift runtime
 * archives (and its libstdc++.a) call, defined over the glibc 2.36 functions of
 * Raspberry Pi OS bookworm, so the aarch64 paneld needs no GLIBC_2.38.
 * packaging/build-aarch64.sh compiles this file and links it into the binaries.
 *
 * What C23 changed in these functions, and what that means here:
 * - strtol and friends with base 0 or 2 accept a "0b"/"0B" prefix. The wrappers
 *   below do the same (parse_binary_prefix), so they return what glibc 2.38 does
 *   for every input, not only for the decimal and hexadecimal text the callers
 *   pass (environment variables such as SWIFT_DEBUG_*, and /proc files).
 * - scanf gained the %b conversion (binary integers). The only callers linked in
 *   are the runtime's and libstdc++'s fixed format strings; build-aarch64.sh
 *   prints them from the archives, and none uses %b, so vsscanf of glibc 2.36 reads
 *   the same text the same way. Its 0b-prefix change for %i does not matter for the
 *   same reason (no %i in those formats).
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
