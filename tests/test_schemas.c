/* Every JSON output carries "format": "ssched-<kind>/<n>" and validates
 * against its schema in schemas/ (JSON Schema 2020-12, checked by Debian's
 * python3-jsonschema through tests/validate_json.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define EX SSCHED_SOURCE_DIR "/examples/"
#define TIERS EX "tiers-small.graphml"

static const struct {
    const char *schema, *args;
} outputs[] = {
    {"solution-1", "solve " EX "fig2.graphml --problem scatter --source Ps --targets P0,P1 --json"},
    {"solution-1", "solve " EX "fig2.graphml --problem gossip --sources Ps,Pa --targets P0,P1 --json"},
    {"solution-1", "solve " EX "fig6.graphml --problem reduce --participants P0,P1,P2 --target P0 "
                   "--method lp --json"},
    {"solution-1", "solve " EX "fig6.graphml --problem reduce --participants P0,P1,P2 --target P0 "
                   "--commutative --json"},
    {"solution-1", "solve " TIERS " --problem broadcast --source lan0_0_0 --json"},
    {"solution-1", "solve " TIERS " --problem broadcast --source lan0_0_0 --targets lan1_0_0,"
                   "lan1_0_1 --json"},
    {"solution-1", "solve " TIERS " --problem scatter --source lan0_0_0 --targets lan1_0_0 "
                   "--routers switch --json"},
    {"solution-1", "solve " EX "fig6.graphml --problem allreduce --participants P0,P1,P2 --json"},
    {"solution-1", "solve " EX "fig6.graphml --problem scan --participants P0,P1,P2 --json"},
    {"solution-1", "solve " EX "fig6.graphml --problem scan --participants P2,P0,P1 --exclusive "
                   "--json"},
    {"solution-1", "solve " TIERS " --problem scatter --source h0_0_0_0 --targets h0_0_1_0,"
                   "h1_0_0_1 --model routed --json"},
    {"schedule-1", "schedule " EX "fig2.graphml --problem scatter --source Ps --targets P0,P1 --json"},
    {"schedule-1", "schedule " EX "fig6.graphml --problem reduce --participants P0,P1,P2 --target "
                   "P0 --json"},
    {"schedule-1", "schedule " EX "fig6.graphml --problem reduce --participants P0,P1,P2 --target "
                   "P0 --fixed-period 3 --json"},
    {"schedule-1", "schedule " EX "fig6.graphml --problem reduce --participants P0,P1,P2 --target "
                   "P0 --commutative --json"},
    {"schedule-1", "schedule " TIERS " --problem broadcast --source lan0_0_0 --targets lan1_0_0,"
                   "lan1_0_1 --json"},
    {"schedule-1", "schedule " EX "fig6.graphml --problem allreduce --participants P0,P1,P2 --json"},
    {"schedule-1", "schedule " EX "fig6.graphml --problem scan --participants P0,P1,P2 --json"},
    {"schedule-1", "schedule " EX "fig6.graphml --problem scan --participants P2,P0,P1 --exclusive "
                   "--fixed-period 10 --json"},
    {"unrolled-2", "schedule " EX "fig2.graphml --problem scatter --source Ps --targets P0,P1 "
                   "--operations 5 --unroll --quiet -o -"},
    {"unrolled-2", "schedule " EX "fig6.graphml --problem reduce --participants P0,P1,P2 --target "
                   "P0 --operations 5 --unroll --quiet -o -"},
    {"unrolled-2", "schedule " EX "fig6.graphml --problem reduce --participants P0,P1,P2 --target "
                   "P0 --commutative --operations 5 --unroll --quiet -o -"},
    {"unrolled-2", "schedule " TIERS " --problem broadcast --source lan0_0_0 --operations 5 "
                   "--unroll --quiet -o -"},
    {"makespan-1", "makespan allreduce --times 1,2,3,5 --root 0 --algorithm optimal --json"},
    {"makespan-1", "makespan broadcast --times 1,2,3,5 --root 0 --algorithm fnf --json"},
    {"compare-1", "compare --times 1,2,3 --root 0 --json"},
    {"compare-1", "compare --times 1,2,3 --root 0 --operation broadcast --json"},
    {"scatter-balance-1", "scatter-balance " SSCHED_DATA_DIR "/seed004_table1.csv --items 100 "
                          "--algorithm lp --json"},
    {"scatter-balance-1", "scatter-balance " SSCHED_DATA_DIR "/seed004_table1.csv --items 50 "
                          "--choose-root --json"},
    {"redistribution-1", "redistribute --P 3 --K 2 --N 12 --bw-min 1 --bw-max 3 --seed 1 "
                         "--algorithm preemptive --json"},
};

static int validate(const char *schema, const char *doc, char **why)
{
    tu_run_t r;
    int st = tu_sh(&r, "/usr/bin/python3 '%s/tests/validate_json.py' "
                       "'%s/schemas/ssched-%s.schema.json' '%s'",
                   SSCHED_SOURCE_DIR, SSCHED_SOURCE_DIR, schema, doc);
    *why = r.err ? strdup(r.err) : NULL;
    tu_run_free(&r);
    return st;
}

static void test_outputs_validate(void)
{
    for (size_t k = 0; k < sizeof outputs / sizeof *outputs; k++) {
        char name[32];
        snprintf(name, sizeof name, "out%zu.json", k);
        const char *doc = tu_tmp_path(name);
        tu_run_t r;
        int st = tu_run(&r, "%s", outputs[k].args);
        if (st != 0)
            fprintf(stderr, "\n  %s: exit %d: %s\n", outputs[k].args, st, r.err);
        CU_ASSERT_EQUAL(st, 0);
        CU_ASSERT_EQUAL(tu_write_file(doc, r.out ? r.out : ""), 0);
        /* the tag names the schema */
        char tag[64];
        snprintf(tag, sizeof tag, "\"format\": \"ssched-%s", outputs[k].schema);
        char *dash = strrchr(tag, '-');
        *dash = '/';
        if (!r.out || !strstr(r.out, tag))
            fprintf(stderr, "\n  %s: no %s\"\n", outputs[k].args, tag);
        CU_ASSERT_PTR_NOT_NULL(r.out ? strstr(r.out, tag) : NULL);
        tu_run_free(&r);
        char *why = NULL;
        st = validate(outputs[k].schema, doc, &why);
        if (st != 0)
            fprintf(stderr, "\n  %s: %s\n", outputs[k].args, why ? why : "?");
        CU_ASSERT_EQUAL(st, 0);
        free(why);
    }
}

