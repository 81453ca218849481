#!/usr/bin/env python3
"""Perfume-like benchmark records (~1 KB each), deterministic.

    records.py generate COUNT OUT.ndjson [--changed-percent P --changed-out OUT2.ndjson]

Writes COUNT records as NDJSON keyed by "productId". With --changed-percent it
also writes a second file holding the same records in which every (100/P)-th
record has three fields changed (price, rating, one key note), as a re-pulled
API would return them; it prints how many records changed.
"""
import argparse
import json
import random

BRANDS = ["Byredo", "Dior", "Chanel", "Guerlain", "Hermès", "Creed", "Le Labo", "Maison Margiela",
          "Tom Ford", "Jo Malone London", "Diptyque", "Kilian Paris", "Yves Saint Laurent", "Prada"]
FAMILIES = ["Warm & Spicy", "Fresh", "Floral", "Woody", "Earthy & Woody", "Citrus"]
SCENTS = ["Warm Spicy", "Fresh Citrus", "Classic Floral", "Woody Musk", "Aquatic", "Sweet Gourmand"]
NOTES = ["Teakwood", "Vanilla", "Amber", "Bergamot", "Cedar", "Musk", "Vetiver", "Iris", "Oud", "Rose",
         "Neroli", "Pink Pepper", "Sandalwood", "Tonka Bean", "Jasmine", "Patchouli", "Leather", "Fig"]
WORDS = ["luminous", "composition", "opens", "bright", "dries", "down", "soft", "refillable", "glass",
         "warm", "trail", "skin", "evening", "velvet", "heart", "of", "with", "a", "and", "the", "notes",
         "crisp", "morning", "smoky", "resin", "petals", "sparkling", "creamy", "earthy", "long-lasting"]


def make_record(i, rng):
    sku = 2500000 + i
    price = round(rng.uniform(18, 420), 2)
    words = [rng.choice(WORDS) for _ in range(70)]
    description = " ".join(words).capitalize() + "."
    return {
        "productId": f"P{500000 + i}",
        "brandName": rng.choice(BRANDS),
        "displayName": f"{rng.choice(NOTES)} {rng.randint(1, 99)} Eau de Parfum",
        "image450": f"https://www.example-cdn.test/productimages/sku/s{sku}-main-zoom.jpg?imwidth=450",
        "rating": round(rng.uniform(1, 5), 4),
        "reviews": rng.randint(0, 5000),
        "lovesCount": rng.randint(0, 250000),
        "isNew": rng.random() < 0.1,
        "fragranceFamily": rng.choice(FAMILIES),
        "scentType": rng.choice(SCENTS),
        "keyNotes": rng.sample(NOTES, 3),
        "categories": ["Fragrance", "Women", "Perfume"] if i % 2 else ["Fragrance", "Men", "Cologne"],
        "currentSku": {
            "skuId": str(sku),
            "listPrice": price,
            "size": rng.choice(["1 oz/ 30 mL", "1.7 oz/ 50 mL", "3.4 oz/ 100 mL"]),
            "isLimitedEdition": rng.random() < 0.05,
            "stock": rng.randint(0, 900),
        },
        "description": description,
    }


def changed(record, i):
    record = json.loads(json.dumps(record))
    record["currentSku"]["listPrice"] = round(record["currentSku"]["listPrice"] + 1.25, 2)
    record["rating"] = round(record["rating"] * 0.99, 4)
    record["keyNotes"] = record["keyNotes"][:2] + [f"Note {i}"]
    return record


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["generate"])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--changed-percent", type=float)
    parser.add_argument("--changed-out")
    args = parser.parse_args()
    rng = random.Random(20261129)
    step = int(round(100 / args.changed_percent)) if args.changed_percent else 0
    changes = 0
    second = open(args.changed_out, "w", encoding="utf-8") if args.changed_out else None
    with open(args.out, "w", encoding="utf-8") as out:
        for i in range(args.count):
            record = make_record(i, rng)
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            if second is not None:
                if step and i % step == step // 2:
                    record = changed(record, i)
                    changes += 1
                second.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    if second is not None:
        second.close()
        print(changes)


if __name__ == "__main__":
    main()
