/* Shared helpers for the CUnit suites: run the CLI, temporary files, main(). */
#ifndef SSCHED_TEST_UTIL_H
#define SSCHED_TEST_UTIL_H

#include <CUnit/Basic.h>
#include <gmp.h>

typedef struct {
    int status;   /* exit status of the command (or -1 if it did not exit) */
    char *out;    /* captured stdout */
    char *err;    /* captured stderr */
} tu_run_t;

/* Run `SSCHED_BIN <args>` through /bin/sh (args is printf-formatted),
 * capturing stdout and stderr.  Returns r->status. */
int tu_run(tu_run_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same for an arbitrary shell command. */
int tu_sh(tu_run_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tu_run_free(tu_run_t *r);

/* Number of lines in s (a final line without '\n' counts). */
int tu_count_lines(const char *s);

/* A fresh path inside this process's scratch directory (removed at exit). */
const char *tu_tmp_path(const char *name);
/* Write text to a file; returns 0 on success. */
int tu_write_file(const char *path, const char *text);
/* Read a whole file (malloc'ed, NUL-terminated) or NULL. */
char *tu_read_file(const char *path);

/* Assert q == "p/q" text. */
int tu_mpq_equals(const mpq_t q, const char *text);

/* Deterministic pseudo-random numbers (splitmix64) for random instances. */
unsigned tu_pick(unsigned n);
/* A random platform on n nodes P0..P(n-1): a ring (so most instances are
 * strongly connected) plus each other ordered pair with probability 35%,
 * costs a/b with a in 1..9, b in 1..6; finalized. */
#include "ssched/platform.h"
void tu_random_platform(ssched_platform_t *p, unsigned n);
/* The edges of tu_random_platform on nodes 0..n-1 already added: a ring
 * plus each other ordered pair with probability 35%, costs a/b (a in 1..9,
 * b in 1..6); then finalize. */
void tu_random_edges(ssched_platform_t *p, unsigned n);

/* Hand-built platforms: a node with processing time w (NULL: none), an edge
 * a -> b of cost c, and both directions of a link (rationals as text; a
 * failure fails the running test). */
void tu_node(ssched_platform_t *p, const char *name, const char *w);
void tu_edge(ssched_platform_t *p, size_t a, size_t b, const char *c);
void tu_link2(ssched_platform_t *p, size_t a, size_t b, const char *c);
/* The complete graph on n nodes P0..P(n-1) of processing time w, links of
 * cost 1; initialised here and finalized. */
void tu_complete(ssched_platform_t *p, size_t n, const char *w);

/* QSopt_ex's exact optimum of the LP written by ssched_write_lp, or -1
 * if esolver fails: the reference that shares nothing with ssched but the
 * exported file. */
#include "ssched/lp.h"
int tu_esolver_optimum(const ssched_lp_t *lp, mpq_t out);

/* A schedule's "ssched-schedule/1" text, or an unrolled schedule's
 * "ssched-unrolled/2" text, as ssched_write_schedule_json and
 * ssched_write_unrolled_json write it (malloc'ed; NULL on failure). */
#include "ssched/schedule.h"
char *tu_schedule_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                       const ssched_schedule_t *s);
char *tu_unrolled_json(const ssched_platform_t *p, const ssched_problem_t *pb,
                       const ssched_schedule_t *s, const ssched_unrolled_t *u);

/* Stream the K operations of s (ssched_write_unrolled_stream) to the
 * scratch path name, its figures into fig (initialised by the caller),
 * then check the file: it must be valid (else why on stderr, after
 * label).  Returns the path. */
const char *tu_stream_checked(const ssched_platform_t *p, const ssched_problem_t *pb,
                              const ssched_schedule_t *s, unsigned long K, const char *name,
                              ssched_unroll_figures_t *fig, const char *label);
/* Check schedule JSON text: 1 valid, 0 invalid, -1 malformed; why gets
 * the violation or the error. */
int tu_check_text(const char *text, char *why, size_t cap);

/* The certificate of a steady state, switches included: TP = the sum of
 * every price; a priced resource is saturated and none is over 1; a switch
 * has no port load or price; exactly the edges with a switch end have a
 * link row, whose load is the edge's busy time (messages of `size`). */
#include "ssched/steady.h"
void tu_check_certificate(const ssched_platform_t *p, const mpq_t size, const ssched_steady_t *s);

typedef struct {
    const char *name;
    void (*fn)(void);
} tu_test_t;

/* Names of the hosts (nodes with w) of p, comma-separated into out (cap
 * bytes): at most n of them, every `step`-th one starting at the
 * (skip % step)-th. */
void tu_host_list(const ssched_platform_t *p, size_t n, size_t step, size_t skip, char *out,
                  size_t cap);
/* A problem on the hosts of p: kind 0 a scatter from host 0 to n_targets
 * hosts (every other one from host 1), 1 a gossip from hosts 0,3,6 to
 * 1,4,7, 2 a reduce of hosts 0,2,4,6 to host `reduce_target` (an index
 * among the hosts, as tu_host_list counts them).  SSCHED_OK or the
 * status of ssched_problem_set_*. */
#include "ssched/problem.h"
ssched_status_t tu_host_problem(const ssched_platform_t *p, int kind, size_t n_targets,
                                size_t reduce_target, ssched_problem_t *pb);
/* A random problem of kind (scatter, gossip or reduce) on the hosts
 * h[0..nh) (nh >= 2) into the initialised pb, drawn with tu_pick: a
 * scatter from h[tu_pick(nh)] to each other host with probability 2/3 (at
 * least one); a gossip from and to each host with probability 3/4 each (at
 * least one of each); a reduce of at most max_part of the hosts in order,
 * each with probability 2/3 (at least 2), to h[tu_pick(nh)]. */
void tu_random_host_problem(ssched_problem_t *pb, ssched_problem_kind_t kind, const size_t *h,
                            size_t nh, size_t max_part);
/* A small `gen tiers` platform (2 WANs of 1 MAN, 1 + seed % 2 LANs of 2
 * hosts each; seed), initialised here; a failure fails the running test.
 * tu_first_host: the index of p's first host (a node with w; none fails
 * the running test). */
void tu_small_tiers(ssched_platform_t *p, unsigned seed);
size_t tu_first_host(const ssched_platform_t *p);
/* The CLI problem options of the shipped examples for (platform, kind):
 * "fig2" (scatter, gossip), "fig6" and "tiers-small" (scatter, gossip,
 * reduce).  Returns buf. */
const char *tu_example_problem(const char *plat, const char *kind, char *buf, size_t cap);

/* Routed schedule tests: solve, plan and unroll K operations (the file
 * must pass the checker; *makespan and *ktp = K / TP returned); load a
 * shipped SimGrid file (SSCHED_DATA_DIR/simgrid/FILE) with 1 MB units and
 * 10^7 flops per task; is makespan m <= (1 + slack) K/TP (slack a
 * fraction text; says why not on stderr)? */
void tu_routed_plan(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K,
                    mpq_t makespan, mpq_t ktp);
void tu_load_simgrid(ssched_platform_t *p, const char *file);
int tu_within(const mpq_t m, const mpq_t ktp, const char *slack);
/* tu_routed_plan, then K/TP must be ktp (NULL: any) and the makespan
 * within slack of it (NULL: not checked). */
void tu_routed_expect(const ssched_platform_t *p, const ssched_problem_t *pb, size_t K,
                      const char *ktp, const char *slack);
/* Plan K operations of the solved st (no_split as ssched_unroll_plan
 * takes it) into s and unroll them into u; a failure says why on stderr
 * and fails the running test. */
void tu_unroll_planned(const ssched_platform_t *p, const ssched_problem_t *pb,
                       const ssched_steady_t *st, size_t K, int no_split, ssched_schedule_t *s,
                       ssched_unrolled_t *u);

/* Runs under SMPI (tests/tu_routed.c).  tu_smpi_runner: the exact
 * configuration's wrapper ssched-exec-smpirun into runner; 0 (and a
 * "skipped" line) when it or smpirun is absent.  tu_hostfile: `ssched
 * export hostfile xml` into the scratch path name (a failure fails the
 * running test).  tu_smpi_within: run the unrolled file plan on np ranks
 * of xml with --verify --json: 1 iff it exits 0, every payload verified,
 * simulated / planned makespan within tol of 1 and the output holds
 * expect (NULL: anything); else 0, why on stderr (label first).
 * tu_cluster4_xml: cluster_backbone.xml's cluster cut to 4 hosts node-0
 * .. node-3 (125 MB/s private links, 50 us; a 2.25 GB/s backbone) written
 * to the scratch path name. */
int tu_smpi_runner(char *runner, size_t cap);
const char *tu_hostfile(const char *xml, const char *name);
int tu_smpi_within(const char *label, const char *runner, int np, const char *xml,
                   const char *hosts, const char *plan, const char *units, double tol,
                   const char *expect);
const char *tu_cluster4_xml(const char *name);

/* Register the NULL-terminated tests as one suite, run them with the basic
 * interface, and return the exit status for main(): 0 iff all passed. */
int tu_main(const char *suite, const tu_test_t *tests);

#endif
