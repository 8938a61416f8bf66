/* Private: the name and parse functions of the public enums (each header
 * declares `const char *ssched_X_name(ssched_X_t)` and `ssched_status_t
 * ssched_X_parse(const char *, ssched_X_t *, ssched_error_t *)`).  Every
 * enum numbers its values 0, 1, ... so one table of names, in value order,
 * gives both directions and the list of accepted names in a parse error. */
#ifndef SSCHED_UTIL_ENUM_NAMES_H
#define SSCHED_UTIL_ENUM_NAMES_H

#include <stddef.h>

#include "ssched/error.h"
#include "src/util/internal.h"

/* names[v], or "unknown" for v outside [0, n). */
SSCHED_INTERNAL const char *ssched_i_enum_name(const char *const *names, size_t n, int v);

/* *out = the index of text in names; else SSCHED_EINPUT "unknown WHAT
 * 'TEXT' (accepted: a, b, c)" (out untouched). */
SSCHED_INTERNAL ssched_status_t ssched_i_enum_parse(const char *what, const char *const *names,
                                                    size_t n, const char *text, int *out,
                                                    ssched_error_t *err);

/* Define ssched_X_name and ssched_X_parse for type with the names given in
 * value order; `what` names the kind of value in parse messages. */
#define SSCHED_I_ENUM_FUNCTIONS(X, type, what, ...)                                              \
    static const char *const X##_enum_names[] = {__VA_ARGS__};                                   \
    const char *ssched_##X##_name(type v)                                                        \
    {                                                                                            \
        return ssched_i_enum_name(X##_enum_names, sizeof X##_enum_names / sizeof *X##_enum_names, \
                                  (int)v);                                                       \
    }                                                                                            \
    ssched_status_t ssched_##X##_parse(const char *text, type *out, ssched_error_t *err)         \
    {                                                                                            \
        int v = 0;                                                                               \
        ssched_status_t st = ssched_i_enum_parse(                                                \
            what, X##_enum_names, sizeof X##_enum_names / sizeof *X##_enum_names, text, &v, err); \
        if (st == SSCHED_OK)                                                                     \
            *out = (type)v;                                                                      \
        return st;                                                                               \
    }

#endif
