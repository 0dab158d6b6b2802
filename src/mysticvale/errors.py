"""Error types of the public API."""


class MysticValeError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidActionError(MysticValeError, ValueError):
    """Text that is not action notation at all (cannot be parsed)."""


class IllegalActionError(MysticValeError, ValueError):
    """A well-formed action that is not legal in the current state; the game is unchanged."""


class CatalogueError(MysticValeError, ValueError):
    """A card catalogue that is malformed; carries every problem found.

    ``problems`` are the English texts; ``found``, when the checker gave them, the same
    problems as data (``cards.problems.Problem``: where, a code and its arguments), in the
    same order, for pages that word them in their reader's language."""

    def __init__(self, problems: list[str], source: str = "catalogue", found: list | None = None) -> None:
        self.problems = list(problems)
        self.source = source
        self.found = list(found) if found is not None else []
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{source}: {len(self.problems)} problem(s):\n{lines}")


class SaveError(MysticValeError, ValueError):
    """A saved game that cannot be loaded (corrupt, or from an incompatible version)."""
