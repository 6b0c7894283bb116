/* Finding a platform by name or path, and opening it (platform.h). */
#include "platform.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *cs_platforms_dir(void)
{
    const char *env = getenv("COLLSIM_PLATFORMS_DIR");
    return env && *env ? env : COLLSIM_SOURCE_DIR "/platforms";
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cs_platform_names(char ***names)
{
    DIR *d = opendir(cs_platforms_dir());
    int n = 0, cap = 0;
    *names = NULL;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".xml")) {
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                *names = cs_xrealloc(*names, (size_t)cap * sizeof(char *));
            }
            (*names)[n] = cs_xstrdup(e->d_name);
            (*names)[n++][len - 4] = 0;
        }
    }
    closedir(d);
    qsort(*names, (size_t)n, sizeof(char *), cmp_str);
    return n;
}

void cs_platform_names_free(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int cs_platform_find(const char *name_or_file, char **path_out, cs_err *err)
{
    struct stat st;
    if (strchr(name_or_file, '/') || strstr(name_or_file, ".xml")) {
        if (!stat(name_or_file, &st) && S_ISDIR(st.st_mode))
            return cs_fail(err, "platform '%s' is a directory (a platform is a NAME of platforms/, "
                                "e.g. yahoo, or the path of one SimGrid XML file)",
                           name_or_file);
        if (stat(name_or_file, &st) || !S_ISREG(st.st_mode))
            return cs_fail(err, "platform file '%s' does not exist (a platform is a NAME of "
                                "platforms/, e.g. yahoo, or the path of one SimGrid XML file)",
                           name_or_file);
        *path_out = cs_xstrdup(name_or_file);
        return 0;
    }
    size_t len = strlen(cs_platforms_dir()) + strlen(name_or_file) + 6;
    char *path = cs_xmalloc(len);
    snprintf(path, len, "%s/%s.xml", cs_platforms_dir(), name_or_file);
    if (!stat(path, &st) && S_ISREG(st.st_mode)) {
        *path_out = path;
        return 0;
    }
    free(path);
    char **names;
    int n = cs_platform_names(&names);
    char list[1024] = "";
    for (int i = 0; i < n; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    cs_platform_names_free(names, n);
    return cs_fail(err, "unknown platform '%s' (valid: %s; or a path to a SimGrid XML file)",
                   name_or_file, n ? list : "none found");
}

int cs_platform_open(const char *name_or_file, cs_platform *pf, cs_err *err)
{
    char *path;
    if (cs_platform_find(name_or_file, &path, err))
        return -1;
    int rc = cs_platform_load(path, pf, err);
    free(path);
    return rc;
}

int cs_platform_open_for(const char *name_or_file, const char *missing, cs_platform *pf)
{
    cs_err e;
    if (!name_or_file)
        fprintf(stderr, "collsim: %s\n", missing);
    else if (cs_platform_open(name_or_file, pf, &e))
        fprintf(stderr, "collsim: %s\n", e.msg);
    else
        return 0;
    return -1;
}
