/* The error of an XML file libxml2 could not parse, as one line. */
#ifndef COLLSIM_XML_ERROR_H
#define COLLSIM_XML_ERROR_H

#include "cs_error.h"

/* "PATH:LINE: malformed XML: WHAT" from libxml2's last error, its line breaks
 * (libxml2 adds e.g. "\nBytes: 0xFF ...") turned into spaces; returns -1. */
int cs_xml_fail(cs_err *err, const char *path);

#endif
