/* Sets of participants (commutative reduce, schedule.h: ssched_sets_t).
 *
 * A commutative reduction tree is an ordered one over its own order of the
 * participants, so the same partial result (a set) appears in different
 * trees as different intervals: the schedule's message types are the sets,
 * interned here as bitsets so that equal sets from any tree share a type. */
#include <stdlib.h>
#include <string.h>

#include "schedule/internal.h"

void ssched_sets_init(ssched_sets_t *s, size_t n_participants)
{
    memset(s, 0, sizeof *s);
    s->words = (n_participants + 63) / 64;
    if (s->words == 0)
        s->words = 1;
}

void ssched_sets_free(ssched_sets_t *s)
{
    free(s->bits);
    free(s->hash);
    memset(s, 0, sizeof *s);
}

static size_t hash_bits(const uint64_t *b, size_t words)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t k = 0; k < words; k++)
        h = (h ^ b[k]) * 1099511628211ULL;
    return (size_t)(h ^ (h >> 31));
}

static size_t probe(const ssched_sets_t *s, const uint64_t *bits, int *found)
{
    size_t h = hash_bits(bits, s->words) & (s->hash_cap - 1);
    while (s->hash[h]) {
        if (!memcmp(&s->bits[(s->hash[h] - 1) * s->words], bits, s->words * sizeof *bits)) {
            *found = 1;
            return h;
        }
        h = (h + 1) & (s->hash_cap - 1);
    }
    *found = 0;
    return h;
}

size_t ssched_sets_find(const ssched_sets_t *s, const uint64_t *bits)
{
    int found;
    if (!s->hash_cap)
        return SIZE_MAX;
    size_t h = probe(s, bits, &found);
    return found ? s->hash[h] - 1 : SIZE_MAX;
}

size_t ssched_sets_intern(ssched_sets_t *s, const uint64_t *bits)
{
    size_t at = ssched_sets_find(s, bits);
    if (at != SIZE_MAX)
        return at;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        uint64_t *b = realloc(s->bits, cap * s->words * sizeof *b);
        if (!b)
            return SIZE_MAX;
        s->bits = b;
        s->cap = cap;
    }
    if (2 * (s->n + 1) > s->hash_cap) { /* keep the table at most half full */
        size_t hc = s->hash_cap ? 2 * s->hash_cap : 64;
        size_t *h = calloc(hc, sizeof *h), *old = s->hash;
        if (!h)
            return SIZE_MAX;
        s->hash = h;
        s->hash_cap = hc;
        for (size_t k = 0; k < s->n; k++) {
            int found;
            s->hash[probe(s, &s->bits[k * s->words], &found)] = k + 1;
        }
        free(old);
    }
    memcpy(&s->bits[s->n * s->words], bits, s->words * sizeof *bits);
    int found;
    s->hash[probe(s, bits, &found)] = s->n + 1;
    return s->n++;
}

int ssched_sets_copy(ssched_sets_t *dst, const ssched_sets_t *src)
{
    ssched_sets_free(dst);
    ssched_sets_init(dst, src->words * 64);
    dst->words = src->words ? src->words : 1;
    for (size_t k = 0; k < src->n; k++)
        if (ssched_sets_intern(dst, &src->bits[k * src->words]) == SIZE_MAX)
            return 0;
    return 1;
}

size_t ssched_sets_members(const ssched_sets_t *s, size_t set, size_t N, size_t *out)
{
    size_t n = 0;
    for (size_t j = 0; j < N; j++)
        if (ssched_sets_has(s, set, j))
            out[n++] = j;
    return n;
}

size_t ssched_i_sched_tree_set(ssched_sets_t *s, const ssched_tree_t *t, size_t k, size_t m,
                      uint64_t *scratch)
{
    memset(scratch, 0, s->words * sizeof *scratch);
    for (size_t i = k; i <= m; i++) {
        size_t j = t->order ? t->order[i] : i;
        scratch[j / 64] |= (uint64_t)1 << (j % 64);
    }
    return ssched_sets_intern(s, scratch);
}

ssched_status_t ssched_i_sched_tree_task_sets(ssched_sets_t *s, const ssched_tree_t *t, size_t x,
                                     size_t out[3], uint64_t *scratch, ssched_error_t *err)
{
    const ssched_tree_task_t *task = &t->tasks[x];
    out[0] = ssched_i_sched_tree_set(s, t, task->k, task->m, scratch);
    out[1] = out[2] = SIZE_MAX;
    if (task->kind == SSCHED_TREE_COMPUTE) {
        out[1] = ssched_i_sched_tree_set(s, t, task->k, task->l, scratch);
        out[2] = ssched_i_sched_tree_set(s, t, task->l + 1, task->m, scratch);
        if (out[1] == SIZE_MAX || out[2] == SIZE_MAX)
            out[0] = SIZE_MAX;
    }
    return out[0] == SIZE_MAX ? ssched_error_set(err, SSCHED_ENOMEM, "out of memory") : SSCHED_OK;
}
