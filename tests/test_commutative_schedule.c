/* Commutative reduce schedules (issue 14 items 2 and 5), the periodic
 * side: message types are SETS of participants, built from hand-made
 * solutions (tests/test_commutative_fixture.inc), checked by the periodic
 * checker, and mutations it must reject.  The unrolled side is
 * tests/test_commutative_unroll.c. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/schedule.h"
#include "ssched/steady.h"
#include "test_util.h"

#include "test_commutative_fixture.inc"

/* The set of a JSON array, as text "[0, 2]". */
static int set_is(json_t *a, const char *text)
{
    char *s = json_dumps(a, JSON_COMPACT);
    char want[64];
    size_t n = 0;
    for (const char *c = text; *c && n + 1 < sizeof want; c++)
        if (*c != ' ')
            want[n++] = *c;
    want[n] = '\0';
    int ok = s && !strcmp(s, want);
    free(s);
    return ok;
}

static void test_chain_periodic(void)
{
    inst_t x;
    chain(&x);
    ssched_schedule_t s;
    char *text = build_json(&x, &s), why[512];
    CU_ASSERT(s.commutative);
    CU_ASSERT(tu_mpq_equals(s.period, "1"));
    CU_ASSERT_EQUAL(mpz_get_ui(s.ops_per_period), 1);
    CU_ASSERT_EQUAL(s.n_computations, 2);
    CU_ASSERT_EQUAL(check(text, why, sizeof why), 1);
    json_t *root = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT(json_is_true(json_object_get(json_object_get(root, "problem"), "commutative")));
    /* transfers carry sets: {0} over P0 -> P2, {0,2} over P2 -> P1 */
    int seen0 = 0, seen02 = 0;
    json_t *slots = json_object_get(root, "slots");
    for (size_t k = 0; k < json_array_size(slots); k++) {
        json_t *tr = json_object_get(json_array_get(slots, k), "transfers");
        for (size_t t = 0; t < json_array_size(tr); t++) {
            json_t *o = json_array_get(tr, t);
            CU_ASSERT_PTR_NULL(json_object_get(o, "interval"));
            const char *from = json_string_value(json_object_get(o, "from"));
            seen0 += !strcmp(from, "P0") && set_is(json_object_get(o, "set"), "[0]");
            seen02 += !strcmp(from, "P2") && set_is(json_object_get(o, "set"), "[0, 2]");
        }
    }
    CU_ASSERT_EQUAL(seen0, 1);
    CU_ASSERT_EQUAL(seen02, 1);
    /* computations name their two input sets */
    json_t *comps = json_object_get(root, "computations");
    int p1 = 0, p2 = 0;
    for (size_t k = 0; k < json_array_size(comps); k++) {
        json_t *o = json_array_get(comps, k), *m = json_object_get(o, "merge");
        const char *node = json_string_value(json_object_get(o, "node"));
        CU_ASSERT_PTR_NULL(json_object_get(o, "task"));
        p1 += !strcmp(node, "P1") && set_is(json_array_get(m, 0), "[1]") &&
              set_is(json_array_get(m, 1), "[0, 2]");
        p2 += !strcmp(node, "P2") && set_is(json_array_get(m, 0), "[0]") &&
              set_is(json_array_get(m, 1), "[2]");
    }
    CU_ASSERT_EQUAL(p1, 1);
    CU_ASSERT_EQUAL(p2, 1);
    json_decref(root);
    free(text);
    ssched_schedule_free(&s);
    inst_free(&x);
}

