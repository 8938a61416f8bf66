/* ssched.h — the whole public API in one include: every stage's header
 * under include/ssched/ (one header per pipeline stage, prefix ssched_,
 * explicit init/free pairs, errors returned as ssched_status_t with a
 * message in ssched_error_t), and ssched/export.h, every writer in one
 * shape.  The MPI executor's header, ssched/mpi.h,
 * needs <mpi.h> and libssched_mpi, so it is included only when the program
 * defines SSCHED_WITH_MPI before this file. */
#ifndef SSCHED_H
#define SSCHED_H

#include "ssched/error.h"
#include "ssched/rational.h"
#include "ssched/platform.h"
#include "ssched/problem.h"
#include "ssched/lp.h"
#include "ssched/steady.h"
#include "ssched/trees.h"
#include "ssched/matching.h"
#include "ssched/schedule.h"
#include "ssched/report.h"
#include "ssched/gen.h"
#include "ssched/makespan.h"
#include "ssched/compare.h"
#include "ssched/redistribution.h"
#include "ssched/scatter_balance.h"
#include "ssched/export.h"
#ifdef SSCHED_WITH_MPI
#include "ssched/mpi.h"
#endif

#endif
