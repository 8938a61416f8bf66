/* Resource limits (issue 11, item 4): requests that would run without bound
 * are refused up front, or stopped at a documented budget, with exit status
 * 2 and exactly one stderr line naming the estimate and the option that
 * raises the limit; raised limits let the same requests run.  Allocation
 * failures end with one line and exit 1, never a signal. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmp.h>

#include "ssched/error.h"
#include "test_util.h"

#define SB_CSV SSCHED_DATA_DIR "/seed004_table1.csv"

/* An --times argument for n processors, time i = 1 + i mod classes
 * (classes = 0: all distinct, 1 + i).  Long lists go through a file, as
 * "$(cat FILE)" (the shell expands it; the command line stays short). */
static char *times_list(size_t n, size_t classes)
{
    char *s = malloc(n * 12 + 1), *w = s;
    for (size_t i = 0; i < n; i++)
        w += sprintf(w, "%s%zu", i ? "," : "", 1 + (classes ? i % classes : i));
    if (n < 500)
        return s;
    static int count;
    char name[32];
    snprintf(name, sizeof name, "times%d.txt", count++);
    const char *path = tu_tmp_path(name);
    CU_ASSERT(tu_write_file(path, s) == 0);
    free(s);
    size_t len = strlen(path) + 16;
    s = malloc(len);
    snprintf(s, len, "\"$(cat '%s')\"", path);
    return s;
}

/* stderr of a run that went through: empty, or progress lines only (slow
 * builds, e.g. under the sanitizers, take more than a second). */
static int only_progress(const char *err)
{
    for (const char *l = err; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < 511 ? len : 511), l);
        if (!strstr(line, " s, "))
            return 0;
        l += len + (nl != NULL);
    }
    return 1;
}

/* A refusal: exit 2, nothing on stdout, one stderr line holding every
 * needle. */
static void expect_refusal(tu_run_t *r, const char *needle1, const char *needle2)
{
    CU_ASSERT_EQUAL(r->status, 2);
    CU_ASSERT_EQUAL(tu_count_lines(r->err), 1);
    CU_ASSERT_STRING_EQUAL(r->out, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(r->err, needle1));
    if (needle2)
        CU_ASSERT_PTR_NOT_NULL(strstr(r->err, needle2));
    if (r->status != 2 || tu_count_lines(r->err) != 1)
        fprintf(stderr, "\n  got status %d, stderr: %s\n", r->status, r->err);
}

static void test_makespan_memory(void)
{
    char *t = times_list(30000, 3);
    tu_run_t r;
    /* the branch-and-bound stacks of 30,000 processors: gigabytes */
    tu_run(&r, "makespan reduce --times %s --root 0 --algorithm optimal", t);
    expect_refusal(&r, "30000 processors needs about", "raise it with --max-memory MB");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "GB (estimate); limit 4096 MB"));
    tu_run_free(&r);
    tu_run(&r, "makespan broadcast --times %s --root 0 --algorithm optimal", t);
    expect_refusal(&r, "(estimate)", "--max-memory MB");
    tu_run_free(&r);
    tu_run(&r, "makespan allreduce --times %s --algorithm optimal", t);
    expect_refusal(&r, "(estimate)", "--max-memory MB");
    tu_run_free(&r);
    /* a lower limit refuses smaller instances */
    free(t);
    t = times_list(2000, 0);
    tu_run(&r, "makespan reduce --times %s --root 0 --algorithm optimal --max-memory 10", t);
    expect_refusal(&r, "limit 10 MB", "--max-memory MB");
    tu_run_free(&r);
    free(t);
    /* the heuristics need no limit; small optima run as before */
    t = times_list(30000, 3);
    CU_ASSERT_EQUAL(tu_run(&r, "makespan reduce --times %s --root 0 --algorithm snf", t), 0);
    tu_run_free(&r);
    free(t);
    CU_ASSERT_EQUAL(tu_run(&r, "makespan reduce --times 3,1,2,2 --root 0 --algorithm optimal "
                               "--max-memory 1"), 0);
    CU_ASSERT(only_progress(r.err));
    tu_run_free(&r);
    /* bad values */
    tu_run(&r, "makespan reduce --times 3,1 --root 0 --algorithm optimal --max-memory -1");
    expect_refusal(&r, "--max-memory", NULL);
    tu_run_free(&r);
}

static void test_makespan_work(void)
{
    /* 26 distinct times: the search runs for minutes without a budget */
    char *t = times_list(26, 0);
    tu_run_t r;
    tu_run(&r, "makespan reduce --times %s --root 0 --algorithm optimal --max-work 1000000", t);
    expect_refusal(&r, "branch-and-bound stopped after", "raise it with --max-work STEPS");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "limit 1000000 steps"));
    tu_run_free(&r);
    tu_run(&r, "makespan broadcast --times %s --root 3 --algorithm optimal --max-work 1000000", t);
    expect_refusal(&r, "without proving optimality", "--algorithm fnf");
    tu_run_free(&r);
    tu_run(&r, "makespan allreduce --times %s --algorithm optimal --max-work 1000000", t);
    expect_refusal(&r, "without proving optimality", "--max-work STEPS");
    tu_run_free(&r);
    free(t);
    /* enough budget: the proven optimum, as before */
    t = times_list(12, 0);
    CU_ASSERT_EQUAL(tu_run(&r, "makespan reduce --times %s --root 0 --algorithm optimal "
                               "--max-work 0", t), 0);
    CU_ASSERT(only_progress(r.err));
    tu_run_free(&r);
    free(t);
}

