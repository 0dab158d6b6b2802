"""Shared test set-up: make tests/ importable for the scenario helper, and let the servers the
tests start wait as long as the tests do."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from waiting import PATIENCE  # noqa: E402

# The answer to a new e-mail address waits for the confirmation's first attempt, 10 s at most, and
# then says "queued" and the page "will be tried again"; a loaded machine can take longer for that
# attempt, and the tests ask what it came to.  Set before the server is imported (here, and in every
# server process the tests start, which inherit it).
os.environ.setdefault("MYSTICVALE_FIRST_ATTEMPT_WAIT", str(PATIENCE))
