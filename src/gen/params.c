/* Parameters of the Tiers-like generator: defaults, range parsing,
 * validation and the node/edge counts they imply (see gen.h). */
#include "src/gen/gen_internal.h"

#include <stdlib.h>
#include <string.h>

#include "ssched/rational.h"

static void range_init(ssched_gen_range_t *r, const char *lo, const char *hi)
{
    mpq_inits(r->lo, r->hi, NULL);
    mpq_set_str(r->lo, lo, 10);
    mpq_set_str(r->hi, hi, 10);
    mpq_canonicalize(r->lo);
    mpq_canonicalize(r->hi);
}

void ssched_gen_tiers_params_init(ssched_gen_tiers_params_t *params)
{
    memset(params, 0, sizeof *params);
    params->seed = 1;
    params->wan = 4;
    params->man_per_wan = 2;
    params->lan_per_man = 2;
    params->hosts_per_lan = 3;
    params->wan_redundancy = 2;
    params->man_redundancy = 1;
    /* WAN links slow, MAN medium, LAN fast, as in Tiers' tiers of delays. */
    range_init(&params->c_wan, "2", "10");
    range_init(&params->c_man, "1", "4");
    range_init(&params->c_lan, "1/10", "1");
    range_init(&params->w, "1/2", "5");
    params->max_den = 10;
}

void ssched_gen_tiers_params_free(ssched_gen_tiers_params_t *params)
{
    ssched_gen_range_t *r[] = {&params->c_wan, &params->c_man, &params->c_lan, &params->w};
    for (size_t i = 0; i < sizeof r / sizeof *r; i++)
        mpq_clears(r[i]->lo, r[i]->hi, NULL);
}

ssched_status_t ssched_gen_range_parse(ssched_gen_range_t *range, const char *text,
                                       ssched_error_t *err)
{
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    char *lo_text = malloc(len + 1);
    if (!lo_text)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory");
    memcpy(lo_text, text, len);
    lo_text[len] = '\0';
    const char *hi_text = colon ? colon + 1 : lo_text;
    mpq_t lo, hi;
    mpq_inits(lo, hi, NULL);
    ssched_status_t st = ssched_rational_parse(lo, lo_text, err);
    if (st == SSCHED_OK)
        st = ssched_rational_parse(hi, hi_text, err);
    if (st != SSCHED_OK)
        ssched_error_prefix(err, "range '%s': ", text);
    else if (mpq_sgn(lo) <= 0)
        st = ssched_error_set(err, SSCHED_EINPUT, "range '%s': the lower bound must be positive",
                              text);
    else if (mpq_cmp(lo, hi) > 0)
        st = ssched_error_set(err, SSCHED_EINPUT, "range '%s': lower bound above upper bound",
                              text);
    if (st == SSCHED_OK) {
        mpq_set(range->lo, lo);
        mpq_set(range->hi, hi);
    }
    mpq_clears(lo, hi, NULL);
    free(lo_text);
    return st;
}

/* a * b, or 0 (and *ovf = 1) past SIZE_MAX. */
static size_t mul(size_t a, size_t b, int *ovf)
{
    if (a && b > SIZE_MAX / a) {
        *ovf = 1;
        return 0;
    }
    return a * b;
}

static size_t add(size_t a, size_t b, int *ovf)
{
    if (b > SIZE_MAX - a) {
        *ovf = 1;
        return 0;
    }
    return a + b;
}

static ssched_status_t check_range(const ssched_gen_range_t *r, const char *what,
                                   ssched_error_t *err)
{
    if (mpq_sgn(r->lo) <= 0)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: the lower bound must be positive", what);
    if (mpq_cmp(r->lo, r->hi) > 0)
        return ssched_error_set(err, SSCHED_EINPUT, "%s: lower bound above upper bound", what);
    return SSCHED_OK;
}

ssched_status_t ssched_i_gen_tiers_validate(const ssched_gen_tiers_params_t *params,
                                   ssched_error_t *err)
{
    if (params->wan < 1)
        return ssched_error_set(err, SSCHED_EINPUT, "wan: at least one WAN router is needed");
    if (params->wan > SSCHED_GEN_MAX_NETWORK)
        return ssched_error_set(err, SSCHED_EINPUT, "wan: at most %u WAN routers",
                                SSCHED_GEN_MAX_NETWORK);
    if (params->man_per_wan > SSCHED_GEN_MAX_NETWORK)
        return ssched_error_set(err, SSCHED_EINPUT, "man_per_wan: at most %u MAN routers per WAN router",
                                SSCHED_GEN_MAX_NETWORK);
    if (params->max_den < 1 || params->max_den > SSCHED_GEN_MAX_DEN)
        return ssched_error_set(err, SSCHED_EINPUT, "max_den: must be in [1, %u]",
                                SSCHED_GEN_MAX_DEN);
    ssched_status_t st;
    if ((st = check_range(&params->c_wan, "c_wan", err)) != SSCHED_OK ||
        (st = check_range(&params->c_man, "c_man", err)) != SSCHED_OK ||
        (st = check_range(&params->c_lan, "c_lan", err)) != SSCHED_OK ||
        (st = check_range(&params->w, "w", err)) != SSCHED_OK)
        return st;
    /* Node count W*(1 + M*(1 + L*(1 + H))), with overflow checks since the
     * counts come straight from the command line. */
    int ovf = 0;
    size_t per_lan = add(1, params->hosts_per_lan, &ovf);
    size_t per_man = add(1, mul(params->lan_per_man, per_lan, &ovf), &ovf);
    size_t per_wan = add(1, mul(params->man_per_wan, per_man, &ovf), &ovf);
    size_t nodes = mul(params->wan, per_wan, &ovf);
    if (ovf || nodes > SSCHED_GEN_MAX_NODES)
        return ssched_error_set(err, SSCHED_EINPUT,
                                "too many nodes: W*(1+M*(1+L*(1+H))) must be at most %u",
                                SSCHED_GEN_MAX_NODES);
    return SSCHED_OK;
}

ssched_status_t ssched_gen_tiers_counts(const ssched_gen_tiers_params_t *params,
                                        size_t *n_nodes, size_t *n_edges,
                                        ssched_error_t *err)
{
    ssched_status_t st = ssched_i_gen_tiers_validate(params, err);
    if (st != SSCHED_OK)
        return st;
    size_t W = params->wan, M = params->man_per_wan, L = params->lan_per_man,
           H = params->hosts_per_lan;
    /* Validation bounded the node count, so nothing below overflows: every
     * link has a distinct child node except the redundancy links, which are
     * at most W^2 + W*M^2 with W, M <= SSCHED_GEN_MAX_NETWORK. */
    size_t links = ssched_i_gen_layout_link_count(W, params->wan_redundancy);
    if (M > 0)
        links += W * (ssched_i_gen_layout_link_count(M, params->man_redundancy) + 1);
    links += W * M * L * (1 + H);
    if (n_nodes)
        *n_nodes = W * (1 + M * (1 + L * (1 + H)));
    if (n_edges)
        *n_edges = 2 * links;
    return SSCHED_OK;
}
