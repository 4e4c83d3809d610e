/* Starter bot for La Part du Chef in C (gcc -O2), bot protocol v1: one JSON object per line on
 * stdin, one reply per line on stdout, logs on stderr. It plays legal moves with the simplest
 * strategy: cut evenly, take the first portion nobody took, keep every slice. Improve it!
 * Try it: gcc -O2 -o bot main.c && echo '{"type":"start","protocol":1,"game":"part-du-chef","seat":0,"players":2,"options":{}}' | ./bot
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char line[1 << 20]; /* messages are at most 64 KiB */

/* The text right after "key": (spaces skipped), searching from `from`; NULL if absent. */
static const char *value_of(const char *from, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\"", key);
    const char *at = strstr(from, pattern);
    if (!at) return NULL;
    at += strlen(pattern);
    while (*at == ' ' || *at == ':') at++;
    return at;
}

static int starts(const char *text, const char *prefix) {
    return text && strncmp(text, prefix, strlen(prefix)) == 0;
}

int main(void) {
    while (fgets(line, sizeof line, stdin)) {
        const char *type = value_of(line, "type");
        if (starts(type, "\"start\"")) {
            fprintf(stderr, "hello from C\n");
            printf("{\"type\":\"ready\",\"more_games\":true}\n");
        } else if (starts(type, "\"act\"")) {
            const char *obs = value_of(line, "observation");
            int players = atoi(value_of(obs, "players"));
            if (starts(value_of(obs, "phase"), "\"cut\"")) {
                /* players cut points spread evenly round the 13 slices */
                printf("{\"type\":\"cut\",\"cuts\":[");
                for (int i = 0; i < players; i++) printf(i ? ",%d" : "%d", i * 13 / players);
                printf("],\"marianne\":null}\n");
            } else {
                /* the first portion whose taken_by is null */
                const char *at = value_of(obs, "portions");
                int portion = 0;
                while ((at = value_of(at, "index")) != NULL) {
                    int index = atoi(at);
                    const char *taken = value_of(at, "taken_by");
                    if (starts(taken, "null")) { portion = index; break; }
                }
                printf("{\"type\":\"take\",\"portion\":%d,\"eat\":[],\"steals\":[],\"marianne\":null}\n", portion);
            }
        } else if (starts(type, "\"end\"")) {
            continue; /* more_games: the next game's start may follow */
        }
        fflush(stdout);
    }
    return 0;
}
