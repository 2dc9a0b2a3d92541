/* Writes the reference of every algorithm's options, in Markdown, from the
 * option registry (the single source of names, defaults, ranges and docs).
 * docs/options.md is its output; the `options-doc` test fails when the
 * committed page and the registry disagree. */
#include <stdio.h>
#include <string.h>

#include "kindred.h"

static const char *type_name(kindred_option_type type) {
    switch (type) {
    case KINDRED_OPTION_INT: return "int";
    case KINDRED_OPTION_DOUBLE: return "real";
    case KINDRED_OPTION_BOOL: return "bool";
    case KINDRED_OPTION_CHOICE: return "choice";
    default: return "?";
    }
}

static void uses_text(int flags, char *out, size_t size) {
    out[0] = '\0';
    const struct { int flag; const char *word; } words[] = {
        {KINDRED_USES_PAIRS, "pairs"}, {KINDRED_USES_TRIPLETS, "triplets"},
        {KINDRED_USES_PARTIAL_LABELS, "partial labels"}, {KINDRED_USES_SPARSE, "sparse (CSR) data"},
        {KINDRED_USES_NO_K, "finds k itself"}};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; ++w) {
        if (!(flags & words[w].flag)) continue;
        if (out[0]) strncat(out, ", ", size - strlen(out) - 1);
        strncat(out, words[w].word, size - strlen(out) - 1);
    }
    if (!out[0]) strncat(out, "points only", size - 1);
}

/* One table cell: '|' would end the cell in Markdown (choice ranges such as
 * "0|1", norms such as "||A - I||"), so it is written as "\|". */
static void put_cell(const char *text) {
    for (const char *c = text; *c; ++c) {
        if (*c == '|') putchar('\\');
        putchar(*c);
    }
}

int main(void) {
    printf("# Algorithm options\n\n");
    printf("Generated from the option registry by `docs/gen_options` (do not edit by hand; the\n"
           "`options-doc` test checks that this page and the library agree). The same table drives\n"
           "`kindred_model_set_*`, the CLI flags (`--NAME VALUE`) and the bindings' keyword arguments.\n"
           "Only the stable options are listed: a few internal ones, for tests and benchmarks, are set by\n"
           "name but may change in any release (docs/conventions.md, \"Options: the stable and the\n"
           "internal tier\").\n");
    for (int64_t a = 0; a < kindred_algorithm_count(); ++a) {
        const char *alg = kindred_algorithm_name(a);
        const char *summary = "";
        int flags = 0;
        int64_t count = 0;
        char uses[256];
        if (kindred_algorithm_summary(alg, &summary) != KINDRED_OK || kindred_algorithm_uses(alg, &flags) != KINDRED_OK ||
            kindred_option_count(alg, &count) != KINDRED_OK) {
            fprintf(stderr, "gen_options: %s\n", kindred_last_error());
            return 1;
        }
        uses_text(flags, uses, sizeof uses);
        printf("\n## %s\n\n%s. Uses: %s.\n\n", alg, summary, uses);
        printf("| option | type | default | range | meaning |\n|---|---|---|---|---|\n");
        for (int64_t o = 0; o < count; ++o) {
            const char *name, *def, *range, *doc;
            kindred_option_type type;
            if (kindred_option_info(alg, o, &name, &type, &def, &range, &doc) != KINDRED_OK) {
                fprintf(stderr, "gen_options: %s\n", kindred_last_error());
                return 1;
            }
            printf("| `%s` | %s | ", name, type_name(type));
            put_cell(def[0] ? def : "(unset)");
            printf(" | ");
            put_cell(range);
            printf(" | ");
            put_cell(doc);
            printf(" |\n");
        }
    }
    return 0;
}
