/* Helpers shared by the writers (src/export/export_internal.h,
 * src/export/json_util.h). */
#include <stdlib.h>

#include "src/export/export_internal.h"
#include "src/export/json_util.h"

ssched_status_t ssched_i_write_status(FILE *out, ssched_error_t *err)
{
    if (ferror(out))
        return ssched_error_set(err, SSCHED_EINPUT, "write error");
    return SSCHED_OK;
}

void ssched_i_dot_text(FILE *out, const char *text)
{
    for (; *text; text++) {
        if (*text == '"' || *text == '\\')
            fputc('\\', out);
        fputc(*text, out);
    }
}

ssched_status_t ssched_i_write_json(FILE *out, json_t *root, size_t flags, ssched_error_t *err)
{
    char *text = root ? json_dumps(root, flags) : NULL;
    json_decref(root);
    if (!text)
        return ssched_error_set(err, SSCHED_ENOMEM, "out of memory formatting JSON");
    fputs(text, out);
    fputc('\n', out);
    free(text);
    return ssched_i_write_status(out, err);
}

int ssched_i_saturated(const ssched_steady_t *s, size_t i, int dir, mpq_srcptr *busy,
                       mpq_srcptr *price)
{
    if (dir == 2 && s->kind != SSCHED_PROBLEM_REDUCE && s->kind != SSCHED_PROBLEM_ALLREDUCE &&
        s->kind != SSCHED_PROBLEM_SCAN)
        return 0;
    *busy = dir == 2 ? s->compute_busy[i] : dir ? s->in_busy[i] : s->out_busy[i];
    *price = dir == 2 ? s->compute_price[i] : dir ? s->in_price[i] : s->out_price[i];
    return mpq_cmp_ui(*busy, 1, 1) == 0 || mpq_sgn(*price) != 0;
}
