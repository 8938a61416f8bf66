/* The scan part of the makespan checker (check.c): data readiness of every
 * message and every processor's prefix at the end.  Independent of
 * scan_search.c: no bitmasks, no closure table; whether v[lo,hi] can be
 * formed from a set of intervals is a reachability walk over the positions
 * lo..hi+1 (v[lo,x-1] formed and [x,y] held give v[lo,y]), which needs the
 * operands in operator order and nothing else. */
#include <stdlib.h>

#include "src/makespan/mk_internal.h"

/* Can processor p form v[lo,hi] from its own value and the intervals of the
 * messages it received that ended by `when` (every message if when is
 * NULL)?  reach has n + 1 entries (scratch). */
static int formable(const ssched_mk_schedule_t *s, size_t p, size_t lo, size_t hi,
                    mpq_srcptr when, unsigned char *reach)
{
    size_t n = s->n;
    for (size_t x = 0; x <= n; x++)
        reach[x] = 0;
    reach[lo] = 1; /* the empty prefix v[lo,lo-1] */
    /* positions only grow, so sweeping left to right once suffices: an
     * interval starting at x is used once reach[x] is known */
    for (size_t x = lo; x <= hi; x++) {
        if (!reach[x])
            continue;
        if (x == p)
            reach[x + 1] = 1;
        for (size_t i = 0; i < s->count; i++) {
            const ssched_mk_message_t *m = &s->msg[i];
            if (m->receiver == p && m->lo == x && m->hi <= hi &&
                (!when || mpq_cmp(m->end, when) <= 0))
                reach[m->hi + 1] = 1;
        }
    }
    return reach[hi + 1];
}

ssched_status_t ssched_i_mk_check_scan(const ssched_mk_cluster_t *c, const ssched_mk_schedule_t *s,
                                       ssched_error_t *err)
{
    size_t n = c->n;
    for (size_t i = 0; i < s->count; i++)
        if (s->msg[i].lo > s->msg[i].hi || s->msg[i].hi >= n)
            return ssched_error_set(err, SSCHED_EINPUT,
                                    "message %zu (%zu->%zu): interval v[%zu,%zu] is not within "
                                    "processors 0..%zu", i, s->msg[i].sender, s->msg[i].receiver,
                                    s->msg[i].lo, s->msg[i].hi, n - 1);
    unsigned char *reach = malloc(n + 1);
    if (!reach)
        return ssched_i_mk_nomem(err);
    ssched_status_t st = SSCHED_OK;
    for (size_t i = 0; i < s->count && st == SSCHED_OK; i++) {
        const ssched_mk_message_t *m = &s->msg[i];
        if (!formable(s, m->sender, m->lo, m->hi, m->start, reach)) {
            char b[64];
            gmp_snprintf(b, sizeof b, "%Qd", m->start);
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "data not ready: message %zu (%zu->%zu) sends v[%zu,%zu] at %s "
                                  "but processor %zu cannot form it then", i, m->sender,
                                  m->receiver, m->lo, m->hi, b, m->sender);
        }
    }
    /* every message ends by the makespan (checked by the caller), so all
     * of them count at the end */
    for (size_t p = 0; p < n && st == SSCHED_OK; p++) {
        if (s->exclusive && p == 0)
            continue;
        size_t hi = s->exclusive ? p - 1 : p;
        if (!formable(s, p, 0, hi, NULL, reach))
            st = ssched_error_set(err, SSCHED_EINPUT,
                                  "processor %zu never holds its prefix v[0,%zu]", p, hi);
    }
    free(reach);
    return st;
}
