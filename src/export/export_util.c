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
