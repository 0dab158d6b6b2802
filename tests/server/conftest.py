"""Server test set-up: the app over SQLite or a throwaway PostgreSQL cluster, and a server subprocess.

PostgreSQL: a session fixture runs ``initdb`` and ``pg_ctl`` (Debian's ``postgresql`` package,
/usr/lib/postgresql/*/bin) in a temporary folder on a free 127.0.0.1 port, as the user ``nobody``
when the tests run as root (PostgreSQL refuses to run as root).  Without the binaries the
PostgreSQL tests are skipped with the reason, except in CI (``CI=true``), where that is a failure.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

import mysticvale as mv
from mysticvale.engine.rng import Rng
from mysticvale.server import create_app
from ports import free_port
from waiting import PATIENCE, wait_for  # noqa: F401  (wait_for: for the tests)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


# -- PostgreSQL ------------------------------------------------------------------------
def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
    env = os.environ.get("MYSTICVALE_PG_BIN")
    if env:
        return Path(env)
    return Path(found[-1]).parent if found else None


def _as_pg_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    if shutil.which("runuser"):
        return ["runuser", "-u", "nobody", "--", *cmd]
    return ["su", "nobody", "-s", "/bin/sh", "-c", " ".join(cmd)]


#: The session's PostgreSQL cluster, for tests that stop and start it (:class:`PgCluster`).
_PG: dict[str, object] = {}


class PgCluster:
    """Stop and start the session's PostgreSQL cluster (issue 22: the database down is 503).

    A test that stops it starts it again before it ends (``with cluster.stopped(): ...``), so the
    tests after it in the same worker find it running."""

    def __init__(self, bindir: Path, data: Path, logfile: Path, options: str) -> None:
        self.bindir, self.data, self.logfile, self.options = bindir, data, logfile, options

    def _ctl(self, *args: str) -> None:
        subprocess.run(_as_pg_user([str(self.bindir / "pg_ctl"), "-D", str(self.data), *args]), check=True,
                       capture_output=True, text=True, timeout=2 * PATIENCE)

    def stop(self) -> None:
        self._ctl("-m", "immediate", "-w", "-t", str(int(PATIENCE)), "stop")

    def start(self) -> None:
        self._ctl("-l", str(self.logfile), "-w", "-t", str(int(PATIENCE)), "-o", self.options, "start")

    @contextlib.contextmanager
    def stopped(self):
        self.stop()
        try:
            yield self
        finally:
            self.start()


@pytest.fixture
def pg_cluster(pg_url) -> PgCluster:
    """The session's PostgreSQL cluster, to stop and start (see :class:`PgCluster`)."""
    return _PG["cluster"]


@pytest.fixture(scope="session")
def pg_url():
    """URL of a fresh PostgreSQL server for this test session (stopped and deleted afterwards)."""
    bindir = _pg_bin()
    if bindir is None or not (bindir / "pg_ctl").exists():
        msg = ("PostgreSQL binaries not found (/usr/lib/postgresql/*/bin/initdb, pg_ctl): install Debian's "
               "postgresql package to run the PostgreSQL tests")
        if in_ci():
            pytest.fail(msg + " (CI=true: these tests must run in CI)", pytrace=False)
        pytest.skip(msg)
    root = Path(tempfile.mkdtemp(prefix="mv-pg-"))
    data, sock, logfile = root / "data", root / "sock", root / "pg.log"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "nobody")
        shutil.chown(sock, "nobody")
    os.chmod(root, 0o755)
    port = free_port()
    options = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    run = lambda cmd: subprocess.run(_as_pg_user(cmd), check=True, capture_output=True, text=True,
                                     timeout=2 * PATIENCE)
    try:
        run([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
             "--no-sync"])
        run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(logfile), "-w", "-t", str(int(PATIENCE)), "-o",
             options, "start"])
    except subprocess.CalledProcessError as exc:
        log = logfile.read_text() if logfile.exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(f"could not start PostgreSQL: {exc.stderr or exc.stdout}\n{log}", pytrace=False)
    _PG["cluster"] = PgCluster(bindir, data, logfile, options)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_pg_user([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A database URL: an SQLite file, or a fresh database on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    base = request.getfixturevalue("pg_url")
    return _fresh_pg_database(base)


def _fresh_pg_database(base: str) -> str:
    import sqlalchemy as sa

    name = "t" + os.urandom(6).hex()
    eng = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with eng.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    eng.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def built():
    """The native core is built (under CI or with cargo here it must be: a stale build fails)."""
    from mysticvale.engine import native

    if not native.available():
        if in_ci() or shutil.which("cargo"):
            pytest.fail(f"the native core must be built here: {native.unavailable_reason()}")
        pytest.skip(native.unavailable_reason() or "no native core")


@pytest.fixture
def native_bots_made(built, monkeypatch) -> list:
    """Every native bot made while the test runs, in order (its ``_core.last()`` says how it searched)."""
    from mysticvale.bots import native_bot

    made: list = []

    class Spy(native_bot.NativeBot):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(native_bot, "NativeBot", Spy)
    return made


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db_url):
    """A TestClient on a fresh app (seeds allowed), over SQLite and over PostgreSQL."""
    with TestClient(create_app(db_url, allow_seed=True)) as c:
        yield c


@pytest.fixture
def sqlite_client(sqlite_url):
    with TestClient(create_app(sqlite_url, allow_seed=True)) as c:
        yield c


# -- playing helpers -------------------------------------------------------------------
def server_game(*, humans: bool = True, **options) -> mv.Game:
    """The engine game the server makes with these options: a table with people ends each turn
    with Finish Turn (server/sessions.py)."""
    if humans:
        options["finish_turn"] = True
    return mv.new_game(**options)


def choose(seq: int, legal: list[str], salt: int = 0) -> str:
    """A deterministic pick from the legal actions, a function of the state's seq only.

    The same in an interrupted and an uninterrupted game, so their games can be compared.
    """
    return legal[Rng(1000 * salt + seq).below("pick", len(legal))]


class ServerProcess:
    """``mysticvale serve`` as a subprocess on a free port (for restart tests)."""

    def __init__(self, data_dir: Path, database: str | None = None, args: tuple[str, ...] = ()) -> None:
        self.data_dir = Path(data_dir)
        self.database = database
        self.args = list(args)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.base = f"http://127.0.0.1:{self.port}"
        self.output = self.data_dir / "server.out"

    def start(self, timeout: float = PATIENCE) -> None:
        cmd = [sys.executable, "-c", "from mysticvale.cli.main import app; app()", "serve",
               "--port", str(self.port), "--data-dir", str(self.data_dir), "--allow-seed"]
        if self.database:
            cmd += ["--database", self.database]
        cmd += self.args
        with open(self.output, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=self.data_dir)
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.output.read_text()}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > end:
                self.kill()
                raise RuntimeError(f"server did not start within {timeout} s:\n{self.output.read_text()}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, like a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None


def server_on_backend(tmp_path: Path, request, backend: str) -> ServerProcess:
    """A started ``mysticvale serve`` on ``backend`` ("sqlite": its own file in ``tmp_path``;
    "postgresql": a fresh database of the throwaway cluster), for the kill -9 restart tests."""
    database = None
    if backend == "postgresql":
        database = _fresh_pg_database(request.getfixturevalue("pg_url"))
    srv = ServerProcess(tmp_path, database)
    srv.start()
    return srv
