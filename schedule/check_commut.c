/* Checker: reduce message types, ordered (intervals v[k,m]) or commutative
 * (sets of participants, "problem": {"commutative": true}).
 *
 * A commutative file names every set as its sorted participant indices
 * ("set": [0, 2]) and every computation by its two inputs ("merge": [[0],
 * [2]]).  The checker numbers the sets as it meets them (c->sets) and
 * holds a merge to its semantics: the two inputs are disjoint (no
 * participant may be counted twice) and the result is their union.  The
 * helpers below let the balance, tree and simulation checks treat both
 * kinds alike: a type is "own" (a participant's value at home) or "full"
 * (the result the target must obtain). */
#include <stdlib.h>
#include <string.h>

#include "schedule/check_internal.h"
#include "src/util/internal.h"

ssched_status_t ssched_i_chk_read_set(chk_t *c, json_t *a, const char *where, size_t *set)
{
    size_t n = json_array_size(a);
    if (!json_is_array(a) || n == 0)
        return ssched_i_chk_bad(c, "%s: a set must be a non-empty array of participant indices", where);
    if (!c->scratch) {
        ssched_sets_init(&c->sets, c->N);
        c->scratch = calloc(c->sets.words, sizeof *c->scratch);
        if (!c->scratch)
            return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    }
    memset(c->scratch, 0, c->sets.words * sizeof *c->scratch);
    for (size_t k = 0; k < n; k++) {
        json_t *v = json_array_get(a, k);
        json_int_t j = json_is_integer(v) ? json_integer_value(v) : -1;
        if (j < 0 || (size_t)j >= c->N)
            return ssched_i_chk_bad(c, "%s: set member %zu is not a participant index (0..%zu)", where, k,
                           c->N - 1);
        if (k > 0 && j <= json_integer_value(json_array_get(a, k - 1)))
            return ssched_i_chk_bad(c, "%s: a set lists its participants in increasing order, once each",
                           where);
        c->scratch[j / 64] |= (uint64_t)1 << (j % 64);
    }
    *set = ssched_sets_intern(&c->sets, c->scratch);
    return *set == SIZE_MAX ? ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory") : SSCHED_OK;
}

/* The union of two interned sets, interned; SIZE_MAX on ENOMEM; *overlap
 * tells whether they share a participant. */
static size_t set_union(chk_t *c, size_t a, size_t b, int *overlap)
{
    size_t w = c->sets.words;
    *overlap = 0;
    for (size_t k = 0; k < w; k++) {
        uint64_t x = c->sets.bits[a * w + k], y = c->sets.bits[b * w + k];
        *overlap |= (x & y) != 0;
        c->scratch[k] = x | y;
    }
    return ssched_sets_intern(&c->sets, c->scratch);
}

ssched_status_t ssched_i_chk_comp_types(chk_t *c, json_t *x, const char *where, size_t t[3])
{
    if (!c->comm) {
        size_t v[3];
        if (!ssched_i_chk_int_array(json_object_get(x, "task"), 3, v) ||
            !(v[0] <= v[1] && v[1] < v[2] && v[2] < c->N))
            return ssched_i_chk_bad(c, "%s: \"task\" must be [k, l, m] with k <= l < m < %zu", where, c->N);
        t[0] = ssched_i_chk_interval(c, v[0], v[2]);
        t[1] = ssched_i_chk_interval(c, v[0], v[1]);
        t[2] = ssched_i_chk_interval(c, v[1] + 1, v[2]);
        return SSCHED_OK;
    }
    json_t *m = json_object_get(x, "merge");
    if (!json_is_array(m) || json_array_size(m) != 2)
        return ssched_i_chk_bad(c, "%s: \"merge\" must be [[set], [set]]", where);
    ssched_status_t st;
    if ((st = ssched_i_chk_read_set(c, json_array_get(m, 0), where, &t[1])) != SSCHED_OK ||
        (st = ssched_i_chk_read_set(c, json_array_get(m, 1), where, &t[2])) != SSCHED_OK)
        return st;
    int overlap;
    t[0] = set_union(c, t[1], t[2], &overlap);
    if (t[0] == SIZE_MAX)
        return ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    if (overlap) {
        char a[96], b[96];
        ssched_i_chk_type_name(c, t[1], a, sizeof a);
        ssched_i_chk_type_name(c, t[2], b, sizeof b);
        ssched_i_chk_violation(c, "%s merges %s and %s, which share a participant", where, a, b);
    }
    return SSCHED_OK;
}

