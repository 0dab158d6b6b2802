"""Where rules modules register what they handle.

* ``STEPS``: kinds of scheduled rules work (``Step.kind``) and the function doing each;
* ``DECISIONS``: kinds of pending decision, each with the functions that list its legal
  actions and apply one;
* ``EFFECTS``: the ability vocabulary the card data may use (with parameter types), and
  for each effect the function that resolves it;
* ``HARVEST``: the Harvest's legal actions and the function applying one (``harvest.py``
  registers them; the flow of the turn, which it imports, calls them through here).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

StepFn = Callable[..., None]


@dataclass(frozen=True)
class Decision:
    legal: Callable[..., list]
    apply: Callable[..., None]
    #: Text shown to other seats while this decision is open.
    describe: Callable[..., str] | None = None


@dataclass(frozen=True)
class EffectSpec:
    name: str
    triggers: tuple[str, ...]
    params: dict[str, type] = field(default_factory=dict)
    handler: Callable[..., Any] | None = None
    doc: str = ""


STEPS: dict[str, StepFn] = {}
DECISIONS: dict[str, Decision] = {}
EFFECTS: dict[str, EffectSpec] = {}
HARVEST: dict[str, Callable[..., Any]] = {}


def step(kind: str) -> Callable[[StepFn], StepFn]:
    def deco(fn: StepFn) -> StepFn:
        STEPS[kind] = fn
        return fn
    return deco


def decision(kind: str, legal: Callable[..., list], describe: Callable[..., str] | None = None):
    def deco(fn: Callable[..., None]) -> Callable[..., None]:
        DECISIONS[kind] = Decision(legal, fn, describe)
        return fn
    return deco


def effect(name: str, triggers: tuple[str, ...], params: dict[str, type] | None = None, doc: str = ""):
    """Register an effect of the ability vocabulary (``handler`` may be None for effects
    that other rules read, such as Ongoing symbol changes)."""
    def deco(fn: Callable[..., Any] | None) -> Callable[..., Any] | None:
        EFFECTS[name] = EffectSpec(name, triggers, params or {}, fn, doc or (fn.__doc__ or "").strip())
        return fn
    return deco


def passive(name: str, triggers: tuple[str, ...], params: dict[str, type] | None = None, doc: str = "") -> None:
    """Register an effect that has no handler: other rules read it (symbols, scoring, discounts)."""
    EFFECTS[name] = EffectSpec(name, triggers, params or {}, None, doc)
