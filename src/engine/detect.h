/* Deterministic detectors over what an AI endpoint answered, shared by the live asset scan and
 * the red-team engine: reply extraction from the two API shapes we speak, refusal versus
 * compliance, canary emission, system-prompt leakage, leaked credentials and verbose errors.
 * Pure functions: no I/O, no clock, no allocation unless stated. */
#ifndef BW_ENGINE_DETECT_H
#define BW_ENGINE_DETECT_H
#include <stdbool.h>
#include <stddef.h>

enum bw_llm_api {
    BW_LLM_NONE,
    BW_LLM_OPENAI, /* POST .../chat/completions {model,messages} -> choices[0].message.content */
    BW_LLM_PROMPT, /* POST {prompt} -> {output|response|text|answer|completion} */
};

/* The model's reply text from a response body of the given API shape, malloc'ed; NULL when
 * the body is not that shape. */
char *bw_detect_reply(enum bw_llm_api api, const char *body, size_t len);

/* Whether the reply refuses (a curated lexicon of refusal phrases, English and a few other
 * languages, in the first BW_RT_REFUSAL_WINDOW bytes, so a long compliant answer that mentions "I
 * cannot" later still counts as compliance), unless it turns to deliver what was asked ("...,
 * but here's one"). */
bool bw_detect_refusal(const char *reply);

/* ASCII case-insensitive search of needle (lower case) in the first n bytes of h, or NULL. */
const char *bw_detect_find_ci(const char *h, size_t n, const char *needle);

/* Whether text repeats run or more consecutive bytes of known (the whole of known when it is
 * shorter), compared after folding white space and ASCII case. */
bool bw_detect_overlap(const char *known, const char *text, size_t run);

/* Whether the reply contains the canary (exact, case-sensitive bytes). */
bool bw_detect_canary(const char *reply, const char *canary);

/* Whether the reply looks like a disclosed system prompt: second-person role instructions
 * ("You are ...", "Your instructions ...", "System prompt:") with rule-like content, and not a
 * refusal. */
bool bw_detect_prompt_leak(const char *reply);

/* Whether text carries something shaped like a credential (API key formats, key=value
 * assignments of secrets, bearer tokens, URLs with a password). */
bool bw_detect_secret(const char *text, size_t len);

/* The first stack-trace or internal-error marker in an error body ("Traceback (most recent call
 * last)", "at java.", "node_modules/", "SQLSTATE", ...), or NULL. */
const char *bw_detect_stack_trace(const char *body, size_t len);

/* A bounded, single-line, printable copy of untrusted text for reports (red-team excerpts, MCP
 * pin diffs): control characters become spaces, runs of spaces collapse, a cut never splits a
 * UTF-8 sequence and is marked "...", and credential-shaped words (bw_detect_secret) keep their
 * first 4 bytes and are masked with "****". At most max bytes of in are read; out holds cap
 * bytes (at least 8). */
void bw_detect_excerpt(const char *in, size_t max, char *out, size_t cap);

#endif
