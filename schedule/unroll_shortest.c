/* The shortest pattern of a solution's own (LCM) period: every count
 * divided by the counts' gcd (ssched_i_sched_shortest_pattern). */
#include "schedule/unroll_internal.h"
#include "src/util/internal.h"

/* The shortest period of a broadcast, all-reduce or reduce pattern: the
 * builder's period T is the LCM of the rates' denominators, which depends
 * on the unit of time (every cost x 65536/10^8 turned 24 messages per
 * period into 1171875).  The counts n_i = y_i T share a gcd g; dividing
 * every count, slot and T by g leaves n_i / g, the least integers in the
 * ratio of the rates (reduce: tree instances and tasks alike): a pattern
 * fixed by the operations (y_i / TP), the same at every unit.  The slots
 * divided by g are the matchings of the divided loads, so the pattern
 * stays one-port, at the same rates. */
void ssched_i_sched_shortest_pattern(ssched_schedule_t *s)
{
    ssched_arborescences_t *a = &s->arborescences;
    mpz_t g;
    mpz_init_set(g, s->ops_per_period);
    for (size_t i = 0; i < a->count; i++) {
        if (mpz_cmp_ui(mpq_denref(a->items[i].weight), 1) != 0) {
            mpz_clear(g);
            return; /* not counts: leave it */
        }
        mpz_gcd(g, g, mpq_numref(a->items[i].weight));
    }
    /* all-reduce: the trees' instances and the tasks per period too */
    for (size_t t = 0; t < s->trees.n_trees; t++)
        mpz_gcd(g, g, s->trees.trees[t].weight);
    for (size_t k = 0; k < s->n_computations; k++)
        mpz_gcd(g, g, s->computations[k].count);
    if (s->trees.n_trees)
        mpz_gcd(g, g, s->trees.ops_per_period);
    if (mpz_sgn(g) == 0 || mpz_cmp_ui(g, 1) == 0) {
        mpz_clear(g);
        return;
    }
    mpq_t f;
    mpq_init(f);
    mpq_set_z(f, g);
    mpq_inv(f, f);
    for (size_t i = 0; i < a->count; i++)
        mpq_mul(a->items[i].weight, a->items[i].weight, f);
    mpq_mul(a->value, a->value, f);
    for (size_t t = 0; t < s->trees.n_trees; t++)
        mpz_divexact(s->trees.trees[t].weight, s->trees.trees[t].weight, g);
    for (size_t k = 0; k < s->n_computations; k++)
        mpz_divexact(s->computations[k].count, s->computations[k].count, g);
    if (s->trees.n_trees) {
        mpz_divexact(s->trees.ops_per_period, s->trees.ops_per_period, g);
        if (mpz_divisible_p(s->trees.period, g))
            mpz_divexact(s->trees.period, s->trees.period, g);
    }
    mpz_divexact(s->ops_per_period, s->ops_per_period, g);
    mpq_mul(s->period, s->period, f);
    for (size_t k = 0; k < s->n_slots; k++) {
        mpq_mul(s->slots[k].start, s->slots[k].start, f);
        mpq_mul(s->slots[k].end, s->slots[k].end, f);
        for (size_t t = 0; t < s->slots[k].n_transfers; t++)
            mpq_mul(s->slots[k].transfers[t].amount, s->slots[k].transfers[t].amount, f);
    }
    mpq_clear(f);
    mpz_clear(g);
}
