"""E-mail retries survive a restart (issue 22): what is to be sent lives in the database.

A confirmation the SMTP server did not take stays in ``mail_outbox`` with its attempts and the
time of its next one; a server started later (here: another ``mysticvale serve`` process after
the first was killed) sends it, once, even when two processes share a PostgreSQL database.  A turn
notice counts its failed attempts in ``turn_notices``, so the bound on retries holds across
restarts too.
"""

from __future__ import annotations

import re
import threading

import httpx
import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller
from conftest import ServerProcess, _fresh_pg_database, free_port, wait_for
from social_helpers import key
from test_mail import Inbox, PUBLIC, anna_wants_turn_mails, attempts, body, mail_app, notices, play_until_noted
from waiting import HTTP_TIMEOUT

from mysticvale.server import notify

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: People whose confirmations wait for the SMTP server (at most 6 an hour from one client address).
PEOPLE = 4


def _outbox(url: str) -> list[tuple]:
    eng = sa.create_engine(url)
    try:
        with eng.connect() as c:
            return [tuple(r) for r in c.execute(sa.text("SELECT email, state, attempts FROM mail_outbox ORDER BY id"))]
    finally:
        eng.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_confirmation_that_failed_is_sent_once_by_the_next_server(tmp_path, request, backend):
    smtp_port = free_port()                         # nothing listens there yet: the SMTP server is down
    if backend == "postgresql":
        database = _fresh_pg_database(request.getfixturevalue("pg_url"))
        url = database
    else:
        database = None
        url = f"sqlite:///{tmp_path / 'first' / 'mysticvale.db'}"
    args = ("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--public-url", PUBLIC)
    dirs = [tmp_path / name for name in ("first", "second", "third")]
    for d in dirs:
        d.mkdir()
    if database is None:                            # one SQLite file, served by one process at a time
        database = url
    first = ServerProcess(dirs[0], database, args)
    first.start()
    try:
        people = []
        for i in range(PEOPLE):
            p = httpx.post(first.base + "/api/people", json={"name": f"Sender {chr(65 + i)}"}, timeout=HTTP_TIMEOUT)
            assert p.status_code == 201, p.text
            p = p.json()
            r = httpx.patch(first.base + "/api/people/me/settings", json={"email": f"p{i}@example.org"},
                            headers=key(p), timeout=HTTP_TIMEOUT)
            assert r.status_code == 200, r.text
            assert r.json()["confirmation_sent"] is False and r.json()["confirmation"] == "retrying"
            people.append(p)
    finally:
        first.kill()                                # a crash: no shutdown code runs
    assert [row[1:] for row in _outbox(url)] == [("retrying", 1)] * PEOPLE
    # The SMTP server is back, and the first retry is due (as if its 30 s had passed).
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    eng = sa.create_engine(url)
    with eng.begin() as c:
        c.execute(sa.text("UPDATE mail_outbox SET next_at = 0"))
    eng.dispose()
    # A new server sends them; on PostgreSQL two new processes share the work.
    later = [ServerProcess(d, database, args) for d in (dirs[1:] if backend == "postgresql" else dirs[1:2])]
    try:
        for srv in later:
            srv.start()
        wait_for(lambda: [row[1] for row in _outbox(url)] == ["sent"] * PEOPLE)
        assert sorted(rcpt for _, [rcpt], _ in inbox.mails) == [f"p{i}@example.org" for i in range(PEOPLE)]
        assert [row[2] for row in _outbox(url)] == [2] * PEOPLE         # one failed attempt, one that went out
        for i, p in enumerate(people):
            srv = later[i % len(later)]
            settings = httpx.get(srv.base + "/api/people/me/settings", headers=key(p), timeout=HTTP_TIMEOUT).json()
            assert settings["confirmation"] == "sent" and settings["email_confirmed"] is False
            # the mailed link's code confirms the address (each attempt drew its own code)
            [mail] = [m for _, [rcpt], m in inbox.mails if rcpt == f"p{i}@example.org"]
            code = re.search(r"confirm-email#code=(\S+)", body(mail)).group(1)
            r = httpx.post(srv.base + "/api/people/email/confirm", json={"code": code}, timeout=HTTP_TIMEOUT)
            assert r.status_code == 200, r.text
            assert httpx.get(srv.base + "/api/people/me/settings", headers=key(p),
                             timeout=HTTP_TIMEOUT).json()["email_confirmed"] is True
        assert len(inbox.mails) == PEOPLE           # each mail went once
    finally:
        for srv in later:
            srv.kill()
        controller.stop()


