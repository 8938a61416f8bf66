/* Checker: a transfer's duration, at its full rate or as a member of a
 * shared-rate group (docs/model.md, "Routed schedules" and "Shared
 * rates").
 *
 * Full rate: a transfer over e of z = batch * length * size units lasts
 * l(e) + z c(e), c(e) its route's slowest link.
 *
 * Shared rate (routed, multi-port hosts): g >= 2 transfers of equal z whose
 * bandwidth phases start and end at the same instants, all crossing one
 * SHARED link L, each at rate 1 / (g link_c(L)) < 1 / c(e) (no faster than
 * its own bottleneck).  Each takes 1/g of L, so L is saturated by the g of
 * them alone (the capacity rule of check_ports.c keeps every other phase
 * off L then), and the share link_c(L') / (g link_c(L)) <= link_c(L') / c(e)
 * of each other SHARED link L' of its route.  Why SimGrid gives each member
 * exactly that rate (CM02, weight-S 0: max-min without penalties): every
 * member has a saturated link, L, on which its rate is the largest (they
 * are equal); a full-rate flow keeps its own saturated bottleneck L0 (f =
 * 1) where its rate 1/link_c(L0) is the largest, since a member crossing
 * L0 runs slower than its own bottleneck, itself no faster than
 * 1/link_c(L0).  Every flow has such a link: the allocation is the max-min
 * fair one, unique.  The checker re-derives g and L from the times alone:
 * the phase is end - start - l(e); g = phase / (z link_c(L)) must be a whole
 * number >= 2 for a SHARED link L of the route (the first such link in
 * route order), and the group is counted by check_ports.c. */
#include "schedule/check_internal.h"

void ssched_i_chk_transfer_time(const chk_t *c, size_t edge, size_t batch, const mpq_t len,
                                mpq_t d)
{
    mpq_mul(d, c->cost[edge], c->size);
    mpq_mul(d, d, len);
    if (batch > 1) {
        mpq_t b;
        mpq_init(b);
        mpq_set_ui(b, (unsigned long)batch, 1);
        mpq_mul(d, d, b);
        mpq_clear(b);
    }
    if (c->lat)
        mpq_add(d, d, c->lat[edge]);
}

/* z = batch * len * size: the amount the phase moves. */
static void amount(const chk_t *c, size_t batch, const mpq_t len, mpq_t z)
{
    mpq_mul(z, c->size, len);
    if (batch > 1) {
        mpq_t b;
        mpq_init(b);
        mpq_set_ui(b, (unsigned long)batch, 1);
        mpq_mul(z, z, b);
        mpq_clear(b);
    }
}

int ssched_i_chk_duration_group(chk_t *c, size_t edge, size_t batch, const mpq_t len,
                                const mpq_t start, const mpq_t end, const char *where, mpq_t d,
                                unsigned long *g, size_t *link)
{
    *g = 0;
    mpq_t q, z;
    mpq_inits(q, z, NULL);
    mpq_sub(q, end, start);
    ssched_i_chk_transfer_time(c, edge, batch, len, d);
    int ok = mpq_equal(q, d);
    if (!ok && c->routed && !c->hosts_one_port && mpq_cmp(q, d) > 0) {
        /* slower than the full rate: phase / (z link_c(L)) a whole g >= 2 */
        if (c->lat)
            mpq_sub(q, q, c->lat[edge]); /* the bandwidth phase */
        amount(c, batch, len, z);
        for (size_t k = c->route_start[edge]; !ok && k < c->route_start[edge + 1]; k++) {
            size_t L = c->route_links[k];
            if (c->fatpipe[L] || mpq_sgn(z) == 0)
                continue;
            mpq_mul(d, z, c->link_c[L]);
            mpq_div(d, q, d);
            if (mpz_cmp_ui(mpq_denref(d), 1) == 0 && mpz_cmp_ui(mpq_numref(d), 2) >= 0 &&
                mpz_fits_ulong_p(mpq_numref(d))) {
                *g = mpz_get_ui(mpq_numref(d));
                *link = L;
                ok = 1;
            }
        }
        mpq_sub(q, end, start);
        ssched_i_chk_transfer_time(c, edge, batch, len, d);
    }
    if (!ok)
        ssched_i_chk_violation(c, "%s: lasts %s time units than %s", where,
                               mpq_cmp(q, d) < 0 ? "fewer" : "more",
                               c->has_lat ? "l + batch*length*size*c" : "length*size*c");
    mpq_clears(q, z, NULL);
    return ok;
}
