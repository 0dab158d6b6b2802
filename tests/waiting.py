"""How long the tests wait, in one place (issue 23).

The suite runs with two workers on two cores beside browsers and servers, sometimes beside a second
copy of itself: a step that takes 50 ms alone can take seconds.  So a test never sleeps for a fixed
time hoping that something has happened; it waits for the condition itself, and gives up only after
:data:`PATIENCE`, far beyond what load can cause (a condition that has not come by then is not
coming).  A test that passes waits no longer for this; only a failing one takes longer to say so.

Browser tests use :data:`PATIENCE_MS` as every page's default timeout (tests/browser/conftest.py),
server tests :func:`wait_for`; requests to a test's own server use :data:`HTTP_TIMEOUT`.
"""

from __future__ import annotations

import time

#: Seconds to wait for a condition before failing.
PATIENCE = 120.0
#: The same in milliseconds, as Playwright counts.
PATIENCE_MS = PATIENCE * 1000
#: Seconds an HTTP request to a test's own server may take before the test fails.
HTTP_TIMEOUT = 60.0


def wait_for(predicate, timeout: float = PATIENCE, interval: float = 0.01):
    """Poll ``predicate`` until it returns something truthy, and return that; fail after ``timeout``
    seconds."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {getattr(predicate, '__name__', predicate)}")
        time.sleep(interval)


def run_coroutine(coro):
    """Run a coroutine to its end on a loop of its own, in a thread of its own, and return its
    result (or raise its exception).  ``asyncio.run`` in the test's thread fails when that thread
    already runs a loop: Playwright's sync API keeps one running for the whole session in a
    worker that also ran browser tests."""
    import threading

    out: dict = {}

    def main() -> None:
        import asyncio

        try:
            out["result"] = asyncio.run(coro)
        except BaseException as exc:        # handed to the test's thread
            out["error"] = exc

    t = threading.Thread(target=main, name="test-coroutine")
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("result")
