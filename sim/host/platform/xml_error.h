/* The host's reads of XML files (scenarios, platforms): one-line errors, nothing of libxml2's
 * own printed. */
#ifndef COLLSIM_XML_ERROR_H
#define COLLSIM_XML_ERROR_H

#include <libxml/tree.h>

#include "cs_error.h"

/* "PATH:LINE: malformed XML: WHAT" from libxml2's last error, its line breaks
 * (libxml2 adds e.g. "\nBytes: 0xFF ...") turned into spaces; returns -1. */
int cs_xml_fail(cs_err *err, const char *path);

/* Makes libxml2 print nothing of its own (parse, I/O and XPath errors alike); its last error
 * stays readable with xmlGetLastError. Called by cs_xml_read; call it before an XPath too. */
void cs_xml_quiet(void);

/* The document of a `what` file ("scenario", "platform"), or NULL with one line in err: a
 * missing or unreadable file, a directory, or malformed XML (file and line). options: libxml2's
 * XML_PARSE_* flags besides NONET, NOERROR and NOWARNING, which it always sets. */
xmlDoc *cs_xml_read(const char *path, const char *what, int options, cs_err *err);

#endif