static void test_two_orders_share_types(void)
{
    inst_t x;
    two_orders(&x);
    ssched_schedule_t s;
    char *text = build_json(&x, &s), why[512];
    CU_ASSERT(tu_mpq_equals(s.throughput, "1"));
    CU_ASSERT(tu_mpq_equals(s.period, "2"));
    CU_ASSERT_EQUAL(check(text, why, sizeof why), 1);
    /* {0,1,2} over P2 -> P3: one transfer type carrying both trees'
     * values, 2 per period (the slots may cut it) */
    size_t e = edge(&x, 2, 3), type = SIZE_MAX;
    mpq_t sum;
    mpq_init(sum);
    for (size_t k = 0; k < s.n_slots; k++)
        for (size_t t = 0; t < s.slots[k].n_transfers; t++)
            if (s.slots[k].transfers[t].edge == e) {
                CU_ASSERT(type == SIZE_MAX || type == s.slots[k].transfers[t].type);
                type = s.slots[k].transfers[t].type;
                mpq_add(sum, sum, s.slots[k].transfers[t].amount);
            }
    CU_ASSERT(tu_mpq_equals(sum, "2"));
    mpq_clear(sum);
    CU_ASSERT_FATAL(type != SIZE_MAX);
    for (size_t j = 0; j < 4; j++)
        CU_ASSERT_EQUAL(ssched_sets_has(&s.sets, type, j), j < 3);
    /* P2 merges {0,1} + {2} twice per period: one computation of count 2 */
    size_t on_p2 = 0;
    for (size_t k = 0; k < s.n_computations; k++)
        if (s.computations[k].node == 2) {
            on_p2++;
            CU_ASSERT_EQUAL(mpz_get_ui(s.computations[k].count), 2);
        }
    CU_ASSERT_EQUAL(on_p2, 1);
    free(text);
    ssched_schedule_free(&s);
    inst_free(&x);
}


/* P2 merges {0} with {0,2}: v0 twice */
static void overlap_merge(json_t *root)
{
    json_t *m = json_object_get(first_comp(root, "P2"), "merge");
    json_array_set_new(m, 1, json_pack("[ii]", 0, 2));
}
/* P0 sends {0,1} instead of {0}: nobody has it */
static void wrong_set(json_t *root)
{
    json_object_set_new(first_transfer(root, "P0"), "set", json_pack("[ii]", 0, 1));
}
/* sets list their members in increasing order */
static void unsorted_set(json_t *root)
{
    json_object_set_new(first_transfer(root, "P2"), "set", json_pack("[ii]", 2, 0));
}
/* the tree's root merges v1 with {0}: the result misses participant 2 */
static void tree_misses(json_t *root)
{
    json_t *t = json_array_get(json_object_get(json_array_get(json_object_get(root, "trees"), 0),
                                               "tasks"), 0);
    json_object_set_new(t, "merge", json_pack("[[i][i]]", 1, 0));
}
/* an interval where a set belongs */
static void interval_key(json_t *root)
{
    json_t *x = first_transfer(root, "P0");
    json_object_del(x, "set");
    json_object_set_new(x, "interval", json_pack("[ii]", 0, 0));
}
/* one slot twice as short: the link's busy time no longer fits */
static void short_slot(json_t *root)
{
    json_t *sl = json_array_get(json_object_get(root, "slots"), 0);
    json_object_set_new(sl, "end", json_string("1/2"));
}

static void test_periodic_mutations(void)
{
    inst_t x;
    chain(&x);
    ssched_schedule_t s;
    char *text = build_json(&x, &s);
    mutate(text, overlap_merge, 0, "share a participant");
    mutate(text, wrong_set, 0, "conserve");
    mutate(text, unsorted_set, -1, "increasing order");
    mutate(text, tree_misses, 0, "trees[0]");
    mutate(text, interval_key, -1, "interval");
    mutate(text, short_slot, 0, "slot");
    free(text);
    ssched_schedule_free(&s);
    inst_free(&x);
}

int main(void)
{
    const tu_test_t tests[] = {
        {"chain P0 -> P2 -> P1: sets, merges, checked", test_chain_periodic},
        {"two trees of different orders share set types", test_two_orders_share_types},
        {"periodic checker rejects mutations", test_periodic_mutations},
        {NULL, NULL}};
    return tu_main("commutative_schedule", tests);
}