static void test_scatter_limits(void)
{
    tu_run_t r;
    /* Algorithm 1 is O(p n^2): 7.5e12 evaluations, refused before any work */
    tu_run(&r, "scatter-balance %s --items 1000000 --algorithm dp", SB_CSV);
    expect_refusal(&r, "evaluations (estimate); limit 10000000000",
                   "raise it with --max-work EVALUATIONS");
    tu_run_free(&r);
    /* Algorithm 2 cannot be estimated tightly: it stops at its budget */
    tu_run(&r, "scatter-balance %s --items 200000 --algorithm dp-fast --max-work 2000000",
           SB_CSV);
    expect_refusal(&r, "the DP stopped after", "raise it with --max-work EVALUATIONS");
    tu_run_free(&r);
    /* memory: the p x (n+1) choice table */
    tu_run(&r, "scatter-balance %s --items 10000000 --algorithm dp-fast --max-memory 100",
           SB_CSV);
    expect_refusal(&r, "(estimate); limit 100 MB", "raise it with --max-memory MB");
    tu_run_free(&r);
    /* within limits, and with raised ones */
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance %s --items 2000 --algorithm dp", SB_CSV), 0);
    CU_ASSERT(only_progress(r.err));
    tu_run_free(&r);
    tu_run(&r, "scatter-balance %s --items 20000 --algorithm dp --max-work 1000", SB_CSV);
    expect_refusal(&r, "limit 1000", "--max-work");
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance %s --items 20000 --algorithm dp-fast "
                               "--max-work 0 --max-memory 0", SB_CSV), 0);
    tu_run_free(&r);
    /* the exact method is fast for any n */
    CU_ASSERT_EQUAL(tu_run(&r, "scatter-balance %s --items 10000000", SB_CSV), 0);
    CU_ASSERT(only_progress(r.err));
    tu_run_free(&r);
}

static void test_redistribute_limits(void)
{
    tu_run_t r;
    /* preemptive on P = 512: the edge colouring would run for minutes */
    tu_run(&r, "redistribute --P 512 --K 512 --N 1048576 --bw-min 1 --bw-max 10 "
               "--algorithm preemptive --json");
    expect_refusal(&r, "261632 messages) needs about", "raise it with --max-work STEPS");
    tu_run_free(&r);
    tu_run(&r, "redistribute --P 256 --K 256 --N 262144 --bw-min 1 --bw-max 10 "
               "--algorithm direct --json --max-memory 16");
    expect_refusal(&r, "(estimate); limit 16 MB", "raise it with --max-memory MB");
    tu_run_free(&r);
    tu_run(&r, "redistribute --P 64 --K 64 --N 16384 --bw-min 1 --bw-max 10 "
               "--algorithm greedy --max-work 1000");
    expect_refusal(&r, "limit 1000", "--max-work STEPS");
    tu_run_free(&r);
    CU_ASSERT_EQUAL(tu_run(&r, "redistribute --P 16 --K 4 --N 256 --bw-min 1 --bw-max 10 "
                               "--algorithm preemptive"), 0);
    CU_ASSERT(only_progress(r.err));
    tu_run_free(&r);
}

/* Allocation failure: under an address-space limit the CLI ends with one
 * line and exit status 1, never a signal (ssched's allocations report
 * SSCHED_ENOMEM; GMP's go through ssched_gmp_exit_on_oom).  Not under the
 * sanitizers, whose shadow memory needs the address space. */
static void test_out_of_memory(void)
{
#ifdef SSCHED_SANITIZED
    return;
#else
    char *t = times_list(30000, 3);
    tu_run_t r;
    /* the limit raised, the machine says no */
    tu_sh(&r, "ulimit -v 400000 && exec %s makespan reduce --times %s --root 0 "
              "--algorithm optimal --max-memory 0", SSCHED_BIN, t);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT_EQUAL(tu_count_lines(r.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "out of memory"));
    tu_run_free(&r);
    /* tight limits hit wherever they hit (loader, GMP, ssched): a clean
     * exit every time */
    for (int kb = 46000; kb <= 70000; kb += 3000) {
        tu_sh(&r, "ulimit -v %d && exec %s makespan reduce --times %s --root 0 --algorithm snf",
              kb, SSCHED_BIN, t);
        CU_ASSERT(r.status == 0 || r.status == 1 || r.status == 127);
        if (r.status == 1)
            CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "out of memory"));
        tu_run_free(&r);
    }
    free(t);

    /* the GMP hook itself, through the public API, in a child process */
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(3);
        struct rlimit lim = {(rlim_t)256 << 20, (rlim_t)256 << 20};
        if (setrlimit(RLIMIT_AS, &lim) != 0)
            _exit(4);
        ssched_gmp_exit_on_oom("test");
        mpz_t x;
        mpz_init(x);
        mpz_setbit(x, (mp_bitcnt_t)1 << 32); /* 512 MB of limbs */
        _exit(0);
    }
    int status = 0;
    CU_ASSERT(waitpid(pid, &status, 0) == pid);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 1);
#endif
}

int main(void)
{
    static const tu_test_t tests[] = {
        {"makespan: memory estimate refuses up front", test_makespan_memory},
        {"makespan: branch-and-bound work budget", test_makespan_work},
        {"scatter-balance: DP work and memory", test_scatter_limits},
        {"redistribute: work and memory", test_redistribute_limits},
        {"allocation failure: exit 1, one line", test_out_of_memory},
        {NULL, NULL}};
    return tu_main("limits", tests);
}