/* The schemas are strict: a missing tag, an unknown key or an inexact
 * number fails validation. */
static void test_schemas_reject(void)
{
    static const struct {
        const char *schema, *doc;
    } bad[] = {
        {"makespan-1", "{\"operation\":\"reduce\",\"algorithm\":\"snf\",\"root\":0,\"processors\":1,"
                       "\"times\":[\"1\"],\"makespan\":\"0\",\"makespan_decimal\":\"0\","
                       "\"messages\":[]}"},
        {"compare-1", "{\"format\":\"ssched-compare/1\",\"operation\":\"reduce\",\"algorithm\":"
                      "\"snf\",\"makespan\":\"1\",\"throughput\":\"1\",\"rows\":[{\"M\":1,"
                      "\"one_at_a_time\":\"1\",\"pipelined\":\"1\"}],\"crossover\":null,"
                      "\"extra\":1}"},
        {"compare-1", "{\"format\":\"ssched-compare/1\",\"operation\":\"reduce\",\"algorithm\":"
                      "\"snf\",\"makespan\":\"0.5\",\"throughput\":\"1\",\"rows\":[{\"M\":1,"
                      "\"one_at_a_time\":\"1\",\"pipelined\":\"1\"}],\"crossover\":null}"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char name[32];
        snprintf(name, sizeof name, "bad%zu.json", k);
        const char *doc = tu_tmp_path(name);
        CU_ASSERT_EQUAL_FATAL(tu_write_file(doc, bad[k].doc), 0);
        char *why = NULL;
        CU_ASSERT_EQUAL(validate(bad[k].schema, doc, &why), 1);
        CU_ASSERT_PTR_NOT_NULL(why && *why ? why : NULL);
        free(why);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {{"every output validates", test_outputs_validate},
                                      {"schemas are strict", test_schemas_reject},
                                      {NULL, NULL}};
    return tu_main("schemas", tests);
}
