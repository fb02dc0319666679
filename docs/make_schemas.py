"""Regenerate docs/schema/*.schema.json from the result models (python docs/make_schemas.py).

The tests fail when a committed schema differs from the models; bump report.JSON_SCHEMA_VERSION
when a field's name or meaning changes.
"""

from __future__ import annotations

import json
from pathlib import Path

from roofmodel.render.schemas import all_json_schemas

OUT = Path(__file__).resolve().parent / "schema"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for stem, schema in all_json_schemas().items():
        path = OUT / f"{stem}.schema.json"
        path.write_text(json.dumps(schema, indent=2) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
