/* Error records: see include/ssched/error.h. */
#include "ssched/error.h"

#include <stdio.h>
#include <string.h>

void ssched_error_clear(ssched_error_t *err)
{
    if (!err)
        return;
    err->status = SSCHED_OK;
    err->message[0] = '\0';
}

/* A message is one line whatever it quotes (a file's value, a node name):
 * control characters become '?', so input can never forge a line of the
 * caller's output or stderr. */
static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

ssched_status_t ssched_error_set(ssched_error_t *err, ssched_status_t status,
                                 const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        one_line(err->message);
        err->status = status;
    }
    return status;
}

void ssched_error_prefix(ssched_error_t *err, const char *fmt, ...)
{
    if (!err)
        return;
    char prefix[SSCHED_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    size_t plen = strlen(prefix), mlen = strlen(err->message);
    if (plen >= SSCHED_ERROR_MSG_MAX)
        plen = SSCHED_ERROR_MSG_MAX - 1;
    if (plen + mlen >= SSCHED_ERROR_MSG_MAX)
        mlen = SSCHED_ERROR_MSG_MAX - 1 - plen;
    memmove(err->message + plen, err->message, mlen);
    memcpy(err->message, prefix, plen);
    err->message[plen + mlen] = '\0';
    one_line(err->message);
}

void ssched_error_rename(ssched_error_t *err, const char *from, const char *to)
{
    if (!err || !from || !*from)
        return;
    char out[SSCHED_ERROR_MSG_MAX];
    size_t len = 0, flen = strlen(from), tlen = strlen(to);
    const char *s = err->message;
    while (*s && len + 1 < sizeof out) {
        if (!strncmp(s, from, flen)) {
            size_t n = tlen < sizeof out - 1 - len ? tlen : sizeof out - 1 - len;
            memcpy(out + len, to, n);
            len += n;
            s += flen;
        } else {
            out[len++] = *s++;
        }
    }
    out[len] = '\0';
    one_line(out);
    memcpy(err->message, out, len + 1);
}

const char *ssched_status_name(ssched_status_t status)
{
    switch (status) {
    case SSCHED_OK: return "ok";
    case SSCHED_EINPUT: return "bad input";
    case SSCHED_ENOMEM: return "out of memory";
    case SSCHED_ESOLVER: return "LP solver failure";
    case SSCHED_EUNCERTIFIED: return "result could not be certified";
    case SSCHED_EINTERNAL: return "internal error";
    case SSCHED_ELIMIT: return "resource limit reached";
    }
    return "unknown status";
}
