#include "xml_error.h"

#include <errno.h>
#include <stdio.h>
#include <libxml/xmlerror.h>
#include <string.h>
#include <sys/stat.h>

/* The first error libxml2 reported since cs_xml_read began (its later ones often follow from
 * it: "Extra content at the end of the document" after a huge text node) */
static struct {
    char msg[512];
    int line, set;
} first;

/* libxml2 keeps the last error (xmlGetLastError) before it calls the handler: the handler
 * prints nothing and keeps the first one */
static void quiet(void *ctx, const xmlError *e)
{
    (void)ctx;
    if (first.set || !e)
        return;
    snprintf(first.msg, sizeof first.msg, "%s", e->message ? e->message : "cannot parse");
    first.line = e->line;
    first.set = 1;
}

void cs_xml_quiet(void) { xmlSetStructuredErrorFunc(NULL, (xmlStructuredErrorFunc)quiet); }

int cs_xml_fail(cs_err *err, const char *path)
{
    const xmlError *e = xmlGetLastError();
    if (first.set)
        cs_fail(err, "%s:%d: malformed XML: %s", path, first.line, first.msg);
    else
        cs_fail(err, "%s:%d: malformed XML: %s", path, e ? e->line : 0,
                e && e->message ? e->message : "cannot parse");
    size_t len = strlen(err->msg);
    while (len && (err->msg[len - 1] == '\n' || err->msg[len - 1] == ' '))
        err->msg[--len] = 0;
    for (char *c = err->msg; (c = strpbrk(c, "\r\n"));)
        *c = ' ';
    first.set = 0;
    return -1;
}

xmlDoc *cs_xml_read(const char *path, const char *what, int options, cs_err *err)
{
    cs_xml_quiet();
    struct stat st;
    if (stat(path, &st)) {
        cs_fail(err, "%s file '%s' cannot be read: %s", what, path, strerror(errno));
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        cs_fail(err, "%s file '%s' is a directory (give an XML file)", what, path);
        return NULL;
    }
    xmlResetLastError();
    first.set = 0;
    xmlDoc *doc = xmlReadFile(path, NULL, options | XML_PARSE_NONET | XML_PARSE_NOERROR |
                                              XML_PARSE_NOWARNING);
    if (!doc)
        cs_xml_fail(err, path);
    return doc;
}
