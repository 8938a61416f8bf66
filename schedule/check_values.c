/* The checker's table of values present (schedule/check_values.h), one
 * for the unrolled reduce and scan checkers. */
#include <stdint.h>
#include <stdlib.h>

#include "schedule/check_values.h"

static uint64_t hash3(size_t a, size_t b, size_t c)
{
    uint64_t h = 1469598103934665603ULL;
    h = (h ^ a) * 1099511628211ULL;
    h = (h ^ b) * 1099511628211ULL;
    h = (h ^ c) * 1099511628211ULL;
    return h ^ (h >> 29);
}

chk_val_t *ssched_i_chk_val_find(chk_vals_t *t, size_t node, size_t interval, size_t op,
                                 int insert)
{
    /* at most half full: probes stay short */
    if (insert && 2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        chk_val_t *s = ssched_i_calloc(cap, sizeof *s);
        if (!s)
            return NULL;
        for (size_t k = 0; k < t->cap; k++)
            if (t->s[k].used) {
                size_t h = hash3(t->s[k].node, t->s[k].interval, t->s[k].op) & (cap - 1);
                while (s[h].used)
                    h = (h + 1) & (cap - 1);
                s[h] = t->s[k];
            }
        free(t->s);
        t->s = s;
        t->cap = cap;
    }
    if (!t->cap)
        return NULL;
    size_t h = hash3(node, interval, op) & (t->cap - 1);
    while (t->s[h].used) {
        if (t->s[h].node == node && t->s[h].interval == interval && t->s[h].op == op)
            return &t->s[h];
        h = (h + 1) & (t->cap - 1);
    }
    if (!insert)
        return NULL;
    chk_val_t *x = &t->s[h];
    x->used = 1;
    x->node = node;
    x->interval = interval;
    x->op = op;
    x->value = NULL;
    x->partial = 0;
    mpq_inits(x->since, x->got, NULL);
    t->n++;
    return x;
}

/* A slot with value NULL and one never made answer every question alike
 * (absent, not partial), so a consumed value can leave the table: it then
 * holds the values alive at one time instead of every value ever made.
 * Deletion in linear probing without tombstones (Knuth, TAOCP vol. 3, 6.4
 * Algorithm R): the slots after the hole that cannot be reached past it
 * move back into it. */
void ssched_i_chk_val_erase(chk_vals_t *t, chk_val_t *x)
{
    size_t mask = t->cap - 1, i = (size_t)(x - t->s);
    mpq_clears(t->s[i].since, t->s[i].got, NULL);
    free(t->s[i].value);
    for (size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
        if (!t->s[j].used)
            break;
        size_t h = hash3(t->s[j].node, t->s[j].interval, t->s[j].op) & mask;
        /* j's home h lies cyclically in (i, j]: it stays reachable */
        if (i < j ? (i < h && h <= j) : (i < h || h <= j))
            continue;
        t->s[i] = t->s[j]; /* moves the mpq's limbs too */
        i = j;
    }
    t->s[i].used = 0;
    t->s[i].value = NULL;
    t->n--;
}

void ssched_i_chk_vals_free(chk_vals_t *t)
{
    for (size_t k = 0; k < t->cap; k++)
        if (t->s[k].used) {
            free(t->s[k].value);
            mpq_clears(t->s[k].since, t->s[k].got, NULL);
        }
    free(t->s);
    t->s = NULL;
    t->cap = t->n = 0;
}
