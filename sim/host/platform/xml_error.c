#include "xml_error.h"

#include <libxml/xmlerror.h>
#include <string.h>

int cs_xml_fail(cs_err *err, const char *path)
{
    const xmlError *e = xmlGetLastError();
    cs_fail(err, "%s:%d: malformed XML: %s", path, e ? e->line : 0,
            e && e->message ? e->message : "cannot parse");
    size_t len = strlen(err->msg);
    while (len && (err->msg[len - 1] == '\n' || err->msg[len - 1] == ' '))
        err->msg[--len] = 0;
    for (char *c = err->msg; (c = strpbrk(c, "\r\n"));)
        *c = ' ';
    return -1;
}
