/* ssched_gen_tiers: assemble a WAN -> MAN -> LAN platform (gen.h).
 *
 * The three-level hierarchy is that of Tiers (Calvert, Doar, Zegura, "Modeling
 * Internet topology", IEEE Comm. Mag. 1997), the generator behind the
 * experiment of RR-4872 §4.7: one WAN; one MAN per WAN router, attached to
 * it through a gateway; LANs attached to MAN routers, each a star of hosts
 * around a switch.  Only hosts compute (they get w), as in RR-4872 Fig. 9
 * where the LAN nodes take part in the reduction and the others route.
 *
 * Order of the output (hence of node and edge indices):
 *   nodes: wan<a> for all a; man<a>_<b> for all a, b; then for every
 *          (a, b, c): lan<a>_<b>_<c> followed by its hosts h<a>_<b>_<c>_<d>;
 *   edges: WAN links; per WAN router a: the gateway link wan<a>-man<a>_0
 *          then the MAN links; per LAN: the uplink to its MAN router, then
 *          the host links.  Each link u-v is the edge u->v then v->u, u the
 *          upper-level node (or the tree parent / lower index).  */
#include "src/gen/gen_internal.h"
#include "src/util/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    ssched_platform_t *p;
    gen_value_set_t sets[4];  /* SET_*; set s draws from stream GEN_STREAM_C_WAN + s */
    gen_rng_t rng[5];         /* indexed by GEN_STREAM_*                          */
    mpq_t q;
    ssched_error_t *err;
} builder_t;

enum { SET_WAN = 0, SET_MAN = 1, SET_LAN = 2, SET_W = 3 };

/* Add a node named by printf-style fmt; hosts (with_w) draw their w. */
static ssched_status_t add_node(builder_t *b, int with_w, size_t *index, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static ssched_status_t add_node(builder_t *b, int with_w, size_t *index, const char *fmt, ...)
{
    char name[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    if (with_w)
        ssched_i_gen_value_set_draw(&b->sets[SET_W], &b->rng[GEN_STREAM_W], b->q);
    return ssched_platform_add_node(b->p, name, with_w ? b->q : NULL, index, b->err);
}

/* One physical link: two directed edges with independently drawn costs
 * from the range `set` (its stream is GEN_STREAM_C_WAN + set). */
static ssched_status_t add_link(builder_t *b, size_t u, size_t v, int set)
{
    gen_rng_t *rng = &b->rng[GEN_STREAM_C_WAN + set];
    ssched_i_gen_value_set_draw(&b->sets[set], rng, b->q);
    ssched_status_t st = ssched_platform_add_edge(b->p, u, v, b->q, b->err);
    if (st != SSCHED_OK)
        return st;
    ssched_i_gen_value_set_draw(&b->sets[set], rng, b->q);
    return ssched_platform_add_edge(b->p, v, u, b->q, b->err);
}

/* Lay out one network whose routers have global indices ids[0..n-1] and
 * add its links, all drawn from `set`. */
static ssched_status_t add_network(builder_t *b, const size_t *ids, size_t n,
                                   size_t redundancy, int set)
{
    gen_link_t *links;
    size_t n_links;
    ssched_status_t st = ssched_i_gen_layout_network(n, redundancy, &b->rng[GEN_STREAM_LAYOUT],
                                            &links, &n_links, b->err);
    for (size_t k = 0; k < n_links && st == SSCHED_OK; k++)
        st = add_link(b, ids[links[k].a], ids[links[k].b], set);
    free(links);
    return st;
}

static ssched_status_t build(builder_t *b, const ssched_gen_tiers_params_t *P)
{
    size_t W = P->wan, M = P->man_per_wan, L = P->lan_per_man, H = P->hosts_per_lan;
    ssched_status_t st = SSCHED_OK;
    size_t *wan = malloc(W * sizeof *wan);
    size_t *man = ssched_i_alloc(W * M, sizeof *man);
    if (!wan || !man) {
        st = ssched_error_set(b->err, SSCHED_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t a = 0; a < W && st == SSCHED_OK; a++)
        st = add_node(b, 0, &wan[a], "wan%zu", a);
    for (size_t a = 0; a < W && st == SSCHED_OK; a++)
        for (size_t m = 0; m < M && st == SSCHED_OK; m++)
            st = add_node(b, 0, &man[a * M + m], "man%zu_%zu", a, m);
    /* A LAN is its switch followed by its H hosts, so LAN k (in creation
     * order) has its switch at first_lan + k*(1+H). */
    size_t first_lan = W + W * M;
    for (size_t a = 0; a < W && st == SSCHED_OK; a++)
        for (size_t m = 0; m < M && st == SSCHED_OK; m++)
            for (size_t c = 0; c < L && st == SSCHED_OK; c++) {
                st = add_node(b, 0, NULL, "lan%zu_%zu_%zu", a, m, c);
                for (size_t d = 0; d < H && st == SSCHED_OK; d++)
                    st = add_node(b, 1, NULL, "h%zu_%zu_%zu_%zu", a, m, c, d);
            }
    if (st != SSCHED_OK)
        goto done;

    st = add_network(b, wan, W, P->wan_redundancy, SET_WAN);
    for (size_t a = 0; a < W && st == SSCHED_OK && M > 0; a++) {
        st = add_link(b, wan[a], man[a * M], SET_WAN);
        if (st == SSCHED_OK)
            st = add_network(b, &man[a * M], M, P->man_redundancy, SET_MAN);
    }
    size_t sw = first_lan;
    for (size_t k = 0; k < W * M && st == SSCHED_OK; k++)
        for (size_t c = 0; c < L && st == SSCHED_OK; c++, sw += 1 + H) {
            st = add_link(b, man[k], sw, SET_MAN);
            for (size_t d = 0; d < H && st == SSCHED_OK; d++)
                st = add_link(b, sw, sw + 1 + d, SET_LAN);
        }
done:
    free(wan);
    free(man);
    return st;
}

ssched_status_t ssched_gen_tiers(const ssched_gen_tiers_params_t *params,
                                 ssched_platform_t *out, ssched_error_t *err)
{
    ssched_status_t st = ssched_i_gen_tiers_validate(params, err);
    if (st != SSCHED_OK)
        return st;
    builder_t b;
    ssched_platform_t p;
    ssched_platform_init(&p);
    b.p = &p;
    b.err = err;
    mpq_init(b.q);
    for (int s = 0; s < 5; s++)
        ssched_i_gen_rng_seed(&b.rng[s], params->seed, (uint64_t)s);
    const ssched_gen_range_t *ranges[4] = {&params->c_wan, &params->c_man, &params->c_lan,
                                           &params->w};
    const char *names[4] = {"c_wan", "c_man", "c_lan", "w"};
    for (int s = 0; s < 4; s++)
        b.sets[s] = (gen_value_set_t){0, NULL};
    for (int s = 0; s < 4 && st == SSCHED_OK; s++)
        st = ssched_i_gen_value_set_build(&b.sets[s], ranges[s], params->max_den, names[s], err);
    if (st == SSCHED_OK)
        st = build(&b, params);
    if (st == SSCHED_OK)
        st = ssched_platform_finalize(&p, err);
    for (int s = 0; s < 4; s++)
        ssched_i_gen_value_set_free(&b.sets[s]);
    mpq_clear(b.q);
    if (st == SSCHED_OK) {
        ssched_platform_free(out);
        *out = p;
    } else {
        ssched_platform_free(&p);
    }
    return st;
}
