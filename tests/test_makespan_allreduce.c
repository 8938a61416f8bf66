/* All-reduce = reduce to a hub + broadcast from it (seed 000 §5.2). */
#include <stdlib.h>
#include <string.h>

#include "ssched/makespan.h"
#define MK_RNG_SEED 4242 /* rnd() */
#include "mk_test_util.h"


/* SNF+FNF uses the fastest processor as hub and is exactly SNF to it
 * followed by FNF from it, shifted by the reduce makespan. */
static void test_snf_fnf_composition(void)
{
    ssched_mk_cluster_t c;
    ssched_error_t err;
    CU_ASSERT_FATAL(ssched_mk_cluster_parse(&c, "3,2,5/2,1,2,3,1", &err) == SSCHED_OK);
    ssched_mk_schedule_t a, r, b;
    ssched_mk_schedule_init(&a);
    ssched_mk_schedule_init(&r);
    ssched_mk_schedule_init(&b);
    CU_ASSERT_FATAL(ssched_mk_allreduce(&c, SSCHED_MK_ANY_ROOT, SSCHED_MK_ALLREDUCE_SNF_FNF, &a, &err) == SSCHED_OK);
    CU_ASSERT(a.root == 3); /* the first fastest processor */
    CU_ASSERT(a.op == SSCHED_MK_ALLREDUCE && a.count == 12);
    assert_valid(&c, &a);
    CU_ASSERT(ssched_mk_reduce_snf(&c, 3, &r, &err) == SSCHED_OK);
    CU_ASSERT(ssched_mk_broadcast_fnf(&c, 3, &b, &err) == SSCHED_OK);
    CU_ASSERT(mpq_equal(a.reduce_makespan, r.makespan));
    mpq_t sum;
    mpq_init(sum);
    mpq_add(sum, r.makespan, b.makespan);
    CU_ASSERT(mpq_equal(a.makespan, sum));
    for (size_t i = 0; i < 6; i++) {
        CU_ASSERT(a.msg[i].sender == r.msg[i].sender && a.msg[i].receiver == r.msg[i].receiver);
        CU_ASSERT(mpq_equal(a.msg[i].start, r.msg[i].start));
        mpq_add(sum, b.msg[i].start, r.makespan);
        CU_ASSERT(a.msg[6 + i].sender == b.msg[i].sender);
        CU_ASSERT(mpq_equal(a.msg[6 + i].start, sum));
    }
    /* an explicit hub */
    CU_ASSERT(ssched_mk_allreduce(&c, 0, SSCHED_MK_ALLREDUCE_SNF_FNF, &a, &err) == SSCHED_OK);
    CU_ASSERT(a.root == 0);
    assert_valid(&c, &a);
    CU_ASSERT(ssched_mk_allreduce(&c, 7, SSCHED_MK_ALLREDUCE_SNF_FNF, &a, &err) == SSCHED_EINPUT);
    CU_ASSERT(strstr(err.message, "hub 7 out of range") != NULL);
    mpq_clear(sum);
    ssched_mk_schedule_free(&a);
    ssched_mk_schedule_free(&r);
    ssched_mk_schedule_free(&b);
    ssched_mk_cluster_free(&c);
}

/* Optimal composition: never worse than SNF+FNF; with its default hub,
 * the best over all hubs of optimal reduce + optimal broadcast.  And
 * SNF+FNF stays within twice (optimal reduce + optimal broadcast) at its
 * own hub (Theorems 2 and 4.7). */
static void test_optimal_composition(void)
{
    ssched_mk_schedule_t a, o, x;
    ssched_mk_schedule_init(&a);
    ssched_mk_schedule_init(&o);
    ssched_mk_schedule_init(&x);
    ssched_error_t err;
    ssched_mk_stats_t st;
    mpq_t best, sum, bound;
    mpq_inits(best, sum, bound, NULL);
    for (int it = 0; it < 40; it++) {
        size_t n = 1 + rnd(14);
        ssched_mk_cluster_t c;
        CU_ASSERT_FATAL(ssched_mk_cluster_init(&c, n, &err) == SSCHED_OK);
        for (size_t p = 0; p < n; p++) {
            mpq_set_ui(c.time[p], 1 + rnd(3) * 2, 1 + rnd(2));
            mpq_canonicalize(c.time[p]);
        }
        CU_ASSERT(ssched_mk_allreduce(&c, SSCHED_MK_ANY_ROOT, SSCHED_MK_ALLREDUCE_SNF_FNF, &a, &err) == SSCHED_OK);
        CU_ASSERT(ssched_mk_allreduce(&c, SSCHED_MK_ANY_ROOT, SSCHED_MK_ALLREDUCE_OPTIMAL, &o, &err) == SSCHED_OK);
        assert_valid(&c, &a);
        assert_valid(&c, &o);
        CU_ASSERT(mpq_cmp(o.makespan, a.makespan) <= 0);
        for (size_t h = 0; h < n; h++) {
            CU_ASSERT(ssched_mk_reduce_optimal(&c, h, &x, &st, &err) == SSCHED_OK);
            mpq_set(sum, x.makespan);
            CU_ASSERT(ssched_mk_broadcast_optimal(&c, h, &x, &st, &err) == SSCHED_OK);
            mpq_add(sum, sum, x.makespan);
            if (h == 0 || mpq_cmp(sum, best) < 0)
                mpq_set(best, sum);
            if (h == a.root) {
                mpq_add(bound, sum, sum);
                CU_ASSERT(mpq_cmp(a.makespan, bound) <= 0);
            }
        }
        CU_ASSERT(mpq_equal(o.makespan, best));
        ssched_mk_cluster_free(&c);
    }
    mpq_clears(best, sum, bound, NULL);
    ssched_mk_schedule_free(&a);
    ssched_mk_schedule_free(&o);
    ssched_mk_schedule_free(&x);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"SNF + FNF through the fastest processor", test_snf_fnf_composition},
        {"optimal composition and the best hub", test_optimal_composition},
        {NULL, NULL}};
    return tu_main("makespan allreduce", tests);
}
