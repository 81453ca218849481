#!/usr/bin/env python3
"""Pre-encodes NDJSON records as Firestore REST batchWrite bodies.

    raw_bodies.py PROJECT FILE OUTDIR [--collection C] [--key K] [--batch 500]

Each body is {"writes":[{"update":{"name":…,"fields":…}}, …]} with up to
--batch writes, in the value encoding of Firestore's REST API (integers as
integerValue strings, floats as doubleValue, maps as mapValue…). The bench
script posts them with parallel curl processes: the emulator's own limit for
the same documents, with no client work in the timed part.
"""
import argparse
import json
import os


def encode(value):
    if value is None:
        return {"nullValue": None}
    if isinstance(value, bool):
        return {"booleanValue": value}
    if isinstance(value, int):
        return {"integerValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [encode(v) for v in value]}} if value else {"arrayValue": {}}
    if isinstance(value, dict):
        return {"mapValue": {"fields": {k: encode(v) for k, v in value.items()}}}
    raise TypeError(f"cannot encode {type(value)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("project")
    parser.add_argument("file")
    parser.add_argument("outdir")
    parser.add_argument("--collection", default="Perfume")
    parser.add_argument("--key", default="productId")
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    prefix = f"projects/{args.project}/databases/(default)/documents/{args.collection}/"
    os.makedirs(args.outdir, exist_ok=True)
    writes = []
    count = 0

    def flush():
        nonlocal writes, count
        if not writes:
            return
        path = os.path.join(args.outdir, f"body-{count:05d}.json")
        with open(path, "w", encoding="utf-8") as out:
            out.write(json.dumps({"writes": writes}, ensure_ascii=False, separators=(",", ":")))
        count += 1
        writes = []

    with open(args.file, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            record = json.loads(line)
            fields = {k: encode(v) for k, v in record.items()}
            writes.append({"update": {"name": prefix + str(record[args.key]), "fields": fields}})
            if len(writes) >= args.batch:
                flush()
    flush()
    print(count)


if __name__ == "__main__":
    main()
