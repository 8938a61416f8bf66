#include "src/export/svg_util.h"

#include <math.h>
#include <string.h>

const char *ssched_i_svg_colour(size_t i)
{
    static const char *const kelly[SSCHED_I_SVG_COLOURS] = {
        "#F3C300", "#875692", "#F38400", "#A1CAF1", "#BE0032", "#C2B280", "#848482",
        "#008856", "#E68FAC", "#0067A5", "#F99379", "#604E97", "#F6A600", "#B3446C",
        "#DCD300", "#882D17", "#8DB600", "#654522", "#E25822", "#2B3D26"};
    return kelly[i % SSCHED_I_SVG_COLOURS];
}

double ssched_i_svg_tick_step(double span, int want)
{
    if (!(span > 0) || want < 1)
        return 1;
    double raw = span / want, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return mag * (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10);
}

void ssched_i_svg_time_label(double t, char *buf, size_t len)
{
    static const char *const unit[] = {"", "k", "M", "G", "T"};
    double a = fabs(t);
    int u = 0;
    while (a >= 10000 && u < 4) {
        a /= 1000;
        t /= 1000;
        u++;
    }
    /* at most 4 significant digits, no exponent */
    snprintf(buf, len, "%.*f%s", a >= 100 || a == floor(a) ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3, t,
             unit[u]);
    /* trim the zeros a fixed precision leaves ("0.250" -> "0.25") */
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = dot + strcspn(dot, "kMGT");
        char *z = end;
        while (z > dot + 1 && z[-1] == '0')
            z--;
        if (z == dot + 1)
            z = dot;
        memmove(z, end, strlen(end) + 1);
    }
}

void ssched_i_svg_escape(FILE *out, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            /* control characters are not allowed in XML 1.0 text */
            if ((unsigned char)*s >= 0x20)
                fputc(*s, out);
        }
}
