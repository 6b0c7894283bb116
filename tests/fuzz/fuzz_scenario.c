/* Fuzz target: the scenario parser (sim/host/scenario/scenario.c) on arbitrary bytes. */
#include <math.h>

#include "fuzz_common.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = cs_fuzz_file(data, size, "fuzz.xml");
    cs_scenario s;
    cs_err err = {""};
    int rc = cs_scenario_load(path, &s, &err);
    cs_fuzz_outcome(rc, &err, path);
    if (rc)
        return 0;
    /* a loaded scenario has every list a sweep needs */
    cs_fuzz_require(s.nplatforms > 0 && s.nmappings > 0 && s.nmappings <= 2 && s.nps.n > 0 &&
                        s.nalgs > 0 && s.sizes.n > 0,
                    "a list it needs is empty", path);
    cs_fuzz_require(s.nregions >= 0 && s.nregions <= CS_MAX_LEVELS, "nregions is out of range",
                    path);
    for (size_t i = 0; i < s.sizes.n; i++)
        cs_fuzz_require(s.sizes.v[i] >= 0, "a size is negative", path);
    for (size_t i = 0; i < s.nps.n; i++)
        cs_fuzz_require(s.nps.v[i] >= 1, "a process count is below 1", path);
    for (int i = 0; i < s.nexpects; i++)
        cs_fuzz_require(s.expects[i].by_pct >= 0 && s.expects[i].by_pct < 100,
                        "an expectation's percentage is out of range", path);
    for (int i = 0; s.has_vary && i < s.vary.nvalues; i++)
        cs_fuzz_require(isfinite(s.vary.values[i]) && s.vary.values[i] > 0,
                        "a <vary> value is not a finite number > 0", path);
    cs_scenario_free(&s);
    return 0;
}
