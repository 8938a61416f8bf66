/* ssched lp: export the steady-state LP for exact cross-checks. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/problem_opts.h"
#include "ssched/export.h"
#include "ssched/steady.h"

static const char *synopsis =
    "usage: ssched lp PLATFORM <problem options> -o MODEL.lp|MODEL.mps\n"
    "  writes the LP with integer coefficients (each row scaled by the LCM of its\n"
    "  denominators): glpsol --exact --lp MODEL.lp, or esolver -L MODEL.lp\n"
    "  MODEL.mps is FREE-format MPS (names may exceed 8 characters): read it with\n"
    "  glpsol --freemps MODEL.mps (plain --mps expects fixed columns); -o - writes\n"
    "  the LP format to standard output\n"
    "  switch links (--routers switch) get their own rows link_eE\n"
    "  broadcast: columns copies_eE (copies per time unit over edge E, which carry\n"
    "  the ports) and x_eE_tT (target T's flow), rows copy_eE_tT: x_eE_tT <= copies_eE\n"
    "  reduce --commutative: the relaxation LP (an upper bound on the commutative TP;\n"
    "  lp/build_commutative.c): x_eE messages, m_nV merges, f_pK_eE participant K's\n"
    "  flow, rows msg_nV, flow_pK_nV, deliver_pK, carry_pK_eE, ports, cpu\n"
    "  scan (upper bound; lp/build_scan.c): x_eE_vK_M transfers, t_nV_K_L_M tasks\n"
    "  (these carry ports and cpu), per demand D (participant D's prefix) the\n"
    "  reduce flow f_dD_eE_vK_M, g_dD_nV_K_L_M, rows bal_dD_*, deliver_dD, and the\n"
    "  copy rows cs_dD_* (f <= x), ct_dD_* (g <= t)\n";

static const cli_opt_t lp_table[] = {
    {{"output", required_argument, NULL, 'o'}, "FILE",
     "MODEL.lp (CPLEX LP), MODEL.mps (free MPS), or - (LP on stdout)"},
    {{"help", no_argument, NULL, 'h'}, NULL, "this help"},
    CLI_OPT_END};
static const cli_opt_t *const lp_tables[] = {cli_problem_table, lp_table, NULL};
static const char *const lp_titles[] = {"problem and platform options:", "options:", NULL};

int cli_cmd_lp(int argc, char **argv)
{
    cli_problem_opts_t po = {0};
    const char *output = NULL;
    int help;
    int rc0 = cli_command_options("lp", argc, argv, synopsis, lp_tables, lp_titles, &po, &output,
                                  &help, NULL, NULL);
    if (rc0 != CLI_EXIT_OK || help)
        return rc0;
    if (!output)
        return cli_bad_input("lp", "missing -o MODEL.lp (or MODEL.mps)");
    size_t len = strlen(output);
    /* "-": LP format on standard output */
    int mps = len > 4 && !strcmp(output + len - 4, ".mps");
    if (!mps && strcmp(output, "-") && !(len > 3 && !strcmp(output + len - 3, ".lp")))
        return cli_bad_input("lp", "-o %s: the file name must end in .lp or .mps (or be - for "
                             "the LP format on standard output)", output);

    ssched_platform_t p;
    ssched_problem_t pb;
    ssched_platform_init(&p);
    ssched_problem_init(&pb);
    int rc = cli_problem_load("lp", &po, &p, &pb);
    if (rc == CLI_EXIT_OK) {
        ssched_model_t m;
        ssched_model_init(&m);
        ssched_error_t err;
        ssched_error_clear(&err);
        if (ssched_model_build(&p, &pb, &m, &err) != SSCHED_OK) {
            rc = cli_report("lp", &err);
        } else {
            cli_out_t out;
            rc = cli_out_open(&out, "lp", "-o", output);
            if (rc == CLI_EXIT_OK) {
                ssched_status_t st = mps ? ssched_write_mps(out.f, &m.lp, &err)
                                         : ssched_write_lp(out.f, &m.lp, &err);
                rc = cli_out_finish(&out, "lp", st, &err);
            }
        }
        ssched_model_free(&m);
    }
    ssched_problem_free(&pb);
    ssched_platform_free(&p);
    return rc;
}
