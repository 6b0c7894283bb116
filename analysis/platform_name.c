#include "platform_name.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_error.h"

int cs_variant_parse(const char *platform, cs_variant *v)
{
    /* the name cannot hold '@' (cs_vary_parse replaces it) and the value no '=' */
    const char *at = strrchr(platform, '@'), *eq = at ? strrchr(at, '=') : NULL;
    if (!eq || at == platform || eq == at + 1 || (size_t)(at - platform) >= sizeof v->base ||
        (size_t)(eq - at - 1) >= sizeof v->name)
        return -1;
    const char *num = eq + 1;
    v->absolute = *num != 'x';
    if (!v->absolute)
        num++;
    char *end;
    v->value = strtod(num, &end);
    if (end == num || *end || !(v->value > 0) || !isfinite(v->value))
        return -1;
    snprintf(v->base, sizeof v->base, "%.*s", (int)(at - platform), platform);
    snprintf(v->name, sizeof v->name, "%.*s", (int)(eq - at - 1), at + 1);
    return 0;
}

char *cs_platform_name_of(const char *path)
{
    const char *base = strrchr(path, '/');
    char *name = cs_xstrdup(base ? base + 1 : path);
    size_t len = strlen(name);
    if (len > 4 && !strcmp(name + len - 4, ".xml"))
        name[len - 4] = 0;
    return name;
}
