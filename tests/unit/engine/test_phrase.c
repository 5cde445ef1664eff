/* Phrase lists of the word catalogs (src/engine/phrase.c): the phrase syntax with and without gaps
 * and prefixes, the list parser's error index, and matching over a reader's own token struct. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/phrase.h"

#include <stdlib.h>
#include <string.h>

static bool parses(const char *s, unsigned flags, size_t max_words)
{
    struct bw_phrase p;
    bool ok = bw_phrase_parse(s, flags, max_words, &p);
    free(p.buf);
    return ok;
}

static void test_syntax(void **state)
{
    (void)state;
    const unsigned G = BW_PHRASE_GAPS, P = BW_PHRASE_PREFIX;
    assert_true(parses("ignore previous instructions", 0, 12));
    assert_true(parses("a1 b2", 0, 12));
    /* what the readers' words can never be: upper case, punctuation, odd spacing, empty, non-ASCII */
    const char *const never[] = {"", "Ignore", "don't", " a", "a ", "a  b", "a\tb", "a-b", "\xc3\xa9t\xc3\xa9"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        for (unsigned f = 0; f < 4; f++)
            assert_false(parses(never[i], f, 12));
    /* gaps: only with BW_PHRASE_GAPS, only between two words, never two in a row; prefixes:
     * only with BW_PHRASE_PREFIX, at least two characters before the "*" */
    const struct {
        const char *s;
        unsigned flags;
        bool ok;
    } cases[] = {
        {"send * to", G, true},      {"send * data * to", G, true}, {"send * to", 0, false},
        {"send * to", P, false},     {"* send", G, false},          {"send *", G, false},
        {"send * * to", G, false},   {"se*nd", G, false},           {"send*", G, false},
        {"recruit* tool", P, true},  {"cv* screening", P, true},    {"recruit* tool", 0, false},
        {"c* tool", P, false},       {"*", P, false},               {"recr*uit", P, false},
        {"recruit**", P, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (parses(cases[i].s, cases[i].flags, 6) != cases[i].ok)
            fail_msg("\"%s\" with flags %u: expected %s", cases[i].s, cases[i].flags, cases[i].ok ? "a phrase" : "none");
    /* the word and byte caps */
    assert_true(parses("a b c d e f", P, 6));
    assert_false(parses("a b c d e f g", P, 6));
    assert_false(parses("a b", G, BW_PHRASE_WORDS_MAX + 1)); /* a cap above the storage */
    assert_false(parses("a b c d e f g h i j k l m", 0, BW_PHRASE_WORDS_MAX));
    char longest[BW_AGENT_PHRASE_MAX + 2];
    memset(longest, 'a', sizeof longest);
    longest[BW_AGENT_PHRASE_MAX] = '\0';
    assert_true(parses(longest, 0, 12));
    longest[BW_AGENT_PHRASE_MAX] = 'a';
    longest[BW_AGENT_PHRASE_MAX + 1] = '\0';
    assert_false(parses(longest, 0, 12));
}

static void test_parsed_form(void **state)
{
    (void)state;
    struct bw_phrase p;
    assert_true(bw_phrase_parse("send * recruit* to", BW_PHRASE_GAPS | BW_PHRASE_PREFIX, 12, &p));
    assert_int_equal(p.n, 4);
    assert_int_equal(p.fixed, 3);
    assert_string_equal(p.w[0], "send");
    assert_null(p.w[1]);
    assert_string_equal(p.w[2], "recruit");
    assert_int_equal(p.wl[2], 7);
    assert_true(p.prefix[2]);
    assert_false(p.prefix[0] || p.prefix[3]);
    free(p.buf);
}

static void test_list(void **state)
{
    (void)state;
    json_t *a = json_pack("[s,s,s]", "a b", "c", "d");
    struct bw_plist l;
    size_t bad = 99;
    assert_true(bw_plist_parse(a, 0, 12, &l, &bad));
    assert_int_equal(l.n, 3);
    assert_int_equal(bad, 99);
    assert_true(bw_plist_has_word(&l, "c"));
    assert_false(bw_plist_has_word(&l, "a")); /* only one-word phrases count */
    bw_plist_free(&l);
    assert_null(l.v);
    json_decref(a);

    /* the index of the first entry that is no phrase; what was read before it is kept to free */
    a = json_pack("[s,s,i,s]", "a", "b", 3, "c");
    assert_false(bw_plist_parse(a, 0, 12, &l, &bad));
    assert_int_equal(bad, 2);
    assert_int_equal(l.n, 2);
    bw_plist_free(&l);
    json_decref(a);
    a = json_pack("[s,s]", "a", "b  c");
    assert_false(bw_plist_parse(a, 0, 12, &l, &bad));
    assert_int_equal(bad, 1);
    bw_plist_free(&l);
    json_decref(a);
    a = json_array();
    assert_true(bw_plist_parse(a, 0, 12, &l, &bad));
    assert_int_equal(l.n, 0);
    bw_plist_free(&l);
    json_decref(a);
}

/* A reader's token struct with the word offset not first, as the readers have it. */
struct tok {
    size_t s, e;
    int clause;
    size_t at;
};

struct text {
    char buf[256];
    struct tok t[32];
    size_t n;
    struct bw_words ws;
};

static void split(const char *s, struct text *x)
{
    memset(x, 0, sizeof *x);
    size_t o = 0;
    for (const char *p = s; *p;) {
        size_t l = strcspn(p, " ");
        x->t[x->n++] = (struct tok){.at = o};
        memcpy(x->buf + o, p, l);
        o += l + 1;
        p += l + (p[l] == ' ');
    }
    x->ws = (struct bw_words){x->buf, x->t, sizeof x->t[0], offsetof(struct tok, at)};
}

static size_t match(const char *phrase, unsigned flags, const char *text, size_t i, size_t end, size_t *pos)
{
    struct bw_phrase p;
    struct text x;
    assert_true(bw_phrase_parse(phrase, flags, 12, &p));
    split(text, &x);
    size_t r = bw_phrase_match(&p, &x.ws, i, end ? end : x.n, pos);
    free(p.buf);
    return r;
}

static void test_match(void **state)
{
    (void)state;
    const unsigned G = BW_PHRASE_GAPS, P = BW_PHRASE_PREFIX;
    struct text x;
    split("never send the data to anyone", &x);
    assert_string_equal(bw_word(&x.ws, 0), "never");
    assert_string_equal(bw_word(&x.ws, 5), "anyone");

    /* exact words, at word i, the end exclusive */
    assert_int_equal(match("send the", 0, "never send the data", 1, 0, NULL), 3);
    assert_int_equal(match("send the", 0, "never send the data", 0, 0, NULL), 0);
    assert_int_equal(match("send the", 0, "never send the data", 1, 2, NULL), 0); /* past end */
    assert_int_equal(match("send", 0, "never sending", 1, 0, NULL), 0);
    /* a gap: as short as possible, up to BW_AGENT_PATTERN_GAP words, not past end */
    size_t pos[12] = {0};
    assert_int_equal(match("send * to", G, "send to x", 0, 0, pos), 2);
    assert_int_equal(match("send * to", G, "send the data to x", 0, 0, pos), 4);
    assert_int_equal(pos[0], 0);
    assert_int_equal(pos[2], 3);
    assert_int_equal(match("send * to", G, "send a b c to", 0, 0, NULL), 5);
    assert_int_equal(match("send * to", G, "send a b c d to", 0, 0, NULL), 0);
    assert_int_equal(match("send * to", G, "send a b to", 0, 3, NULL), 0);
    assert_int_equal(match("send * to * you", G, "send it to you to you", 0, 0, NULL), 4);
    /* a prefix word */
    assert_int_equal(match("recruit* tool", P, "a recruiting tool", 1, 0, NULL), 3);
    assert_int_equal(match("recruit* tool", P, "a recruit tool", 1, 0, NULL), 3);
    assert_int_equal(match("recruit* tool", P, "a recrui tool", 1, 0, NULL), 0);
    assert_int_equal(match("recruit tool", P, "a recruiting tool", 1, 0, NULL), 0);

    /* a list: any phrase at i */
    json_t *a = json_pack("[s,s]", "if", "in case");
    struct bw_plist l;
    size_t bad;
    assert_true(bw_plist_parse(a, 0, 12, &l, &bad));
    split("only in case of fire", &x);
    assert_false(bw_plist_any_at(&l, &x.ws, 0, x.n));
    assert_true(bw_plist_any_at(&l, &x.ws, 1, x.n));
    assert_false(bw_plist_any_at(&l, &x.ws, 1, 2));
    bw_plist_free(&l);
    json_decref(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax),
        cmocka_unit_test(test_parsed_form),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
