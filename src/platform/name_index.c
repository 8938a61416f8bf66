/* Open-addressing hash index of names (see name_index.h). */
#include "src/platform/name_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64 bits: short node ids ("n12345", "h0_1_2_3") spread well. */
static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

void ssched_i_name_index_init(ssched_name_index_t *ix)
{
    memset(ix, 0, sizeof *ix);
}

void ssched_i_name_index_free(ssched_name_index_t *ix)
{
    free(ix->slots);
    memset(ix, 0, sizeof *ix);
}

size_t ssched_i_name_index_find(const ssched_name_index_t *ix, const char *const *names,
                              const char *name)
{
    if (!ix->slots)
        return (size_t)-1;
    for (size_t k = (size_t)hash_name(name) & ix->mask;; k = (k + 1) & ix->mask) {
        size_t v = ix->slots[k];
        if (!v)
            return (size_t)-1;
        if (!strcmp(names[v - 1], name))
            return v - 1;
    }
}

/* Keep the load factor at most 1/2 so probes stay short and a free slot
 * always exists. */
static int rehash(ssched_name_index_t *ix, const char *const *names, size_t cap)
{
    size_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return 0;
    for (size_t k = 0; ix->slots && k <= ix->mask; k++) {
        size_t v = ix->slots[k];
        if (!v)
            continue;
        size_t j = (size_t)hash_name(names[v - 1]) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = v;
    }
    free(ix->slots);
    ix->slots = slots;
    ix->mask = cap - 1;
    return 1;
}

int ssched_i_name_index_add(ssched_name_index_t *ix, const char *const *names, size_t pos,
                          size_t *existing)
{
    if (!ix->slots || 2 * (ix->count + 1) > ix->mask + 1) {
        size_t cap = ix->slots ? 2 * (ix->mask + 1) : 64;
        if (!rehash(ix, names, cap))
            return -1;
    }
    size_t k = (size_t)hash_name(names[pos]) & ix->mask;
    for (; ix->slots[k]; k = (k + 1) & ix->mask)
        if (!strcmp(names[ix->slots[k] - 1], names[pos])) {
            if (existing)
                *existing = ix->slots[k] - 1;
            return 0;
        }
    ix->slots[k] = pos + 1;
    ix->count++;
    return 1;
}
