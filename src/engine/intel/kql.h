/* KQL (the Kusto Query Language of Microsoft Sentinel and Defender advanced hunting) for the
 * generators that write hunting queries: playbooks (playbook.c) and hunt packs (hunt.c). Literals
 * that mean exactly the given text, lists, comments and the head of a tabular expression; the
 * queries themselves stay with their generators.
 *
 * Everything appends to a bw_sb (common/sbuf.h: an allocation failure sets its oom flag, checked
 * once by the caller). Text is bytes: UTF-8 passes through unchanged. Nothing else is allocated. */
#ifndef BW_ENGINE_INTEL_KQL_H
#define BW_ENGINE_INTEL_KQL_H
#include "common/sbuf.h"

#include <stddef.h>

/* A string literal: "s" with \" \\ \n \r \t escaped; any other C0 control character becomes a
 * space (a KQL string has no escape for it). */
void bw_kql_str(struct bw_sb *b, const char *s);

/* A verbatim literal @"s", for regular expressions: a backslash stands for itself and '"' is
 * doubled. C0 control characters become spaces: a verbatim literal cannot escape a line break. */
void bw_kql_verbatim(struct bw_sb *b, const char *s);

/* ("a", "b", ...): the items as string literals; "()" when n is 0. */
void bw_kql_list(struct bw_sb *b, const char *const *items, size_t n);

/* (c1 contains "v1" or c2 contains "v1" or c1 contains "v2" or ...): every value in every column,
 * values in the outer loop. */
void bw_kql_any(struct bw_sb *b, const char *const *cols, size_t ncols, const char *const *vals, size_t nvals);

/* Text for a // comment: C0 control characters and the Unicode line breaks NEL, LS and PS become
 * spaces, so nothing ends the comment's line early. */
void bw_kql_comment(struct bw_sb *b, const char *s);

/* A table followed, when timecol is not NULL, by the line "| where timecol > ago(span)" indented
 * by indent spaces; span is a timespan literal ("30d") or the name of a let variable. */
void bw_kql_from(struct bw_sb *b, const char *table, const char *timecol, const char *span, int indent);

#endif
