"""A picture of an arena result: win rates with 95% intervals, scores, game lengths."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_results(result: dict[str, Any], path: str | Path) -> Path:
    """Write a PNG of ``result`` (from :func:`mysticvale.bots.arena.run_matches`) to ``path``.

    Three panels: win rate of each bot with its Wilson 95% interval, the distribution of
    each bot's final scores, and the distribution of game lengths in rounds.
    """
    try:
        import matplotlib
    except ModuleNotFoundError:  # pragma: no cover - depends on the install
        raise RuntimeError("plotting needs matplotlib: pip install 'mysticvale[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    labels = result["bots"]
    per_game = result["per_game"]
    scores = {lb: [] for lb in labels}
    for g in per_game:
        for s, lb in enumerate(g["seats"]):
            scores[lb].append(g["scores"][s])
    rounds = [g["rounds"] for g in per_game]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    title = (f"{result['games']} games, {result['players']} players, sets {'+'.join(result['sets'])}, "
             f"{result['ruleset']} rules, seed {result['seed']}")
    fig.suptitle(title)

    ax = axes[0]
    rates = [result["win_rate"][lb] for lb in labels]
    lo = [result["win_rate"][lb] - result["win_rate_ci95"][lb][0] for lb in labels]
    hi = [result["win_rate_ci95"][lb][1] - result["win_rate"][lb] for lb in labels]
    xs = range(len(labels))
    ax.bar(xs, rates, yerr=[lo, hi], capsize=8, color=colours[:len(labels)], alpha=0.85)
    for x, r in zip(xs, rates):
        ax.text(x + 0.1, min(0.97, r + 0.02), f"{100 * r:.1f}%", ha="left", va="bottom")
    if result.get("ties"):
        ax.text(0.98, 0.98, f"ties: {result['ties']}", transform=ax.transAxes, ha="right", va="top")
    ax.set_xticks(list(xs), labels)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("win rate (outright), 95% Wilson interval")
    ax.set_title("Win rates")

    ax = axes[1]
    allsc = [v for lb in labels for v in scores[lb]]
    lo_s, hi_s = (min(allsc), max(allsc)) if allsc else (0, 1)
    bins = max(5, min(40, int(hi_s - lo_s) // 3 + 1))
    for k, lb in enumerate(labels):
        ax.hist(scores[lb], bins=bins, range=(lo_s, hi_s + 1), alpha=0.55, label=lb,
                color=colours[k % len(colours)])
    ax.set_xlabel("final score (VP)")
    ax.set_ylabel("games")
    ax.set_title("Score distributions")
    ax.legend()

    ax = axes[2]
    if rounds:
        ax.hist(rounds, bins=range(min(rounds), max(rounds) + 2), color="gray", alpha=0.8, align="left")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    ax.set_title(f"Game length (mean {result['rounds']['mean']:.1f} rounds)")

    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


__all__ = ["plot_results"]
