/* Names of the makespan enums (makespan.h): one table each, in value order. */
#include "ssched/makespan.h"
#include "src/util/enum_names.h"

SSCHED_I_ENUM_FUNCTIONS(mk_op, ssched_mk_op_t, "operation", "reduce", "broadcast", "allreduce",
                        "scan")

SSCHED_I_ENUM_FUNCTIONS(mk_dp2_variant, ssched_mk_dp2_variant_t, "two-class program", "naive",
                        "mono-s", "mono-sf")

SSCHED_I_ENUM_FUNCTIONS(mk_bnb_preset, ssched_mk_bnb_preset_t, "branch-and-bound preset", "generic",
                        "paper", "full")

SSCHED_I_ENUM_FUNCTIONS(mk_allreduce_alg, ssched_mk_allreduce_alg_t, "all-reduce algorithm",
                        "snf-fnf", "optimal")
