/* Enum names and parsing: see src/util/enum_names.h. */
#include "src/util/enum_names.h"

#include <stdio.h>
#include <string.h>

const char *ssched_i_enum_name(const char *const *names, size_t n, int v)
{
    return v >= 0 && (size_t)v < n ? names[v] : "unknown";
}

ssched_status_t ssched_i_enum_parse(const char *what, const char *const *names, size_t n,
                                    const char *text, int *out, ssched_error_t *err)
{
    for (size_t i = 0; text && i < n; i++)
        if (!strcmp(text, names[i])) {
            *out = (int)i;
            return SSCHED_OK;
        }
    /* the accepted names, for a message that says what would have worked */
    char list[SSCHED_ERROR_MSG_MAX / 2];
    size_t len = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof list; i++) {
        int w = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return ssched_error_set(err, SSCHED_EINPUT, "unknown %s '%s' (accepted: %s)", what,
                            text ? text : "(none)", list);
}