size_t ssched_i_chk_type_own(const chk_t *c, size_t type)
{
    if (!c->comm)
        return c->type_origin[type] == c->type_dest[type] ? c->type_origin[type] : SIZE_MAX;
    size_t w = c->sets.words, found = SIZE_MAX;
    for (size_t k = 0; k < w; k++) {
        uint64_t x = c->sets.bits[type * w + k];
        if (!x)
            continue;
        if ((x & (x - 1)) || found != SIZE_MAX)
            return SIZE_MAX; /* two members or more */
        found = k * 64 + (size_t)__builtin_ctzll(x);
    }
    return found;
}

int ssched_i_chk_type_full(const chk_t *c, size_t type)
{
    if (!c->comm)
        return c->type_origin[type] == 0 && c->type_dest[type] == c->N - 1;
    size_t n = 0; /* members; sets hold participant indices only */
    for (size_t k = 0; k < c->sets.words; k++)
        n += (size_t)__builtin_popcountll(c->sets.bits[type * c->sets.words + k]);
    return n == c->N;
}

size_t ssched_i_chk_full_type(chk_t *c)
{
    if (!c->comm)
        return ssched_i_chk_interval(c, 0, c->N - 1);
    if (!c->scratch) {
        ssched_sets_init(&c->sets, c->N);
        if (!(c->scratch = calloc(c->sets.words, sizeof *c->scratch)))
            return SIZE_MAX;
    }
    memset(c->scratch, 0, c->sets.words * sizeof *c->scratch);
    for (size_t j = 0; j < c->N; j++)
        c->scratch[j / 64] |= (uint64_t)1 << (j % 64);
    return ssched_sets_intern(&c->sets, c->scratch);
}

void ssched_i_chk_type_name(const chk_t *c, size_t type, char *buf, size_t len)
{
    if (!c->comm) {
        snprintf(buf, len, "v[%zu,%zu]", c->type_origin[type], c->type_dest[type]);
        return;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < c->N && at + 24 < len; j++)
        if (ssched_sets_has(&c->sets, type, j))
            at += (size_t)snprintf(buf + at, len - at, "%s%zu", at ? "," : "{", j);
    if (at + 24 >= len && at + 4 < len)
        at += (size_t)snprintf(buf + at, len - at, "...");
    snprintf(buf + at, len - at, "%s", at ? "}" : "{}");
}

ssched_status_t ssched_i_chk_commut_collect(chk_t *c, json_t *root)
{
    json_t *slots = json_object_get(root, "slots"), *comps = json_object_get(root, "computations");
    char where[96];
    ssched_status_t st = SSCHED_OK;
    size_t t3[3];
    for (size_t k = 0; k < json_array_size(slots) && st == SSCHED_OK; k++) {
        json_t *tr = json_object_get(json_array_get(slots, k), "transfers");
        for (size_t x = 0; x < json_array_size(tr) && st == SSCHED_OK; x++) {
            snprintf(where, sizeof where, "slots[%zu].transfers[%zu]", k, x);
            json_t *set = json_object_get(json_array_get(tr, x), "set");
            if (set)
                st = ssched_i_chk_read_set(c, set, where, &t3[0]);
        }
    }
    for (size_t x = 0; x < json_array_size(comps) && st == SSCHED_OK; x++) {
        snprintf(where, sizeof where, "computations[%zu]", x);
        if (json_object_get(json_array_get(comps, x), "merge"))
            st = ssched_i_chk_comp_types(c, json_array_get(comps, x), where, t3);
    }
    if (st == SSCHED_OK && ssched_i_chk_full_type(c) == SIZE_MAX)
        st = ssched_error_set(c->err, SSCHED_ENOMEM, "out of memory");
    c->n_types = c->sets.n;
    return st;
}

int ssched_i_chk_commut_result(const chk_t *c, const char *value, size_t op)
{
    unsigned char *seen = ssched_i_calloc(c->N, 1);
    if (!seen)
        return -1;
    int ok = 1;
    size_t got = 0;
    for (const char *s = value; *s && ok;) {
        char *end;
        size_t k = strtoul(s, &end, 10), t;
        ok = *end == '.' && k < c->N && !seen[k];
        if (!ok)
            break;
        t = strtoul(end + 1, &end, 10);
        ok = *end == ';' && t == op;
        seen[k] = 1;
        got++;
        s = end + 1;
    }
    free(seen);
    return ok && got == c->N;
}
