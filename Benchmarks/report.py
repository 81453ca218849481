#!/usr/bin/env python3
"""Turns the raw results of scripts/bench into a table of medians and ratios.

    report.py RESULTS.tsv --runs N [--markdown BENCHMARKS.md]

RESULTS.tsv has one measurement per line: scenario, name, run, metric, value.
Prints the table; with --markdown also writes it, with the machine and the date.
"""
import argparse
import datetime
import os
import platform
import statistics
import subprocess
from collections import defaultdict


def load(path):
    values = defaultdict(list)
    meta = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            scenario, name, run, metric, value = line.rstrip("\n").split("\t")
            if scenario == "meta":
                meta[(name, metric)] = value
                continue
            try:
                number = float(value)
            except ValueError:
                continue
            values[(scenario, name, metric)].append(number)
    return values, meta


def machine():
    cores = os.cpu_count()
    model = ""
    with open("/proc/cpuinfo", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = ""
    with open("/proc/meminfo", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    swift = ""
    try:
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        pass
    commit = ""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    return {"cores": cores, "model": model, "memory": memory, "kernel": platform.release(), "swift": swift, "commit": commit}


def fmt_int(x):
    return f"{x:,.0f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--markdown")
    parser.add_argument("--notes", help="a Markdown file appended as the Notes section")
    parser.add_argument("--query-table", help="the table printed by scripts/bench-query")
    args = parser.parse_args()
    values, meta = load(args.results)

    def med(scenario, name, metric):
        found = values.get((scenario, name, metric))
        return statistics.median(found) if found else None

    def spread(scenario, name, metric):
        found = values.get((scenario, name, metric))
        if not found:
            return ""
        return f"{min(found):.2f}–{max(found):.2f}" if len(found) > 1 else f"{found[0]:.2f}"

    lines = []
    targets = []

    def verdict(ok):
        return "met" if ok else "MISSED"

    # Scenario 1 -------------------------------------------------------------------
    docs = int(meta.get(("push-docs", "count"), "0") or 0)
    if med("1", "docsync", "seconds") is not None:
        size = int(meta.get(("push-docs", "bytes"), "0") or 0)
        lines.append(f"### 1. Full push of {docs:,} documents (~{size / max(docs, 1):,.0f} bytes of JSON each) to the emulator")
        lines.append("")
        lines.append("| writer | median s | range s | documents/s | docsync ÷ this | CPU s (user+sys) | requests | request bytes |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        rows = [
            ("docsync", "docsync push (batchWrite, 500 writes × 8 in flight)"),
            ("official-batch", "official Python client, db.batch() commits of 500"),
            ("official-bulk", "official Python client, db.bulk_writer() defaults"),
            ("official-bulk-unthrottled", "official Python client, bulk_writer without ramp-up cap"),
            ("raw-curl", "raw limit: pre-encoded batchWrite bodies, 8 parallel curl"),
        ]
        ds = docs / med("1", "docsync", "seconds")
        rates = {}
        for key, label in rows:
            seconds = med("1", key, "seconds")
            if seconds is None:
                continue
            rate = docs / seconds
            rates[key] = rate
            requests = med("1", key, "requests")
            size_sent = med("1", key, "bytes")
            cpu = med("1", key, "cpu")
            lines.append(
                f"| {label} | {seconds:.2f} | {spread('1', key, 'seconds')} | {fmt_int(rate)} | "
                f"{ds / rate:.2f}× | {f'{cpu:.2f}' if cpu is not None else '—'} | "
                f"{fmt_int(requests) if requests else '—'} | {fmt_int(size_sent) if size_sent else '—'} |")
        lines.append("")
        lines.append("docsync's time is the whole `docsync push` process (start, store reads, encoding, HTTP, "
                     "confirmations written back to the store); the official client's is its write phase only "
                     "(records already parsed, gRPC channel set up on the first call); curl's is the posting of "
                     "bodies encoded beforehand. CPU seconds are whole processes (GNU time, user + system): "
                     "docsync's push process, and the official client's Python process including its start-up, "
                     "reading the records and setting up gRPC.")
        lines.append("")
        if "official-batch" in rates:
            targets.append(("full push ≥ 1.5× official batched commits", f"{ds / rates['official-batch']:.2f}×",
                            verdict(ds / rates["official-batch"] >= 1.5)))
        if "raw-curl" in rates:
            targets.append(("full push ≥ 0.7× raw parallel curl", f"{ds / rates['raw-curl']:.2f}×",
                            verdict(ds / rates["raw-curl"] >= 0.7)))
        if "official-bulk" in rates:
            targets.append(("(reported) docsync ÷ BulkWriter (defaults)", f"{ds / rates['official-bulk']:.2f}×", "—"))
        if "official-bulk-unthrottled" in rates:
            targets.append(("(reported) docsync ÷ BulkWriter (no ramp-up cap)", f"{ds / rates['official-bulk-unthrottled']:.2f}×", "—"))
        if med("1", "docsync", "cpu") is not None and med("1", "official-batch", "cpu") is not None:
            targets.append(("(reported) CPU s of docsync push vs official batched commits",
                            f"{med('1', 'docsync', 'cpu'):.2f} vs {med('1', 'official-batch', 'cpu'):.2f}", "—"))

    # Scenario 2 -------------------------------------------------------------------
    if med("2", "docsync-incremental", "seconds") is not None:
        full_bytes = med("1", "docsync", "bytes")
        full_requests = med("1", "docsync", "requests")
        full_seconds = med("1", "docsync", "seconds")
        inc_bytes = med("2", "docsync-incremental", "bytes")
        inc_requests = med("2", "docsync-incremental", "requests")
        inc_seconds = med("2", "docsync-incremental", "seconds")
        written = med("2", "docsync-incremental", "written")
        lines.append(f"### 2. Incremental push, 1% changed ({written:,.0f} of {docs:,} documents, 3 fields each)")
        lines.append("")
        lines.append("| push | median s | requests | request bytes | bytes vs full re-upload |")
        lines.append("|---|---:|---:|---:|---:|")
        lines.append(f"| full re-upload (scenario 1, docsync) | {full_seconds:.2f} | {fmt_int(full_requests)} | {fmt_int(full_bytes)} | 100% |")
        share = inc_bytes / full_bytes * 100
        lines.append(f"| incremental, after re-import | {inc_seconds:.2f} | {fmt_int(inc_requests)} | {fmt_int(inc_bytes)} | {share:.2f}% |")
        lines.append("")
        targets.append(("1%-changed run sends ≤ 2% of a full re-upload's bytes", f"{share:.2f}%", verdict(share <= 2)))

    # Scenario 3 -------------------------------------------------------------------
    if med("3", "fanout-c1", "seconds") is not None:
        calls = 1000
        latency = 20
        lines.append(f"### 3. Pull with detail fan-out: {calls:,} detail calls, {latency} ms added latency each (loopback API)")
        lines.append("")
        lines.append("| concurrency C | median s | range s | ideal N·L/C s | median ÷ ideal |")
        lines.append("|---:|---:|---:|---:|---:|")
        for concurrency in (1, 8, 32):
            seconds = med("3", f"fanout-c{concurrency}", "seconds")
            if seconds is None:
                continue
            ideal = calls * latency / 1000 / concurrency
            lines.append(f"| {concurrency} | {seconds:.2f} | {spread('3', f'fanout-c{concurrency}', 'seconds')} | {ideal:.3f} | {seconds / ideal:.2f} |")
            if concurrency == 32:
                targets.append(("fan-out within 1.3× of N·L/C at concurrency 32", f"{seconds / ideal:.2f}×", verdict(seconds / ideal <= 1.3)))
        lines.append("")
        lines.append("Each time is a whole `docsync diff --format json` process: start, list request, the detail "
                     "calls, planning against an empty store, the JSON report.")
        lines.append("")

    # Scenario 4 -------------------------------------------------------------------
    if med("4", "plan-diff", "seconds") is not None:
        plan_docs = int(meta.get(("plan-docs", "count"), "0") or 0)
        plan_bytes = int(meta.get(("plan-docs", "bytes"), "0") or 0)
        lines.append(f"### 4. Plan (dry run) of {plan_docs:,} pulled records against {plan_docs:,} stored, 1% changed "
                     f"(NDJSON file source, {plan_bytes / 1e6:.0f} MB)")
        lines.append("")
        lines.append("| run | median s | range s | records/s | MB/s | peak RSS MiB (max) |")
        lines.append("|---|---:|---:|---:|---:|---:|")
        for key, label in (("sync-no-push-initial", "fill: `sync --no-push` into an empty store (1 run)"),
                           ("plan-diff", "plan: `diff --format json` against the 1%-changed file")):
            seconds = med("4", key, "seconds")
            if seconds is None:
                continue
            rss = max(values[("4", key, "rss-kib")]) / 1024
            lines.append(f"| {label} | {seconds:.2f} | {spread('4', key, 'seconds')} | {fmt_int(plan_docs / seconds)} | "
                         f"{plan_bytes / seconds / 1e6:.1f} | {rss:.0f} |")
        lines.append("")
        rate = plan_docs / med("4", "plan-diff", "seconds")
        rss = max(values[("4", "plan-diff", "rss-kib")]) / 1024
        targets.append(("planning ≥ 50,000 records/s at 100k", fmt_int(rate) + " records/s", verdict(rate >= 50_000)))
        targets.append(("planning peak RSS < 300 MB at 100k", f"{rss:.0f} MiB", verdict(rss * 1.048576 < 300)))

    # Scenario 5 -------------------------------------------------------------------
    if ("5", "query-mix", "unavailable") in values:
        lines.append("### 5. Offline query mix")
        lines.append("")
        lines.append("Not yet available: this build has no `docsync query` (the query work is not merged into main yet).")
        lines.append("")
        targets.append(("offline query close to raw SQLite", "not yet available", "—"))
    elif args.query_table and os.path.exists(args.query_table):
        with open(args.query_table, encoding="utf-8") as handle:
            table = handle.read().strip()
        lines.append("### 5. Offline query mix: `docsync query` vs hand-written SQL (scripts/bench-query)")
        lines.append("")
        lines.append("```")
        lines.append(table)
        lines.append("```")
        lines.append("")
        ratios = []
        for row in table.splitlines():
            parts = row.split()
            if parts and parts[-1].endswith("x") and "indexed" in row and "unindexed" not in row:
                try:
                    ratios.append(float(parts[-1][:-1]))
                except ValueError:
                    pass
        if ratios:
            targets.append(("indexed offline queries close to raw SQLite (docsync ÷ raw, worst)", f"{max(ratios):.2f}×", "—"))

    # Scenario 6 -------------------------------------------------------------------
    if med("6", "docsync-get", "ms") is not None and med("6", "sqlite3-shell", "ms") is not None:
        get_ms = med("6", "docsync-get", "ms")
        shell_ms = med("6", "sqlite3-shell", "ms")
        lines.append("### 6. Start-up: one document by id, whole processes")
        lines.append("")
        lines.append("| command | mean ms per process (median of runs) | range ms |")
        lines.append("|---|---:|---:|")
        lines.append(f"| `docsync get Perfume KEY` (release, -static-stdlib) | {get_ms:.1f} | {spread('6', 'docsync-get', 'ms')} |")
        lines.append(f"| `sqlite3 STORE \"SELECT data …\"` | {shell_ms:.1f} | {spread('6', 'sqlite3-shell', 'ms')} |")
        lines.append("")
        targets.append(("`docsync get` start-up ≤ 2.5× the sqlite3 shell", f"{get_ms / shell_ms:.2f}×", verdict(get_ms / shell_ms <= 2.5)))

    summary = ["| target | measured | verdict |", "|---|---:|---|"]
    summary += [f"| {a} | {b} | {c} |" for a, b, c in targets]

    info = machine()
    when = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    header = [
        "# docsync benchmarks",
        "",
        "Produced by `scripts/bench` (do not edit by hand; run it again). Medians of "
        f"{args.runs} runs per scenario, all scenarios in one run against one Firestore emulator.",
        "",
        f"- Date: {when}",
        f"- Machine: {info['cores']} cores ({info['model']}), {info['memory']} memory, Linux {info['kernel']}",
        f"- Build: {info['swift']}, release, commit {info['commit']}",
    ]
    if ("emulator", "version") in meta and meta[("emulator", "version")]:
        header.append(f"- Firestore emulator: {meta[('emulator', 'version')]}")
    if ("official-version", "version") in meta:
        header.append(f"- Official client: google-cloud-firestore {meta[('official-version', 'version')]} (Python, gRPC)")
    header.append("- The emulator, the client under test and (for scenario 3) the API share the same cores, "
                  "and other builds may run on the machine: figures are noisy; ratios from one run are what count.")
    header.append("")
    notes = []
    if args.notes and os.path.exists(args.notes):
        with open(args.notes, encoding="utf-8") as handle:
            notes = ["## Notes", "", handle.read().strip(), ""]
    text = "\n".join(header + ["## Targets", ""] + summary + [""] + ["## Results", ""] + lines + notes)
    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(text.rstrip() + "\n")


if __name__ == "__main__":
    main()
