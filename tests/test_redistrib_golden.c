/* Before/after test of the issue-26 speed-ups of src/redistribution/ and the
 * arbitrary-rule matching decomposition (lazy residuals, Hopcroft-Karp
 * layers): on fixed random instances every algorithm's schedule, as the
 * text writer prints it, must be byte for byte what the code printed before
 * those changes (FNV-1a 64 of the text, and the exact completion, recorded
 * with the earlier binary: bench/redistribution.sh OLD=... compares the
 * large rows the same way). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssched/export.h"
#include "ssched/rational.h"
#include "ssched/redistribution.h"
#include "test_util.h"

typedef struct {
    size_t P, K, N, x;
    const char *bw_min, *bw_max;
    unsigned seed;
    const char *startup;
    ssched_redist_algorithm_t algorithm;
    unsigned long long fnv; /* of the text output before the change */
    const char *completion;
} golden_t;

static const golden_t golden[] = {
    {7, 3, 210, 1, "1", "9/2", 11, "0", SSCHED_REDIST_DIRECT, 0x73d6421957a3b2e7ULL,
     "628592/34611"},
    {7, 3, 210, 1, "1", "9/2", 11, "0", SSCHED_REDIST_GREEDY, 0x64bfd74a9c8045b5ULL,
     "420316838/24308079"},
    {7, 3, 210, 1, "1", "9/2", 11, "0", SSCHED_REDIST_PREEMPTIVE, 0x0c96815c469f01a3ULL,
     "1210792/71961"},
    {7, 3, 210, 1, "1", "9/2", 11, "1/7", SSCHED_REDIST_DIRECT, 0x7053c61038693d67ULL,
     "4503977/242277"},
    {7, 3, 210, 1, "1", "9/2", 11, "1/7", SSCHED_REDIST_GREEDY, 0xb13a44ac813fb93fULL,
     "3039450182/170156553"},
    {7, 3, 210, 1, "1", "9/2", 11, "1/7", SSCHED_REDIST_PREEMPTIVE, 0x2c3ece1bdd680b0eULL,
     "108712444397109320259770/6127025508543246907509"},
    {16, 5, 800, 2, "10", "200", 5, "0", SSCHED_REDIST_DIRECT, 0x38fff9c44e50a47dULL,
     "177976/114057"},
    {16, 5, 800, 2, "10", "200", 5, "0", SSCHED_REDIST_GREEDY, 0x32b071eac6cb162eULL,
     "9883679/6655320"},
    {16, 5, 800, 2, "10", "200", 5, "0", SSCHED_REDIST_PREEMPTIVE, 0x7b7bfa71636c0481ULL,
     "229997/156078"},
    {16, 5, 800, 2, "10", "200", 5, "3/2", SSCHED_REDIST_DIRECT, 0xa35c157b2f5c1a5fULL,
     "2066807/228114"},
    {16, 5, 800, 2, "10", "200", 5, "3/2", SSCHED_REDIST_GREEDY, 0xf7df5335951a6928ULL,
     "243715411/20307105"},
    {16, 5, 800, 2, "10", "200", 5, "3/2", SSCHED_REDIST_PREEMPTIVE, 0x9e5cba3d134f109dULL,
     "2420023823325650110667643137/140705942660374912328586078"},
    {33, 32, 3168, 1, "10", "200", 3, "0", SSCHED_REDIST_DIRECT, 0xc69c093597588f26ULL,
     "2420444050269737/659748082593600"},
    {33, 32, 3168, 1, "10", "200", 3, "0", SSCHED_REDIST_GREEDY, 0x89db09c9643ee1a1ULL,
     "9502072496678870665209269/4177060081428565507176000"},
    {33, 32, 3168, 1, "10", "200", 3, "0", SSCHED_REDIST_PREEMPTIVE, 0x92430427d2411903ULL,
     "25814799755186669323450195451/11746761798831041653066363968"},
    {33, 32, 3168, 1, "10", "200", 3, "1/7", SSCHED_REDIST_DIRECT, 0xb8ea7babc6353d19ULL,
     "30362587834484113/3709889910619200"},
    {33, 32, 3168, 1, "10", "200", 3, "1/7", SSCHED_REDIST_GREEDY, 0xca514808dda021c2ULL,
     "141263594360090532302466560597/20612328128984526533834835600"},
    {33, 32, 3168, 1, "10", "200", 3, "1/7", SSCHED_REDIST_PREEMPTIVE, 0xed1432d86eb78a31ULL,
     "19816846243434905700946130995405765929750604972798550667120830551963549968268047"
     "9779158495677846388988466768159388511634676849716943/182280506900817425386247600"
     "83510862476356356983914233858177303601869207875438003386855884126430050179148984"
     "69204059199991686400000"},
    {24, 7, 857, 1, "2", "5", 9, "1/3", SSCHED_REDIST_DIRECT, 0x3fad1901644870eaULL,
     "18"},
    {24, 7, 857, 1, "2", "5", 9, "1/3", SSCHED_REDIST_GREEDY, 0x66b7fb407e49a100ULL,
     "217/12"},
    {24, 7, 857, 1, "2", "5", 9, "1/3", SSCHED_REDIST_PREEMPTIVE, 0xcc075b8364464774ULL,
     "324837/14960"},
    {40, 11, 880, 1, "10", "200", 1, "0", SSCHED_REDIST_DIRECT, 0xe783203b4332ab15ULL,
     "92789033/117098520"},
    {40, 11, 880, 1, "10", "200", 1, "0", SSCHED_REDIST_GREEDY, 0x4c6b59310cc522eeULL,
     "8512168389643/14264022402630"},
    {40, 11, 880, 1, "10", "200", 1, "0", SSCHED_REDIST_PREEMPTIVE, 0xcfd665c5f137347bULL,
     "43398377017/73935054270"},
};

static unsigned long long fnv1a(const char *s, size_t n)
{
    unsigned long long h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static void test_same_as_before(void)
{
    for (size_t i = 0; i < sizeof golden / sizeof *golden; i++) {
        const golden_t *g = &golden[i];
        ssched_redist_t r;
        ssched_redist_schedule_t s;
        mpq_t a, b, t;
        mpq_inits(a, b, t, NULL);
        CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(a, g->bw_min, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(b, g->bw_max, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_rational_parse(t, g->startup, NULL), SSCHED_OK);
        ssched_redist_init(&r);
        ssched_redist_schedule_init(&s);
        CU_ASSERT_EQUAL_FATAL(ssched_redist_network_random(&r, g->P, a, b, g->seed, NULL),
                              SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_redist_build(&r, g->K, g->N, g->x, t, NULL), SSCHED_OK);
        CU_ASSERT_EQUAL_FATAL(ssched_redist_schedule(&r, g->algorithm, &s, NULL), SSCHED_OK);
        CU_ASSERT_TRUE(tu_mpq_equals(s.completion, g->completion));
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(ssched_write_redist_text(f, &r, &s, NULL), SSCHED_OK);
        fclose(f);
        if (fnv1a(buf, len) != g->fnv)
            fprintf(stderr, "instance %zu (%s, P = %zu): text differs from before\n", i,
                    ssched_redist_algorithm_name(g->algorithm), g->P);
        CU_ASSERT_EQUAL(fnv1a(buf, len), g->fnv);
        free(buf);
        ssched_redist_schedule_free(&s);
        ssched_redist_free(&r);
        mpq_clears(a, b, t, NULL);
    }
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"schedules byte for byte as before the issue-26 changes", test_same_as_before},
        {NULL, NULL}};
    return tu_main("redistribution before/after", tests);
}
