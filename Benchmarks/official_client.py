#!/usr/bin/env python3
"""Writes NDJSON records to Firestore with the official Python client.

    FIRESTORE_EMULATOR_HOST=127.0.0.1:PORT official_client.py MODE PROJECT FILE [--collection C] [--key K]

MODE is "batch" (db.batch() commits of 500 writes, one after the other, as the
client's documentation shows), "bulk" (db.bulk_writer() with its default
options, which include the 500-writes/s ramp-up start), or "bulk-unthrottled"
(bulk_writer with the ramp-up limit raised out of the way).

The records are read and parsed before the clock starts; the time covers the
writes only (channel setup included). Prints one JSON line:
{"documents": N, "seconds": S}.
"""
import argparse
import json
import sys
import time

from google.cloud import firestore
from google.cloud.firestore_v1.bulk_writer import BulkWriterOptions


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["batch", "bulk", "bulk-unthrottled"])
    parser.add_argument("project")
    parser.add_argument("file")
    parser.add_argument("--collection", default="Perfume")
    parser.add_argument("--key", default="productId")
    args = parser.parse_args()

    with open(args.file, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    db = firestore.Client(project=args.project)
    collection = db.collection(args.collection)
    failures = []

    start = time.perf_counter()
    if args.mode == "batch":
        for offset in range(0, len(records), 500):
            batch = db.batch()
            for record in records[offset:offset + 500]:
                batch.set(collection.document(str(record[args.key])), record)
            batch.commit()
    else:
        options = None
        if args.mode == "bulk-unthrottled":
            options = BulkWriterOptions(initial_ops_per_second=1_000_000, max_ops_per_second=1_000_000)
        writer = db.bulk_writer(options=options)
        writer.on_write_error(lambda error: failures.append(error) and False)
        for record in records:
            writer.set(collection.document(str(record[args.key])), record)
        writer.close()
    seconds = time.perf_counter() - start

    if failures:
        print(f"{len(failures)} writes failed, first: {failures[0].message}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps({"documents": len(records), "seconds": seconds}))


if __name__ == "__main__":
    main()
