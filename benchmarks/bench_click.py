"""Click-to-screen in Chromium: from a player's click to the frame that shows its result.

Starts ``mysticvale serve`` on a free port (SQLite in a temporary folder), opens a seat of a
two-player base game against a greedy bot in Debian's Chromium (Playwright, 1280x900, the
animations setting off so bot moves do not wait), and plays by clicking: the second click on the
deck (push), Go to the Harvest, buying from the commons, End Harvest, sleeving.  For each click,
the page records ``performance.now()`` when the click event fires and again in the first
animation frame after the table shows the new version (``body[data-seq]`` changed): the server's
work (rules, database commit, the delta), the transfer, applying the delta and drawing the table.

    .venv/bin/python benchmarks/bench_click.py --clicks 60
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))

from browser_helpers import ServerProcess, create_game  # noqa: E402

_PROBE = """() => {
  window.__clicks = [];
  window.addEventListener('click', () => { window.__pending = performance.now(); }, true);
  new MutationObserver(() => {
    if (window.__pending === undefined) return;
    const t0 = window.__pending;
    window.__pending = undefined;
    requestAnimationFrame(() => window.__clicks.push(performance.now() - t0));
  }).observe(document.body, { attributes: true, attributeFilter: ['data-seq'] });
}"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clicks", type=int, default=60)
    ap.add_argument("--seed", type=int, default=20)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(Path(tmp)).start()
        try:
            game = create_game(srv.base, args.seed, bots={"1": "greedy"})
            url = srv.base + "/games/" + game["id"] + "?token=" + game["seats"][0]["token"]
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=os.environ.get("MYSTICVALE_CHROMIUM", "/usr/bin/chromium"),
                                             args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.add_init_script("localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false}))")
                page.goto(url)
                page.wait_for_selector("#field")
                page.evaluate(_PROBE)
                measured = 0
                kinds: dict[str, list[float]] = {}
                while measured < args.clicks:
                    page.wait_for_function("document.body.dataset.myturn === 'yes' || document.body.dataset.over === 'yes'",
                                           timeout=60_000)
                    if page.evaluate("document.body.dataset.over") == "yes":
                        break
                    n = page.evaluate("window.__clicks.length")
                    if page.locator("#field .sleeve-target").count():
                        kind, target = "sleeve", "#field .sleeve-target >> nth=0"
                    elif page.locator("#deck.clickable").count() and int(
                            page.locator("#players .player.me").get_attribute("data-decay")) <= 1:
                        page.click("#deck")                     # arms (no new version)
                        page.evaluate("window.__pending = undefined")
                        kind, target = "push", "#deck"
                    elif page.locator("#buttons [data-action=pass]").count():
                        kind, target = "pass", "#buttons [data-action=pass]"
                    elif page.locator("#supply .face.clickable").count():
                        kind, target = "buy", "#supply .face.clickable >> nth=-1"
                    elif page.locator("#finish").count():
                        kind, target = "finish", "#finish"
                    else:
                        kind, target = "other", "#buttons [data-action] >> nth=0"
                    page.click(target)
                    if page.locator("#chooser").count():
                        page.click("#chooser [data-action] >> nth=0")
                    page.wait_for_function(f"window.__clicks.length > {n}", timeout=30_000)
                    kinds.setdefault(kind, []).append(page.evaluate("window.__clicks[window.__clicks.length - 1]"))
                    measured += 1
                browser.close()
        finally:
            srv.stop()
    times = sorted(x for v in kinds.values() for x in v)
    load = os.getloadavg()
    print(f"{len(times)} clicks, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"click-to-screen: median {statistics.median(times):.0f} ms, p90 {times[int(len(times) * 0.9) - 1]:.0f} ms, "
          f"max {times[-1]:.0f} ms")
    for kind, v in sorted(kinds.items()):
        print(f"  {kind:<7} {len(v):3d} clicks  median {statistics.median(v):5.0f} ms  max {max(v):5.0f} ms")


if __name__ == "__main__":
    main()
