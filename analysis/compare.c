/* Measured beside predicted (compare.h). */
#include "compare.h"

#include <string.h>

size_t cs_compare_print(FILE *f, const cs_result *measured, size_t nm, const cs_result *predicted,
                        size_t np)
{
    size_t pairs = 0;
    fprintf(f, "%-32s %6s %10s  %-24s %12s %12s %8s\n", "collective/algorithm", "np", "bytes",
            "prediction (platform)", "measured us", "predicted us", "pred/meas");
    for (size_t i = 0; i < nm; i++) {
        const cs_result *m = &measured[i];
        if (strcmp(m->status, "ok"))
            continue;
        char name[160];
        snprintf(name, sizeof name, "%s/%s", m->collective, m->algorithm);
        int any = 0;
        for (size_t j = 0; j < np; j++) {
            const cs_result *p = &predicted[j];
            if (strcmp(p->status, "ok") || !cs_result_same_case(m, p))
                continue;
            char where[160];
            snprintf(where, sizeof where, "%s %s", p->platform, p->mapping);
            fprintf(f, "%-32s %6d %10ld  %-24s %12.2f %12.2f %8.3f\n", name, m->np, m->bytes, where,
                    m->avg_us, p->avg_us, m->avg_us > 0 ? p->avg_us / m->avg_us : 0.0);
            any = 1;
            pairs++;
        }
        if (!any)
            fprintf(f, "%-32s %6d %10ld  %-24s %12.2f %12s %8s\n", name, m->np, m->bytes,
                    "(no prediction)", m->avg_us, "-", "-");
    }
    return pairs;
}
