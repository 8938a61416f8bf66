/* The library's house style (issue 15).  Every public enum has a name and
 * a parse function: each value's name parses back to it, a value out of
 * range is named "unknown", and an unknown name is EINPUT with a message
 * naming the text and the accepted names.  Library messages name fields,
 * not command-line options, and a front end renames them. */
#include <string.h>

#include "ssched/error.h"
#include "ssched/lp.h"
#include "ssched/makespan.h"
#include "ssched/matching.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/redistribution.h"
#include "ssched/scatter_balance.h"
#include "ssched/steady.h"
#include "ssched/trees.h"
#include "test_util.h"

/* count = the number of values (numbered 0 .. count-1). */
#define CHECK_ENUM(X, type, count)                                                        \
    do {                                                                                  \
        ssched_error_t err;                                                               \
        for (int v = 0; v < (count); v++) {                                               \
            const char *name = ssched_##X##_name((type)v);                                \
            type back = (type)((v + 1) % (count));                                        \
            CU_ASSERT_PTR_NOT_NULL_FATAL(name);                                           \
            CU_ASSERT_STRING_NOT_EQUAL(name, "unknown");                                  \
            CU_ASSERT_EQUAL(ssched_##X##_parse(name, &back, &err), SSCHED_OK);            \
            CU_ASSERT_EQUAL((int)back, v);                                                \
        }                                                                                 \
        CU_ASSERT_STRING_EQUAL(ssched_##X##_name((type)(count)), "unknown");              \
        CU_ASSERT_STRING_EQUAL(ssched_##X##_name((type)-1), "unknown");                   \
        type kept = (type)0;                                                              \
        ssched_error_clear(&err);                                                         \
        CU_ASSERT_EQUAL(ssched_##X##_parse("no-such-name", &kept, &err), SSCHED_EINPUT);  \
        CU_ASSERT_EQUAL(err.status, SSCHED_EINPUT);                                       \
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'no-such-name'"));                    \
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, ssched_##X##_name((type)((count)-1)))); \
        CU_ASSERT_EQUAL(ssched_##X##_parse(NULL, &kept, &err), SSCHED_EINPUT);            \
        CU_ASSERT_EQUAL(ssched_##X##_parse("", &kept, &err), SSCHED_EINPUT);              \
        CU_ASSERT_EQUAL((int)kept, 0);                                                    \
    } while (0)

static void test_round_trips(void)
{
    CHECK_ENUM(row_sense, ssched_row_sense_t, 3);
    CHECK_ENUM(lp_outcome, ssched_lp_outcome_t, 3);
    CHECK_ENUM(mk_op, ssched_mk_op_t, 4);
    CHECK_ENUM(mk_dp2_variant, ssched_mk_dp2_variant_t, 3);
    CHECK_ENUM(mk_bnb_preset, ssched_mk_bnb_preset_t, 3);
    CHECK_ENUM(mk_allreduce_alg, ssched_mk_allreduce_alg_t, 2);
    CHECK_ENUM(matching_rule, ssched_matching_rule_t, 2);
    CHECK_ENUM(platform_format, ssched_platform_format_t, 5);
    CHECK_ENUM(problem_kind, ssched_problem_kind_t, 6);
    CHECK_ENUM(redist_algorithm, ssched_redist_algorithm_t, 3);
    CHECK_ENUM(sb_cost_kind, ssched_sb_cost_kind_t, 2);
    CHECK_ENUM(sb_costs, ssched_sb_costs_t, 3);
    CHECK_ENUM(sb_order, ssched_sb_order_t, 3);
    CHECK_ENUM(sb_algorithm, ssched_sb_algorithm_t, 6);
    CHECK_ENUM(method, ssched_method_t, 3);
    CHECK_ENUM(tree_task_kind, ssched_tree_task_kind_t, 2);
}

/* The last value of each enum is the one its count above ends at. */
static void test_counts(void)
{
    CU_ASSERT_EQUAL(SSCHED_ROW_EQ, 2);
    CU_ASSERT_EQUAL(SSCHED_LP_UNBOUNDED, 2);
    CU_ASSERT_EQUAL(SSCHED_MK_SCAN, 3);
    CU_ASSERT_EQUAL(SSCHED_MK_DP2_MONO_SF, 2);
    CU_ASSERT_EQUAL(SSCHED_MK_BNB_FULL, 2);
    CU_ASSERT_EQUAL(SSCHED_MK_ALLREDUCE_OPTIMAL, 1);
    CU_ASSERT_EQUAL(SSCHED_MATCHING_ARBITRARY, 1);
    CU_ASSERT_EQUAL(SSCHED_PLATFORM_MATRIX, 4);
    CU_ASSERT_EQUAL(SSCHED_PROBLEM_SCAN, 5);
    CU_ASSERT_EQUAL(SSCHED_REDIST_PREEMPTIVE, 2);
    CU_ASSERT_EQUAL(SSCHED_SB_COST_TABLE, 1);
    CU_ASSERT_EQUAL(SSCHED_SB_GENERAL, 2);
    CU_ASSERT_EQUAL(SSCHED_SB_ORDER_BANDWIDTH_ASC, 2);
    CU_ASSERT_EQUAL(SSCHED_SB_UNIFORM, 5);
    CU_ASSERT_EQUAL(SSCHED_METHOD_COLGEN, 2);
    CU_ASSERT_EQUAL(SSCHED_TREE_COMPUTE, 1);
}

/* The names the CLI and the JSON outputs use, and one full message. */
static void test_names_and_message(void)
{
    CU_ASSERT_STRING_EQUAL(ssched_problem_kind_name(SSCHED_PROBLEM_ALLREDUCE), "allreduce");
    CU_ASSERT_STRING_EQUAL(ssched_method_name(SSCHED_METHOD_COLGEN), "colgen");
    CU_ASSERT_STRING_EQUAL(ssched_sb_algorithm_name(SSCHED_SB_CLOSED_FORM), "closed-form");
    CU_ASSERT_STRING_EQUAL(ssched_sb_order_name(SSCHED_SB_ORDER_BANDWIDTH_DESC), "bandwidth-desc");
    CU_ASSERT_STRING_EQUAL(ssched_redist_algorithm_name(SSCHED_REDIST_GREEDY), "greedy");
    CU_ASSERT_STRING_EQUAL(ssched_matching_rule_name(SSCHED_MATCHING_BOTTLENECK), "bottleneck");
    ssched_problem_kind_t k;
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_problem_kind_parse("allgather", &k, &err), SSCHED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown problem 'allgather' (accepted: scatter, gossip, "
                                        "reduce, broadcast, allreduce, scan)");
    /* parse may be called without an error record */
    CU_ASSERT_EQUAL(ssched_problem_kind_parse("allgather", &k, NULL), SSCHED_EINPUT);
}

/* Statuses have a name only (nothing parses them back). */
static void test_status_names(void)
{
    const ssched_status_t all[] = {SSCHED_OK,           SSCHED_EINPUT,    SSCHED_ENOMEM,
                                   SSCHED_ESOLVER,      SSCHED_EUNCERTIFIED, SSCHED_EINTERNAL,
                                   SSCHED_ELIMIT};
    size_t n = sizeof all / sizeof *all;
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(ssched_status_name(all[i]));
        CU_ASSERT_STRING_NOT_EQUAL(ssched_status_name(all[i]), "unknown status");
        for (size_t j = 0; j < i; j++)
            CU_ASSERT_STRING_NOT_EQUAL(ssched_status_name(all[i]), ssched_status_name(all[j]));
    }
    CU_ASSERT_STRING_EQUAL(ssched_status_name((ssched_status_t)99), "unknown status");
}

/* ssched_problem_validate names problem fields; ssched_error_rename turns
 * them into a front end's names, every occurrence, within the buffer. */
static void test_field_messages(void)
{
    ssched_platform_t p;
    tu_random_platform(&p, 3);
    ssched_problem_t pb;
    ssched_problem_init(&pb);
    ssched_error_t err;
    CU_ASSERT_EQUAL(ssched_problem_set_reduce(&pb, &p, "P0,P1,P2", "P0", &err), SSCHED_OK);
    mpq_set_ui(pb.size, 0, 1);
    CU_ASSERT_EQUAL(ssched_problem_validate(&pb, &p, &err), SSCHED_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "problem.size"));
    CU_ASSERT_PTR_NULL(strstr(err.message, "--"));
    ssched_error_rename(&err, "problem.size", "--size");
    CU_ASSERT_STRING_EQUAL(err.message, "--size: message size must be positive");
    CU_ASSERT_EQUAL(ssched_problem_set_reduce(&pb, &p, "P0,P1", "zz", &err), SSCHED_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.message, "target: unknown node 'zz'");
    ssched_error_set(&err, SSCHED_EINPUT, "a.b and a.b");
    ssched_error_rename(&err, "a.b", "--x");
    CU_ASSERT_STRING_EQUAL(err.message, "--x and --x");
    char big[SSCHED_ERROR_MSG_MAX];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ssched_error_set(&err, SSCHED_EINPUT, "%s", "x");
    ssched_error_rename(&err, "x", big); /* truncated, still terminated */
    CU_ASSERT_EQUAL(strlen(err.message), SSCHED_ERROR_MSG_MAX - 1);
    ssched_error_rename(NULL, "x", "y");
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"name/parse round trip of every enum", test_round_trips},
        {"enum counts", test_counts},
        {"names and parse message", test_names_and_message},
        {"status names", test_status_names},
        {"messages name fields; front ends rename them", test_field_messages},
        {NULL, NULL}};
    return tu_main("conventions", tests);
}
