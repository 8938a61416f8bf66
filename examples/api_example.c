/* Using libssched from C: load a platform, plan a series of scatters from
 * one node to every other node, and print the certified throughput.
 *
 *   api_example PLATFORM.graphml SOURCE
 *
 * Build against an installed ssched with
 *   cc api_example.c $(pkg-config --cflags --libs --static ssched)        */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ssched/rational.h>
#include <ssched/steady.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PLATFORM.graphml SOURCE\n", argv[0]);
        return 2;
    }
    ssched_platform_t platform;
    ssched_problem_t problem;
    ssched_steady_t steady;
    ssched_error_t err;
    ssched_platform_init(&platform);
    ssched_problem_init(&problem);
    ssched_steady_init(&steady);
    ssched_error_clear(&err);
    int status = 1;

    if (ssched_platform_load_graphml(&platform, argv[1], &err) != SSCHED_OK)
        goto fail;
    /* Every node but the source is a target. */
    size_t source;
    if (ssched_platform_find_node(&platform, argv[2], &source, &err) != SSCHED_OK)
        goto fail;
    problem.kind = SSCHED_PROBLEM_SCATTER;
    problem.n_sources = 1;
    problem.sources = malloc(sizeof *problem.sources);
    problem.targets = malloc(platform.n_nodes * sizeof *problem.targets);
    if (!problem.sources || !problem.targets) {
        ssched_error_set(&err, SSCHED_ENOMEM, "out of memory");
        goto fail;
    }
    problem.sources[0] = source;
    for (size_t i = 0; i < platform.n_nodes; i++)
        if (i != source)
            problem.targets[problem.n_targets++] = i;

    if (ssched_steady_solve(&platform, &problem, NULL, &steady, &err) != SSCHED_OK)
        goto fail;
    char *tp = ssched_rational_to_string(steady.throughput);
    char *approx = ssched_rational_to_decimal(steady.throughput, 8, SSCHED_DECIMAL_SIGNIFICANT);
    printf("scatter from %s to %zu targets: TP = %s (~%s) per time unit\n", argv[2],
           problem.n_targets, tp, approx);
    printf("certified: LP of %zu rows x %zu columns, %ld exact repair pivots\n",
           steady.lp_rows, steady.lp_cols, steady.lp.repair_pivots);
    free(tp);
    free(approx);
    status = 0;
    goto done;
fail:
    fprintf(stderr, "%s: %s\n", argv[0], err.message);
    status = err.status == SSCHED_EINPUT ? 2 : 1;
done:
    ssched_steady_free(&steady);
    ssched_problem_free(&problem);
    ssched_platform_free(&platform);
    return status;
}
