#!/usr/bin/env python3
"""Which texts a translation still lacks: keys of messages/en.json missing in messages/<lang>.json
(default: de) and keys there that English no longer has, each with its English text, so a
translator (or the lead) can finish the file.  Also names keys whose placeholders or plural forms
differ from English.

    python3 scripts/i18n_missing.py            # German
    python3 scripts/i18n_missing.py de --json  # the missing keys as a JSON object to fill in

Exit status 1 when anything is missing, extra or inconsistent, else 0.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

MESSAGES = Path(__file__).resolve().parents[1] / "src" / "mysticvale" / "web" / "static" / "messages"


def placeholders(msg) -> set[str]:
    forms = msg.values() if isinstance(msg, dict) else [msg]
    return {name for form in forms for name in re.findall(r"\{(\w+)\}", str(form))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lang", nargs="?", default="de", help="language code of the file to check (default de)")
    ap.add_argument("--json", action="store_true", help="print the missing keys with their English texts as JSON")
    args = ap.parse_args(argv)
    en = json.loads((MESSAGES / "en.json").read_text(encoding="utf-8"))
    path = MESSAGES / f"{args.lang}.json"
    other = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    missing = {k: v for k, v in en.items() if k not in other}
    extra = [k for k in other if k not in en]
    odd = [k for k in en if k in other and (placeholders(en[k]) != placeholders(other[k])
                                            or isinstance(en[k], dict) != isinstance(other[k], dict)
                                            or (isinstance(en[k], dict) and set(en[k]) != set(other[k])))]
    if args.json:
        print(json.dumps(missing, indent=1, ensure_ascii=False))
    else:
        for k, v in missing.items():
            print(f"missing in {args.lang}.json: {k} = {json.dumps(v, ensure_ascii=False)}")
        for k in extra:
            print(f"only in {args.lang}.json (not in en.json): {k}")
        for k in odd:
            print(f"placeholders or plural forms differ: {k}")
        print(f"{len(missing)} missing, {len(extra)} extra, {len(odd)} inconsistent "
              f"({len(en)} keys in en.json)", file=sys.stderr)
    return 1 if missing or extra or odd else 0


if __name__ == "__main__":
    sys.exit(main())
