"""Claiming the next due row of an e-mail table, so that no two server processes send the same mail.

The mailer (:mod:`.notify`) keeps what it must send in the database: confirmation e-mails in
``mail_outbox``, "your turn" notices in ``turn_notices``.  Every server process's mailer looks for
due rows; :func:`claim_next` hands each due row to exactly one of them:

* **PostgreSQL** (several processes): the row is locked with ``SELECT ... FOR UPDATE SKIP LOCKED``
  in a transaction held while the mail is sent.  Another process skips a locked row and takes the
  next one.  The outcome (sent, the next attempt's time, given up) is written in the same
  transaction, so it commits together with the end of the claim.  A process that dies while
  sending loses its connection: the transaction is rolled back, the row is due again and another
  process sends it (a mail is never lost; it may go twice only if the process died after the SMTP
  server took the mail and before the commit).
* **SQLite** (one process, :func:`~mysticvale.server.cluster.hold_sqlite`): a long write
  transaction would hold up every game's writes, so the row is claimed by a short update of its
  state to ``sending``; the outcome is written when the attempt is over.  A row left ``sending``
  by a server that was killed is due again when the next server starts (:func:`resume_sending`).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection, Engine

#: The state of a row an SQLite server is sending now.
SENDING = "sending"


class Claim:
    """One due row, held by this process until the ``with`` block of :func:`claim_next` ends."""

    def __init__(self, engine: Engine, table: Table, key: Sequence[Any], row: Any,
                 conn: Connection | None, state: str) -> None:
        self.engine, self.table, self.key, self.row = engine, table, tuple(key), row
        self._conn = conn               # PostgreSQL: the transaction that holds the row's lock
        self._state = state             # the state the row was claimed in (SQLite puts it back on error)
        self.finished = False

    def run(self, work: Callable[[Connection], Any]) -> Any:
        """Run ``work(connection)`` before the mail goes out: in the claim's transaction (PostgreSQL),
        or in a transaction of its own, committed at once (SQLite); returns what it returns."""
        if self._conn is not None:
            return work(self._conn)
        with self.engine.begin() as conn:
            return work(conn)

    def finish(self, **values: Any) -> None:
        """Write the attempt's outcome (the row's new ``state`` and the rest of ``values``)."""
        self.finished = True
        if self._conn is not None:
            self._conn.execute(update(self.table).where(*self.key).values(**values))
            return
        with self.engine.begin() as conn:   # (only if still ours: a replaced row stays replaced)
            conn.execute(update(self.table).where(*self.key, self.table.c.state == SENDING).values(**values))

    def _give_back(self) -> None:
        # SQLite: an attempt that raised before its outcome was written is due again at once.
        with self.engine.begin() as conn:
            conn.execute(update(self.table).where(*self.key, self.table.c.state == SENDING)
                         .values(state=self._state))


@contextmanager
def claim_next(engine: Engine, table: Table, due: Sequence[Any], order: Sequence[Any],
               key: Callable[[Any], Sequence[Any]]) -> Iterator[Claim | None]:
    """The first row of ``table`` that is ``due`` (conditions, including its state) in ``order``
    that no other process holds, claimed for the ``with`` block (None: no such row).

    ``key(row)`` gives the conditions that select that one row.  See the module docstring for how
    the claim is held on each database.
    """
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            row = conn.execute(select(table).where(*due).order_by(*order).limit(1)
                               .with_for_update(skip_locked=True)).first()
            yield Claim(engine, table, key(row), row, conn, row.state) if row is not None else None
        return
    with engine.connect() as conn:
        candidates = conn.execute(select(table).where(*due).order_by(*order).limit(5)).all()
    for row in candidates:
        with engine.begin() as conn:
            won = conn.execute(update(table).where(*key(row), *due).values(state=SENDING)).rowcount == 1
        if not won:
            continue                    # replaced or done meanwhile
        claim = Claim(engine, table, key(row), row, None, row.state)
        try:
            yield claim
        finally:
            if not claim.finished:
                claim._give_back()
        return
    yield None


def resume_sending(engine: Engine, table: Table, values: Callable[[Any], dict[str, Any]]) -> int:
    """(SQLite, when the server starts: it is the only process.)  Rows a killed server left
    ``sending`` are due again: each gets ``values(row)``.  Returns how many there were."""
    if engine.dialect.name == "postgresql":
        return 0                        # a PostgreSQL claim ends with its connection: nothing is left
    with engine.begin() as conn:
        rows = conn.execute(select(table).where(table.c.state == SENDING)).all()
        for row in rows:
            key = [c == getattr(row, c.name) for c in table.primary_key.columns]
            conn.execute(update(table).where(*key, table.c.state == SENDING).values(**values(row)))
    return len(rows)
