/* Lists of existing package names that an operator imports (issue 20, LLM09): the red team's judge
 * reports a package name a model offers as real when it is on neither the embedded lists
 * (data/packages) nor such an index. This module reads the lists in the forms registries publish
 * and users can keep offline, and gives names their normal form per ecosystem, which is how they
 * are stored and compared:
 *   lines             one name a line; blank lines and lines starting with # are skipped
 *   pypi-simple-html  PyPI's simple index page (PEP 503: one <a> a project, its text the name)
 *   pypi-simple-json  the same as JSON (PEP 691: {"meta": ..., "projects": [{"name": ...}]})
 *   npm-names         a JSON array of names (all-the-package-names' names.json)
 *   npm-all-docs      CouchDB's _all_docs ({"rows": [{"id": name, "key": name, ...}]}); rows
 *                     with an empty id or a design document (_design/...) are not packages
 * A registry's whole list has millions of names, so the JSON forms are read as a stream (no
 * document is built) and each name is handed to a callback as it is read.
 *
 * Pure: no I/O, no allocation beyond the callback's. */
#ifndef BW_ENGINE_PKGINDEX_H
#define BW_ENGINE_PKGINDEX_H
#include "common/limits.h"

#include <stdbool.h>
#include <stddef.h>

enum bw_pkg_eco { BW_PKG_NPM, BW_PKG_PYPI, BW_PKG_ECO_COUNT };

/* "npm" / "pypi"; NULL for another value. */
const char *bw_pkg_eco_name(int eco);
/* The ecosystem named s, or -1. */
int bw_pkg_eco_parse(const char *s);

enum bw_pkg_format {
    BW_PKGF_AUTO,
    BW_PKGF_LINES,
    BW_PKGF_SIMPLE_HTML,
    BW_PKGF_SIMPLE_JSON,
    BW_PKGF_NPM_NAMES,
    BW_PKGF_NPM_ALL_DOCS,
    BW_PKGF_COUNT
};
/* "auto", "lines", "pypi-simple-html", "pypi-simple-json", "npm-names", "npm-all-docs". */
const char *bw_pkg_format_name(int format);
int bw_pkg_format_parse(const char *s); /* or -1 */
/* The format of buf when it is not named: its first character after a UTF-8 byte-order mark and
 * white space ('[' npm-names, '<' pypi-simple-html, '{' one of the JSON objects by its first
 * known member, anything else lines). */
int bw_pkg_format_detect(const char *buf, size_t len);

/* The normal form of name s (n bytes) in ecosystem eco into out (cap bytes, at least
 * BW_PKG_NAME_MAX + 1): PyPI's (PEP 503: lower case, every run of '-', '_' and '.' one '-'),
 * npm's (lower case; npm no longer publishes upper-case names, and the registry's older ones
 * differ from others by more than case). Returns its length, or 0 when s is not a name of that
 * ecosystem: PyPI letters, digits, '-', '_', '.', beginning and ending with a letter or digit
 * (PEP 508); npm the characters a URL path keeps as they are (letters, digits, - . _ ~ ! * ' ( )),
 * optionally "@scope/" before them; either at most BW_PKG_NAME_MAX bytes. */
size_t bw_pkg_normalise(int eco, const char *s, size_t n, char *out, size_t cap);

/* Where and why a file was refused: line and column (1-based) of the offending input. */
struct bw_pkg_reject {
    int line, column;
    char msg[200];
};

/* Called with each name read (normalised, NUL-terminated, len bytes), in file order, duplicates
 * included; a nonzero answer stops the parse, which then fails with that answer's message
 * ("too many names", "out of memory") set by the callback in rej. */
typedef int (*bw_pkg_name_fn)(void *arg, const char *name, size_t len, struct bw_pkg_reject *rej);

/* Reads buf (len bytes) in format (BW_PKGF_AUTO: bw_pkg_format_detect) as ecosystem eco's names,
 * handing each to fn. *used (optional) gets the format read. 0 when the whole input was read and
 * held at least one name; -1 with rej set otherwise: malformed input ("expected ',' or ']'"),
 * an entry that is not a name of the ecosystem (quoted in the message), no name at all, or what
 * the callback said. Nothing is partial for the caller who keeps the names only on 0. */
int bw_pkg_parse(int eco, int format, const char *buf, size_t len, bw_pkg_name_fn fn, void *arg, int *used,
                 struct bw_pkg_reject *rej);

#endif