def test_a_turn_notices_attempts_count_across_a_restart(sqlite_url):
    """The bound on a turn notice's attempts holds over restarts: a notice that failed once before
    the restart gets only the attempts left after it, then is given up."""
    port = free_port()                              # the SMTP server is down throughout
    with mail_app(sqlite_url, port) as c:
        mailer = c.app.state.social.mailer
        mailer.backoff = (3600.0,) * 4
        a, gid, token = anna_wants_turn_mails(c)
        play_until_noted(c, gid, token, lambda: any(n[0] == gid for n in notices(c)))
        [notice] = wait_for(lambda: [n for n in notices(c) if n[0] == gid and n[3] == "pending" and attempts(c, n) == 1])
    with mail_app(sqlite_url, port) as c:           # the next server: the notice is still due later
        mailer = c.app.state.social.mailer
        mailer.backoff = (0.0,) * 4                 # its retries come at once now
        mailer.retry_now()
        wait_for(lambda: [n[3] for n in notices(c) if n[:3] == notice[:3]] == ["failed"])
        assert attempts(c, notice) == notify.ATTEMPTS       # 1 before the restart, 4 after it
        assert mailer.counts["failed"] == notify.ATTEMPTS - 1


def test_two_processes_mailers_send_each_due_confirmation_once(pg_url):
    """Two mailers (as in two server processes) on one PostgreSQL database, started together on a
    backlog of due confirmations: each row is claimed by one of them (FOR UPDATE SKIP LOCKED), so
    every address gets exactly one e-mail."""
    from mysticvale.server.notify import Mailer, MailSettings, SmtpServer
    from mysticvale.server.people import People
    from mysticvale.server.storage import Storage

    backlog = 16
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    storage = Storage(_fresh_pg_database(pg_url))
    try:
        settings = MailSettings(SmtpServer(False, "127.0.0.1", controller.port), PUBLIC, "Mystic Vale <vale@vale.example>",
                                timeout=HTTP_TIMEOUT)
        people = People(storage.engine)
        mailers = [Mailer(storage.engine, settings, people) for _ in range(2)]
        for i in range(backlog):                     # queued while no mailer runs (as after a restart)
            p, _key = people.create(f"Sender {i}")
            _, code = people.save_settings(p.id, email=f"p{i}@example.org", confirm=True)
            mailers[0].queue_confirmation(p.id, f"p{i}@example.org", None, code)
        for m in mailers:
            m.start()
        try:
            wait_for(lambda: [row[1] for row in _outbox(storage.url)] == ["sent"] * backlog)
            assert sorted(rcpt for _, [rcpt], _ in inbox.mails) == sorted(f"p{i}@example.org" for i in range(backlog))
            assert sum(m.counts["sent"] for m in mailers) == backlog
        finally:
            for m in mailers:
                m.close()
    finally:
        storage.close()
        controller.stop()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_confirmation_whose_server_died_while_sending_it_is_sent_by_the_next(tmp_path, request, backend):
    """The SMTP server takes the connection and says nothing; the server is killed in the middle of
    that attempt.  The next server sends the mail (SQLite: the row left ``sending`` is due again at
    its start; PostgreSQL: the dead process's claim ended with its connection)."""
    from test_mail import BlackHole

    hole = BlackHole()
    port = hole.port
    url = (_fresh_pg_database(request.getfixturevalue("pg_url")) if backend == "postgresql"
           else f"sqlite:///{tmp_path / 'mysticvale.db'}")
    args = ("--smtp", f"smtp://127.0.0.1:{port}", "--public-url", PUBLIC)
    first, second = (ServerProcess(tmp_path / name, url, args) for name in ("first", "second"))
    for srv in (first, second):
        srv.data_dir.mkdir()
    controller = None
    try:
        first.start()
        p = httpx.post(first.base + "/api/people", json={"name": "Anna"}, timeout=HTTP_TIMEOUT).json()

        def ask() -> None:                          # (it waits for the first attempt: on a thread)
            try:
                httpx.patch(first.base + "/api/people/me/settings", json={"email": "anna@example.org"},
                            headers=key(p), timeout=HTTP_TIMEOUT)
            except httpx.HTTPError:
                pass                                # the server is killed before it answers

        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        wait_for(lambda: hole.accepted)             # the attempt is under way, and hangs
        first.kill()
        asking.join(HTTP_TIMEOUT)
        assert [row[1:] for row in _outbox(url)] in ([("sending", 0)], [("queued", 0)])
        hole.close()
        controller = Controller(inbox := Inbox(), hostname="127.0.0.1", port=port)
        controller.start()
        second.start()
        wait_for(lambda: [row[1:] for row in _outbox(url)] == [("sent", 1)])
        [(_, rcpt, mail)] = inbox.mails
        assert rcpt == ["anna@example.org"]
        code = re.search(r"confirm-email#code=(\S+)", body(mail)).group(1)
        assert httpx.post(second.base + "/api/people/email/confirm", json={"code": code},
                          timeout=HTTP_TIMEOUT).status_code == 200
    finally:
        first.kill()
        second.kill()
        hole.close()
        if controller is not None:
            controller.stop()
