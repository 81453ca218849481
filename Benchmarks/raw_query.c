/*
 * The hand-written side of scripts/bench-query's in-process table: runs each
 * SQL statement of a file (one per line) through the sqlite3 C API in this
 * process — prepare, step every row, copy out the id and data text as a
 * caller would keep them, finalize — and prints the row count and the median
 * milliseconds of RUNS runs (after one warm-up run).
 *
 *   cc -O2 -o raw_query Benchmarks/raw_query.c -lsqlite3
 *   raw_query STORE RUNS SQL_FILE
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs `sql` once; returns the number of rows, or -1 on error. */
static long run_once(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) return -1;
    long rows = 0;
    int rc;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
        /* Keep each row's text, as a caller of the API would (docsync makes Strings). */
        int id_length = sqlite3_column_bytes(statement, 0);
        char *id = malloc(id_length + 1);
        memcpy(id, sqlite3_column_text(statement, 0), id_length + 1);
        int data_length = sqlite3_column_bytes(statement, 1);
        char *data = malloc(data_length + 1);
        memcpy(data, sqlite3_column_text(statement, 1), data_length + 1);
        free(id);
        free(data);
        rows++;
    }
    sqlite3_finalize(statement);
    return rc == SQLITE_DONE ? rows : -1;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: raw_query STORE RUNS SQL_FILE\n"); return 64; }
    int runs = atoi(argv[2]);
    sqlite3 *db;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) { fprintf(stderr, "cannot open %s\n", argv[1]); return 1; }
    FILE *file = fopen(argv[3], "r");
    if (!file) { fprintf(stderr, "cannot read %s\n", argv[3]); return 1; }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    double *times = malloc(sizeof(double) * runs);
    while ((length = getline(&line, &capacity, file)) > 0) {
        if (line[length - 1] == '\n') line[length - 1] = 0;
        if (!line[0]) continue;
        long rows = run_once(db, line);
        if (rows < 0) { fprintf(stderr, "error: %s\n  in %s\n", sqlite3_errmsg(db), line); return 1; }
        for (int run = 0; run < runs; run++) {
            double start = now_ms();
            rows = run_once(db, line);
            times[run] = now_ms() - start;
        }
        qsort(times, runs, sizeof(double), compare);
        printf("%ld\t%.3f\n", rows, times[runs / 2]);
    }
    free(times);
    free(line);
    sqlite3_close(db);
    return 0;
}
