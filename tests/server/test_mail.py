"""E-mail (issue 15): address confirmation and "your turn" messages through a local SMTP server.

An ``aiosmtpd`` server started by the tests receives the mail.  A turn e-mail goes only to the
player's own confirmed address, at most once per turn, with no key, token or hidden information,
and a dead SMTP server delays no move.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
import socket
import ssl
import threading
from email import message_from_bytes, policy

import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from conftest import free_port, wait_for
from waiting import HTTP_TIMEOUT, PATIENCE
from fastapi.testclient import TestClient
from social_helpers import act, create, engine, key, person, state

from mysticvale.server import create_app, people_api
from mysticvale.server.notify import MailSettings, SmtpServer, parse_smtp_url

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PUBLIC = "https://vale.example/"


class Inbox:
    """An aiosmtpd handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.mails: list[tuple[str, list[str], object]] = []

    async def handle_DATA(self, server, session, envelope):
        self.mails.append((envelope.mail_from, list(envelope.rcpt_tos),
                           message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"

    def wait(self, n: int):
        wait_for(lambda: len(self.mails) >= n)
        return self.mails[n - 1]


@pytest.fixture
def smtp():
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def mail_app(url: str, port: int, *, delay: float = 0.0, timeout: float = HTTP_TIMEOUT, tls: bool = False,
             user: str | None = None, password: str | None = None, **bounds):
    settings = MailSettings(SmtpServer(tls, "127.0.0.1", port, user, password), PUBLIC, "Mystic Vale <vale@vale.example>",
                            delay=delay, timeout=timeout, **bounds)
    return TestClient(create_app(url, allow_seed=True, mail=settings))


def body(mail) -> str:
    return mail.get_content()


def confirm(client, who: dict, address: str, inbox: Inbox, n: int) -> None:
    """Set ``address`` for ``who`` and confirm it through the mailed link (the ``n``-th mail)."""
    r = client.patch("/api/people/me/settings", json={"email": address, "email_turns": True}, headers=key(who))
    assert r.status_code == 200 and r.json()["confirmation_sent"] is True
    _, rcpt, mail = inbox.wait(n)
    assert rcpt == [address]
    link = re.search(r"https://vale\.example/confirm-email#code=(\S+)", body(mail))
    assert link, body(mail)
    r = client.post("/api/people/email/confirm", json={"code": link.group(1)})
    assert r.status_code == 200, r.text
    assert client.get("/api/people/me/settings", headers=key(who)).json()["email_confirmed"] is True


def notices(client) -> list[tuple]:
    with engine(client).connect() as c:
        return [tuple(r) for r in c.execute(sa.text(
            "SELECT game_id, seat, turn, state FROM turn_notices ORDER BY game_id, seat, turn"))]


def attempts(client, notice: tuple) -> int:
    """The failed attempts of turn notice ``(game, seat, turn, ...)``, as stored."""
    with engine(client).connect() as c:
        return c.execute(sa.text("SELECT attempts FROM turn_notices WHERE game_id = :g AND seat = :s AND turn = :t"),
                         {"g": notice[0], "s": notice[1], "t": notice[2]}).scalar()


def anna_wants_turn_mails(c) -> tuple[dict, str, str]:
    """Anna, her address confirmed and turn e-mails on, in a game against a random bot that
    begins with her seat (seed 43): (Anna, game id, her seat token)."""
    a = person(c, "Anna")
    people = c.app.state.social.people
    people.save_settings(a["id"], email="anna@example.org", email_turns=True)
    assert people.confirm_email(people.new_confirmation(a["id"], "anna@example.org"))
    g = create(c, a, bots={"1": "random"}, seed=43)
    return a, g["id"], g["seats"][0]["token"]


def play_until_noted(c, gid: str, token: str, noted) -> None:
    """Anna plays her seat until ``noted()`` (a turn notice of this game is noted); the bot's
    turns are waited for, and before each of her moves the change listener has seen the bot
    hand her the turn (it keeps only a game's latest change: had she acted first, it would see
    her move and note no notice)."""
    for _ in range(300):
        spec = state(c, gid)
        if spec["observation"]["acting_player"] != 0:
            wait_for(lambda: state(c, gid)["seq"] != spec["seq"])
            continue
        assert c.app.state.social.wait_idle(PATIENCE)
        if noted():
            return
        act(c, gid, token)
    raise AssertionError("no turn notice was noted in 300 moves")


def settle(client) -> None:
    """Wait until the change listener and the mailer have dealt with everything due."""
    assert client.app.state.social.wait_idle(PATIENCE)
    wait_for(lambda: all(n[3] not in ("pending", "sending") for n in notices(client))
             or client.app.state.social.mail.delay > 0)


def test_without_smtp_no_mail_is_sent_and_the_settings_say_so(client):
    a = person(client, "Anna")
    r = client.patch("/api/people/me/settings", json={"email": "Anna@Example.org", "email_turns": True,
                                                        "sound": False, "language": "de"}, headers=key(a))
    assert r.status_code == 200
    assert r.json() == {"email": "Anna@example.org", "email_confirmed": False, "email_turns": True, "sound": False,
                        "language": "de", "email_available": False, "confirmation_sent": False, "confirmation": None}
    assert client.post("/api/people/me/settings/confirm-email", headers=key(a)).status_code == 503
    assert client.app.state.social.mailer is None


@pytest.mark.parametrize("change, words", [
    ({"email": "not an address"}, "valid e-mail"), ({"email_turns": True}, "e-mail address"),
    ({"language": "fr"}, "en"), ({"email_turns": None}, "true or false"), ({"colour": "red"}, "colour"),
])
def test_unfit_settings_are_refused_and_nothing_changes(client, change, words):
    a = person(client, "Anna")
    before = client.get("/api/people/me/settings", headers=key(a)).json()
    r = client.patch("/api/people/me/settings", json=change, headers=key(a))
    assert r.status_code == 422 and words in str(r.json()["detail"])
    assert client.get("/api/people/me/settings", headers=key(a)).json() == before


def test_an_address_is_confirmed_only_through_the_link_mailed_to_it(sqlite_url, smtp):
    inbox, port = smtp
    with mail_app(sqlite_url, port) as c:
        a = person(c, "Anna")
        r = c.patch("/api/people/me/settings", json={"email": "anna@example.org"}, headers=key(a))
        assert r.json()["confirmation_sent"] is True and r.json()["email_confirmed"] is False
        sender, rcpt, mail = inbox.wait(1)
        assert rcpt == ["anna@example.org"] and mail["To"] == "anna@example.org"
        assert mail["Subject"] == "Confirm your e-mail address for Mystic Vale"
        # no text a stranger chose: not the name (whoever typed the address chose it)
        assert body(mail).splitlines()[0] == "Hello," and "Anna" not in mail.as_string()
        assert a["key"] not in mail.as_string()
        # the code is in the link's fragment, never in a URL path a server logs
        link = re.search(r"(https://vale\.example/\S+)", body(mail)).group(1)
        assert link.startswith("https://vale.example/confirm-email#code=")
        code = link.split("#code=")[1]
        # the page shows a button; only its script's post confirms (a link preview confirms nothing)
        page = c.get("/confirm-email")
        assert page.status_code == 200 and 'id="confirm-btn"' in page.text and code not in page.text
        assert "Confirm my address" in page.text
        assert "Meine Adresse" in c.get("/confirm-email", headers={"Accept-Language": "de-DE,de;q=0.9"}).text
        assert c.get(f"/api/people/email/confirm/{code}").status_code in (404, 405)   # no code in a path
        assert c.get("/api/people/me/settings", headers=key(a)).json()["email_confirmed"] is False
        assert c.post("/api/people/email/confirm", json={"code": "wrong-code"}).status_code == 404
        assert c.post("/api/people/email/confirm", json={"code": code}).status_code == 200
        assert c.get("/api/people/me/settings", headers=key(a)).json()["email_confirmed"] is True
        assert c.post("/api/people/email/confirm", json={"code": code}).status_code == 404          # used
        # a new address must be confirmed again; an old link does not confirm it
        c.patch("/api/people/me/settings", json={"email": "anna@example.net"}, headers=key(a))
        assert c.get("/api/people/me/settings", headers=key(a)).json()["email_confirmed"] is False
        _, rcpt, _ = inbox.wait(2)
        assert rcpt == ["anna@example.net"]
        # at most three confirmation e-mails per hour, however the address changes
        r = c.post("/api/people/me/settings/confirm-email", headers=key(a))
        assert r.status_code == 200 and r.json()["confirmation_sent"] is True
        r = c.post("/api/people/me/settings/confirm-email", headers=key(a))
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 3000
        r = c.patch("/api/people/me/settings", json={"email": "victim@example.org"}, headers=key(a))
        assert r.status_code == 429
        assert c.get("/api/people/me/settings", headers=key(a)).json()["email"] == "anna@example.net"
        # nor to one address from several people
        for name in ("Bob", "Cleo", "Dan", "Eve"):
            p = person(c, name)
            r = c.patch("/api/people/me/settings", json={"email": "victim@example.org"}, headers=key(p))
            assert r.status_code == (429 if name == "Eve" else 200)
        assert c.get("/api/people/me/settings", headers=key(p)).json()["email"] is None
        wait_for(lambda: len(inbox.mails) == 6)
        assert len(inbox.mails) == 6


def test_your_turn_mail_goes_once_per_turn_to_the_players_own_address_only(db_url, smtp):
    inbox, port = smtp
    with mail_app(db_url, port) as c:
        a, b = person(c, "Anna"), person(c, "Bob")
        confirm(c, a, "anna@example.org", inbox, 1)
        # Bob asks for turn e-mails but never confirms his address: he gets none
        c.patch("/api/people/me/settings", json={"email": "bob@example.org", "email_turns": True}, headers=key(b))
        inbox.wait(2)
        g = create(c, a, players=3, bots={"2": "random"}, seed=41)
        gid, tokens = g["id"], {0: g["seats"][0]["token"], 1: g["seats"][1]["token"]}
        r = c.post(f"/api/games/{gid}/claim", json={"token": tokens[1]}, headers=key(b))
        assert r.status_code == 200
        tokens[1] = r.json()["token"]           # Bob's fresh token (issue 22)
        for _ in range(300):
            spec = state(c, gid)
            seat = spec["observation"]["acting_player"]
            if seat == 2:
                wait_for(lambda: state(c, gid)["seq"] != spec["seq"])
                continue
            if seat == 0:
                settle(c)          # Anna is away until her e-mail has gone
            act(c, gid, tokens[seat], salt=4)
            if spec["observation"]["round"] >= 4:
                break
        settle(c)
        turn_mails = inbox.mails[2:]
        sent = [n for n in notices(c) if n[3] == "sent"]
        assert len(sent) >= 3 and all(n[:2] == (gid, 0) for n in sent)
        assert len({n[2] for n in sent}) == len(sent)                 # one per turn
        assert len(turn_mails) == len(sent)
        assert all(n[3] == "sent" for n in notices(c))                # Anna never acted before her e-mail
        for sender, rcpt, mail in turn_mails:
            assert rcpt == ["anna@example.org"] and mail["To"] == "anna@example.org"
            assert sender == "vale@vale.example"
            assert mail["Subject"] == "Your turn in Mystic Vale (with Bob and a bot (random))"
            text = mail.as_string()
            assert re.search(r"https://vale\.example/games/(\S+)", body(mail)).group(1) == gid
            for secret in (a["key"], b["key"], tokens[0], tokens[1], "#"):
                assert secret not in text


def test_a_turn_taken_before_the_delay_sends_nothing(sqlite_url, smtp):
    inbox, port = smtp
    with mail_app(sqlite_url, port, delay=3600) as c:
        a = person(c, "Anna")
        confirm(c, a, "anna@example.org", inbox, 1)
        g = create(c, a, bots={"1": "random"}, seed=42)
        gid, token = g["id"], g["seats"][0]["token"]
        social = c.app.state.social

        def anna_to_act_after_the_bot():
            for _ in range(200):
                spec = state(c, gid)
                if spec["observation"]["acting_player"] == 0:
                    if spec["seq"] > 0 and social.wait_idle(PATIENCE) and notices(c) and notices(c)[-1][3] == "pending":
                        return spec
                    act(c, gid, token)
                else:
                    wait_for(lambda: state(c, gid)["seq"] != spec["seq"])
            raise AssertionError("Anna's turn never came")

        def make_due():
            with engine(c).begin() as conn:
                conn.execute(sa.text("UPDATE turn_notices SET due_at = 0 WHERE state = 'pending'"))
            social.mailer._wake.set()
            wait_for(lambda: notices(c)[-1][3] not in ("pending", "sending"))

        anna_to_act_after_the_bot()
        act(c, gid, token)                        # Anna is at the table: she acts before the e-mail is due
        make_due()
        assert notices(c)[-1][3] == "skipped" and len(inbox.mails) == 1
        while state(c, gid)["observation"]["acting_player"] == 0:
            act(c, gid, token)
        anna_to_act_after_the_bot()               # this time she is away
        make_due()
        assert notices(c)[-1][3] == "sent" and len(inbox.mails) == 2
        assert inbox.mails[1][1] == ["anna@example.org"]


def test_a_german_speakers_mail_comes_in_german(sqlite_url, smtp):
    # The language the person chose (the browser keeps it on the server, issue 15 item 7) is the
    # language of their e-mails: server/mail/de.toml.
    inbox, port = smtp
    with mail_app(sqlite_url, port) as c:
        a = person(c, "Greta")
        assert c.patch("/api/people/me/settings", json={"language": "de"}, headers=key(a)).status_code == 200
        confirm(c, a, "greta@example.org", inbox, 1)
        assert inbox.mails[0][2]["Subject"] == "Bestätige deine E-Mail-Adresse für Mystic Vale"
        assert body(inbox.mails[0][2]).splitlines()[0] == "Hallo," and "Greta" not in body(inbox.mails[0][2])
        g = create(c, a, bots={"1": "random"}, seed=42)
        gid, token = g["id"], g["seats"][0]["token"]
        sent = lambda: any(n[3] == "sent" for n in notices(c))     # noqa: E731
        for _ in range(300):                      # Greta plays; the bot hands her the turn back
            spec = state(c, gid)
            if spec["observation"]["acting_player"] != 0:
                wait_for(lambda: state(c, gid)["seq"] != spec["seq"])
                continue
            settle(c)                             # she is away until any e-mail due has gone
            if sent():
                break
            act(c, gid, token)
        assert sent()
        _, rcpt, mail = inbox.wait(2)
        assert rcpt == ["greta@example.org"]
        assert mail["Subject"] == "Du bist am Zug in Mystic Vale (mit einem Bot (random))"
        assert "Hallo Greta" in body(mail) and "Runde" in body(mail)


class BlackHole:
    """A TCP server that accepts connections and never says a word, until released."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.release = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.release.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)

    def close(self) -> None:
        self.release.set()
        for conn in self.accepted:
            conn.close()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)   # wakes the accepting thread, so the port is free again
        except OSError:
            pass
        self.sock.close()


def test_a_dead_smtp_server_delays_no_move(sqlite_url):
    hole = BlackHole()
    try:
        with mail_app(sqlite_url, hole.port, timeout=120) as c:
            a = person(c, "Anna")
            people = c.app.state.social.people
            people.save_settings(a["id"], email="anna@example.org", email_turns=True)
            assert people.confirm_email(people.new_confirmation(a["id"], "anna@example.org"))
            g = create(c, a, bots={"1": "random"}, seed=43)
            gid, token = g["id"], g["seats"][0]["token"]
            moves = 0
            while not hole.accepted or moves < 40:       # the mailer hangs on its first turn e-mail meanwhile
                spec = state(c, gid)
                if spec["observation"]["acting_player"] == 0:
                    act(c, gid, token)
                    moves += 1
                else:
                    wait_for(lambda: state(c, gid)["seq"] != spec["seq"])
                assert moves < 400
            # every move was answered while the SMTP server had not said a word
            assert hole.accepted and not hole.release.is_set()
            [hanging] = [n for n in notices(c) if n[3] == "sending"]
            hole.close()                                # the SMTP exchange fails now: tried again later
            wait_for(lambda: [n[3] for n in notices(c) if n[:3] == hanging[:3]] == ["pending"]
                     and attempts(c, hanging) == 1)
    finally:
        hole.close()


def _self_signed(tmp_path):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    k = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(k.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(k, hashes.SHA256()))
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()))
    return cert_file, key_file


def test_smtps_with_a_login_from_the_url(tmp_path, monkeypatch, sqlite_url):
    cert_file, key_file = _self_signed(tmp_path)
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert_file, key_file)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert_file))      # the mailer trusts the test's certificate
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login.decode(), auth_data.password.decode()))
        return AuthResult(success=auth_data.password == b"p@ss:w/rd")

    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port, ssl_context=server_tls,
                            authenticator=authenticator, auth_require_tls=False)   # (aiosmtpd does not count
    # TLS from the first byte as TLS for AUTH; the connection is encrypted all the same)
    controller.start()
    try:
        server = parse_smtp_url(f"smtps://vale%20user:p%40ss%3Aw%2Frd@127.0.0.1:{port}")
        assert server == SmtpServer(True, "127.0.0.1", port, "vale user", "p@ss:w/rd")
        with mail_app(sqlite_url, port, tls=True, user=server.username, password=server.password) as c:
            a = person(c, "Anna")
            c.patch("/api/people/me/settings", json={"email": "anna@example.org"}, headers=key(a))
            _, rcpt, mail = inbox.wait(1)
        assert rcpt == ["anna@example.org"] and logins == [("vale user", "p@ss:w/rd")]
    finally:
        controller.stop()


@pytest.mark.parametrize("url, words", [
    ("http://host", "smtp://"), ("smtp://", "no host"), ("smtp://host:99999", "port"), ("smtp://host/x", "nothing after"),
])
def test_bad_smtp_urls_are_refused(url, words):
    with pytest.raises(ValueError) as err:
        parse_smtp_url(url)
    assert words in str(err.value)
    assert parse_smtp_url("smtp://mail.example") == SmtpServer(False, "mail.example", 25)
    assert "secret" not in repr(parse_smtp_url("smtp://u:secret@h:587"))
    assert parse_smtp_url("smtp://u:secret@h:587").describe() == "smtp://u@h:587"


def test_serve_wants_a_public_url_with_smtp():
    from typer.testing import CliRunner

    from mysticvale.cli.main import app

    r = CliRunner().invoke(app, ["serve", "--smtp", "smtp://127.0.0.1:2525"])
    assert r.exit_code == 2 and "--public-url" in r.output
    r = CliRunner().invoke(app, ["serve", "--smtp", "ftp://x", "--public-url", "https://vale.example/"])
    assert r.exit_code == 2 and "smtp://" in r.output


# -- issue 22: careful e-mail ----------------------------------------------------------------------
@pytest.mark.parametrize("address, words", [
    ("anna@ex\u0430mple.org", "mixes scripts"),              # a Cyrillic a in a Latin domain
    ("\u0430nna@example.org", "before the @-sign"),           # a non-ASCII local part
    ("x@\u0440\u0430\u0443\u0440\u0430\u0456.com", "looks like the Latin"),   # Cyrillic "paypal"-alike
    ("anna@example.org\u202e", "valid e-mail"),
])
def test_look_alike_and_odd_addresses_are_refused(client, address, words):
    a = person(client, "Anna")
    before = client.get("/api/people/me/settings", headers=key(a)).json()
    r = client.patch("/api/people/me/settings", json={"email": address}, headers=key(a))
    assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert client.get("/api/people/me/settings", headers=key(a)).json() == before


def test_an_international_domain_is_kept_in_its_ascii_form(client):
    a = person(client, "Anna")
    r = client.patch("/api/people/me/settings", json={"email": "anna@b\u00fccher.de"}, headers=key(a))
    assert r.status_code == 200 and r.json()["email"] == "anna@xn--bcher-kva.de"


def _down_port() -> int:
    return free_port()              # nothing listens there: the SMTP server is down


def test_a_confirmation_the_smtp_server_did_not_take_is_retried_and_never_shown_as_sent(sqlite_url):
    port = _down_port()
    with mail_app(sqlite_url, port) as c:
        mailer = c.app.state.social.mailer
        mailer.backoff = (3600.0,) * 4       # the retry waits until the test makes it due
        a = person(c, "Anna")
        r = c.patch("/api/people/me/settings", json={"email": "anna@example.org"}, headers=key(a))
        assert r.status_code == 200, r.text
        assert r.json()["confirmation_sent"] is False and r.json()["confirmation"] == "retrying"
        assert c.get("/api/people/me/settings", headers=key(a)).json()["confirmation"] == "retrying"
        # the SMTP server is back: the retry goes out
        inbox = Inbox()
        controller = Controller(inbox, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            mailer.retry_now()
            _, rcpt, mail = inbox.wait(1)
            assert rcpt == ["anna@example.org"] and "confirm-email#code=" in body(mail)
            wait_for(lambda: c.get("/api/people/me/settings", headers=key(a)).json()["confirmation"] == "sent")
        finally:
            controller.stop()


def test_a_confirmation_is_given_up_after_its_attempts_and_says_so(sqlite_url):
    with mail_app(sqlite_url, _down_port()) as c:
        c.app.state.social.mailer.backoff = ()      # one attempt only
        a = person(c, "Anna")
        r = c.patch("/api/people/me/settings", json={"email": "anna@example.org"}, headers=key(a))
        assert r.json()["confirmation_sent"] is False and r.json()["confirmation"] == "failed"


def test_a_due_turn_notice_that_fails_is_retried_while_it_is_still_their_turn(sqlite_url):
    port = _down_port()
    with mail_app(sqlite_url, port) as c:
        mailer = c.app.state.social.mailer
        mailer.backoff = (3600.0,) * 4
        a, gid, token = anna_wants_turn_mails(c)
        failed_once = lambda: any(n[0] == gid and attempts(c, n) == 1 and n[3] == "pending"  # noqa: E731
                                  for n in notices(c))
        # Anna plays until the bot hands her a turn and its mail fails
        play_until_noted(c, gid, token, lambda: any(n[0] == gid for n in notices(c)))
        wait_for(failed_once)                 # the first attempt failed: pending again, not "failed"
        inbox = Inbox()
        controller = Controller(inbox, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            mailer.retry_now()
            _, rcpt, mail = inbox.wait(1)
            assert rcpt == ["anna@example.org"] and mail["Subject"].startswith("Your turn")
            wait_for(lambda: [n[3] for n in notices(c) if n[0] == gid] == ["sent"])
        finally:
            controller.stop()


def test_confirmations_are_bounded_per_client_address_and_per_recipient_a_day(sqlite_url, smtp):
    from mysticvale.server import people as people_module
    from mysticvale.server.people_api import CONFIRMATIONS_PER_ADDRESS

    inbox, port = smtp
    with mail_app(sqlite_url, port) as c:
        app = c.app
        # one client address makes people and asks for confirmations to distinct addresses
        for i in range(CONFIRMATIONS_PER_ADDRESS + 1):
            p = person(c, f"Sender {chr(65 + i)}")
            r = c.patch("/api/people/me/settings", json={"email": f"x{i}@example.org"}, headers=key(p))
            if i < CONFIRMATIONS_PER_ADDRESS:
                assert r.status_code == 200, r.text
            else:
                assert r.status_code == 429 and "from this address" in r.json()["detail"]
                assert c.get("/api/people/me/settings", headers=key(p)).json()["email"] is None
        wait_for(lambda: len(inbox.mails) == CONFIRMATIONS_PER_ADDRESS)
        # one recipient, from many addresses and people: at most so many a day
        clock = [app.state.social.people.clock()]
        app.state.social.people.clock = lambda: clock[0]
        for i in range(people_module.CONFIRMATIONS_PER_DAY + 1):
            other = TestClient(app, client=(f"192.0.2.{i + 1}", 5000))
            p = person(other, f"Victim friend {chr(65 + i)}")
            clock[0] += 3600 if i % 3 == 2 else 60      # never three an hour, as the hourly bound wants
            r = other.patch("/api/people/me/settings", json={"email": "victim@example.org"}, headers=key(p))
            if i < people_module.CONFIRMATIONS_PER_DAY:
                assert r.status_code == 200, r.text
            else:
                assert r.status_code == 429 and "a day" in r.json()["detail"], r.text


def test_turn_mails_to_one_address_are_bounded_per_hour(sqlite_url, smtp):
    import time

    from mysticvale.server import notify

    inbox, port = smtp
    with mail_app(sqlite_url, port) as c:
        a, gid, token = anna_wants_turn_mails(c)
        # the address has had its most turn e-mails this hour (earlier turns of this game)
        with engine(c).begin() as conn:
            for i in range(notify.TURN_MAILS_PER_HOUR):
                conn.execute(sa.text("INSERT INTO turn_notices (game_id, seat, turn, person_id, seq, due_at, state, "
                                     "done_at) VALUES (:g, 0, :t, :p, 0, :now, 'sent', :now)"),
                             {"g": gid, "t": 10_000 + i, "p": a["id"], "now": time.time()})
        real = lambda: [n for n in notices(c) if n[2] < 10_000]      # noqa: E731
        play_until_noted(c, gid, token, real)
        wait_for(lambda: real() and real()[0][3] == "limited")
        assert inbox.mails == []


def test_turn_mails_one_client_address_causes_are_bounded_per_hour(sqlite_url, smtp):
    """Issue 22: e-mail limits per client address too.  Bob's moves, from one address, hand Anna the
    turn in one game after another: past the bound per client address (here 1 an hour, through the
    setting) his moves cause no more e-mail, while a move of Cleo's, from another address, still does."""
    from mysticvale.server import notify

    inbox, port = smtp
    with mail_app(sqlite_url, port, turn_mails_per_address=1) as c:
        assert notify.TURN_MAILS_PER_ADDRESS > 1        # (the default bound is not this test's)
        app = c.app
        a = person(c, "Anna")
        people = app.state.social.people
        people.save_settings(a["id"], email="anna@example.org", email_turns=True)
        assert people.confirm_email(people.new_confirmation(a["id"], "anna@example.org"))
        mover = {"Bob": TestClient(app, client=("192.0.2.7", 5000)), "Cleo": TestClient(app, client=("198.51.100.9", 5000))}
        movers = {name: person(client, name) for name, client in mover.items()}

        def handover(name: str, seed: int) -> tuple:
            """A game of Anna and ``name``, played until ``name``'s move hands Anna the turn; its notice."""
            g = create(c, a, seed=seed)
            gid, anna = g["id"], g["seats"][0]["token"]
            r = mover[name].post(f"/api/games/{gid}/claim", json={"token": g["seats"][1]["token"]},
                                 headers=key(movers[name]))
            assert r.status_code == 200, r.text
            theirs = r.json()["token"]
            for _ in range(300):
                spec = state(c, gid)
                assert app.state.social.wait_idle(PATIENCE)
                mine = [n for n in notices(c) if n[0] == gid]
                if mine:
                    settle(c)
                    return [n for n in notices(c) if n[0] == gid][0]
                if spec["observation"]["acting_player"] == 0:
                    act(c, gid, anna)
                else:
                    act(mover[name], gid, theirs)
            raise AssertionError("the turn never came")

        first = handover("Bob", 61)
        assert first[3] == "sent" and len(inbox.mails) == 1
        second = handover("Bob", 62)                 # the same address again, within the hour
        assert second[3] == "limited" and len(inbox.mails) == 1
        third = handover("Cleo", 63)                 # another address: its move's notice goes out
        assert third[3] == "sent" and len(inbox.mails) == 2
        assert [rcpt for _, rcpt, _ in inbox.mails] == [["anna@example.org"]] * 2
        with engine(c).connect() as conn:           # the address is kept only as a digest
            stored = conn.execute(sa.text("SELECT cause FROM turn_notices")).scalars().all()
        assert "192.0.2.7" not in "".join(stored) and len(set(stored)) == 2


def test_how_long_the_answer_waits_for_the_first_attempt_is_set_by_the_environment():
    # (the tests' servers wait as long as the tests do: tests/conftest.py, docs/testing.md)
    import os
    import subprocess
    import sys

    def wait_with(value: str | None) -> subprocess.CompletedProcess:
        env = {k: v for k, v in os.environ.items() if k != "MYSTICVALE_FIRST_ATTEMPT_WAIT"}
        if value is not None:
            env["MYSTICVALE_FIRST_ATTEMPT_WAIT"] = value
        return subprocess.run([sys.executable, "-c", "from mysticvale.server import people_api as p; "
                               "print(p.FIRST_ATTEMPT_WAIT)"], env=env, capture_output=True, text=True,
                              timeout=2 * PATIENCE)

    assert wait_with(None).stdout.strip() == "10.0"
    assert wait_with("2.5").stdout.strip() == "2.5"
    bad = wait_with("soon")
    assert bad.returncode != 0 and "MYSTICVALE_FIRST_ATTEMPT_WAIT must be a number of seconds, not 'soon'" in bad.stderr
    assert people_api.FIRST_ATTEMPT_WAIT == PATIENCE        # this process: set by tests/conftest.py
