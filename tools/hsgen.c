/* Build step: compiles the embedded rule catalog's Hyperscan databases once, at build time, and
 * writes them as a blob that the build links into bulwark, so neither the server nor
 * `bulwark scan` spends seconds compiling at start.   usage: hsgen OUT_FILE */
#include "engine/code/scanner.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hsgen OUT_FILE\n");
        return 2;
    }
    char err[512];
    struct bw_scanner *sc = bw_scanner_new_embedded(err, sizeof err);
    if (!sc) {
        fprintf(stderr, "hsgen: %s\n", err);
        return 1;
    }
    unsigned char *blob = NULL;
    size_t len = 0;
    int rc = 1;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
    FILE *f = NULL;
    if (bw_scanner_serialize(sc, &blob, &len) == 0 && (f = fopen(tmp, "wb")) && fwrite(blob, 1, len, f) == len) {
        if (fclose(f) == 0 && rename(tmp, argv[1]) == 0)
            rc = 0;
        f = NULL;
    }
    if (f)
        fclose(f);
    if (rc)
        fprintf(stderr, "hsgen: cannot write %s\n", argv[1]);
    else
        printf("hsgen: %zu rules, %zu bytes of Hyperscan databases\n", bw_scanner_rule_count(sc), len);
    free(blob);
    bw_scanner_free(sc);
    return rc;
}
