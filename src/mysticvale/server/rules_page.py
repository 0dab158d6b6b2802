"""The rules help as a page of its own (``/rules/{lang}``).

The help is written once per language as an HTML fragment (``web/static/help/<lang>.html``) that the
table also reads; the top bar's Rules link opens this page, which puts the fragment in a document
with the table's styles, a title and a way back, so it does not open as unstyled text.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi.responses import HTMLResponse

#: The languages the help is written in (web/static/help/<lang>.html).
HELP_LANGS = ("en", "de")
_HEADING = re.compile(r"<h1>(.*?)</h1>", re.S)
_BACK = {"en": "Back to the games", "de": "Zurück zu den Spielen"}


def rules_page(static: Path, lang: str) -> HTMLResponse:
    """The page for ``lang``; an unknown language is answered with the English page (a link from a
    client in a language without its own help still works)."""
    lang = lang if lang in HELP_LANGS else "en"
    path = static / "help" / f"{lang}.html"
    if not path.is_file():
        return HTMLResponse("<!doctype html><title>Mystic Vale</title><p>The rules page is not installed.</p>",
                            status_code=503)
    fragment = path.read_text(encoding="utf-8")
    m = _HEADING.search(fragment)
    title = html.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip() if m else "Mystic Vale"
    page = f"""<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)}</title>
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="rules-page">
  <header id="topbar">
    <a id="home" href="/"><span class="brand">Mystic Vale</span></a>
    <span id="topinfo"></span>
    <span id="topactions"><a class="button" href="/">{html.escape(_BACK[lang])}</a></span>
  </header>
  <main id="rules">
{fragment}
  </main>
</body>
</html>
"""
    return HTMLResponse(page)
