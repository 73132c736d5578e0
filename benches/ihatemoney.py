#!/usr/bin/env python3
"""Scorekeeper side by side with IHateMoney 7.2.1, interleaved in one run.

IHateMoney is the Flask + SQLite peer a club would install instead of Scorekeeper to keep
who owes whom. This script puts both on this machine's disk, each with a long history, and
measures what a phone at the table does after every hand:

  (a) record alone: Scorekeeper `POST /api/v1/sessions/{id}/events` (one Auction Pitch hand
      into a club session, with the club's bearer token); IHateMoney
      `POST /api/projects/{id}/bills` (one bill split between the 4 members, with the
      project's bearer token);
  (b) record, then read where everyone stands: the same, then Scorekeeper
      `GET /api/v1/sessions/{id}/standing`, IHateMoney `GET /api/projects/{id}` (the
      project with every member's balance).

At 100, 1,000 and 10,000 hands (bills) of history. Every server runs at once, each on its
own database in `target/tmp/`; the repetitions go round every server in turn, so whatever
else the machine does slows every side and length alike. One kept-alive connection per
server (http.client). Medians over `--reps` repetitions. It also measures the raw SQLite
single-row commit rate in the same folder (WAL, synchronous=FULL), the floor under any
durable record.

Usage: python3 benches/ihatemoney.py [--reps 30] [--hands 100,1000,10000]

It needs the release binary `target/release/scorekeeper` (`cargo build --release`, or
`--binary PATH`) and makes its own virtualenv with the pinned IHateMoney under
`target/tmp/ihm-venv` (pip, from PyPI; `--keep-venv` keeps it for the next run).
The script is also its own IHateMoney helper: run with the venv's Python and `--ihm-fill`
or `--ihm-serve`, it imports IHateMoney (those modes are internal).
"""

import argparse
import base64
import http.client
import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TMP = os.path.join(ROOT, "target", "tmp")
VENV = os.path.join(TMP, "ihm-venv")
# IHateMoney and every package it pulls in, pinned as installed on 2026-11-25, so that a
# later run measures the same peer.
PINS = """ihatemoney==7.2.1
alembic==1.20.1
aniso8601==10.0.1
babel==2.18.0
blinker==1.9.0
cachetools==6.2.6
click==8.5.1
debts==0.5
Deprecated==1.3.1
email-validator==2.3.0
Flask==3.1.3
flask-babel==4.0.0
flask-cors==6.0.5
Flask-Limiter==4.1.1
Flask-Mail==0.10.0
Flask-Migrate==4.1.0
Flask-RESTful==0.3.10
Flask-SQLAlchemy==3.1.1
flask-talisman==1.1.0
Flask-WTF==1.2.2
Jinja2==3.1.6
limits==5.8.0
Mako==1.4.3
MarkupSafe==3.0.4
python-dateutil==4.0.0
pytz==2026.6
qrcode==8.2
requests==2.32.5
SQLAlchemy==2.0.58
SQLAlchemy-Continuum==1.5.2
Werkzeug==3.1.9
WTForms==3.2.2
certifi==2026.10.19.post1
charset-normalizer==3.5.2
dnspython==2.9.2
greenlet==3.5.6
idna==3.20
itsdangerous==2.2.0
ordered-set==4.1.0
packaging==26.3
six==1.17.0
typing_extensions==4.16.0
tzdata==2026.6
urllib3==2.8.0
wrapt==2.5.2
"""
PLAYERS = ["Margaret", "Salvatore", "Vincenzo", "Rosemary"]
PROJECT, CODE = "club", "seven of clubs"

# ---------------------------------------------------------------- IHateMoney side (venv)


def ihm_app(folder):
    """IHateMoney's own Flask app on `folder/ihm.db`, configured by a settings file as its
    docs say (IHATEMONEY_SETTINGS_FILE_PATH); no demo project, no captcha, no mail."""
    cfg = os.path.join(folder, "ihm.cfg")
    with open(cfg, "w") as f:
        f.write(
            f"SQLALCHEMY_DATABASE_URI = 'sqlite:///{folder}/ihm.db'\n"
            "SECRET_KEY = 'bench-secret-not-default'\n"
            "ACTIVATE_DEMO_PROJECT = False\nENABLE_CAPTCHA = False\n"
            "MAIL_SUPPRESS_SEND = True\nRATELIMIT_ENABLED = False\n"
        )
    os.environ["IHATEMONEY_SETTINGS_FILE_PATH"] = cfg
    # This file is named ihatemoney.py too: take its folder off the path so that the
    # import finds the installed package.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    from ihatemoney.run import create_app

    return create_app(instance_path=folder)


def ihm_fill(folder, n):
    """Creates the project, its 4 members and its first bill through IHateMoney's API, then
    copies that bill `n - 1` times (each paid by the next member for all 4) straight into
    its tables in one transaction, and prints the project's bearer token. The copies skip
    SQLAlchemy-Continuum's history tables, which only the history page reads; the bills
    recorded while measuring write theirs as usual."""
    app = ihm_app(folder)
    from ihatemoney.models import Project, db
    from werkzeug.datastructures import MultiDict

    basic = {"Authorization": "Basic " + base64.b64encode(f"{PROJECT}:{CODE}".encode())
             .decode()}
    with app.app_context():
        client = app.test_client()
        r = client.post("/api/projects", data={"name": "Thursday club", "id": PROJECT,
                        "password": CODE, "contact_email": "club@example.com",
                        "default_currency": "XXX"})
        assert r.status_code == 201, r.get_data(as_text=True)
        for name in PLAYERS:
            r = client.post(f"/api/projects/{PROJECT}/members", data={"name": name},
                            headers=basic)
            assert r.status_code == 201, r.get_data(as_text=True)
        project = db.session.get(Project, PROJECT)
        members = [m.id for m in project.members]
        r = client.post(f"/api/projects/{PROJECT}/bills", headers=basic,
                        data=MultiDict(bill_form(0, members)))
        assert r.status_code == 201, r.get_data(as_text=True)
        token = project.generate_token()
        db.session.remove()
    con = sqlite3.connect(os.path.join(folder, "ihm.db"))
    cols = [c[1] for c in con.execute("PRAGMA table_info(bill)") if c[1] != "id"]
    first = dict(zip(cols, con.execute(f"SELECT {','.join(cols)} FROM bill").fetchone()))
    rows = []
    for i in range(1, n):
        first.update(payer_id=members[i % 4], amount=float(1 + i % 7),
                     converted_amount=float(1 + i % 7), what=f"hand {i + 1}")
        rows.append([i + 1] + [first[c] for c in cols])
    con.executemany(f"INSERT INTO bill (id,{','.join(cols)}) VALUES "
                    f"({','.join('?' * (len(cols) + 1))})", rows)
    con.executemany("INSERT INTO billowers (bill_id, person_id) VALUES (?, ?)",
                    [(i + 1, m) for i in range(1, n) for m in members])
    con.commit()
    con.close()
    print(json.dumps({"token": token, "members": members}))


def bill_form(i, members):
    """The API's form for bill `i` (from 0): the next member pays 1 to 7 for all 4."""
    form = [("date", time.strftime("%Y-%m-%d")), ("what", f"hand {i + 1}"),
            ("payer", str(members[i % 4])), ("amount", str(1 + i % 7)),
            ("original_currency", "XXX")]
    return form + [("payed_for", str(m)) for m in members]

def ihm_serve(folder, port):
    """IHateMoney's app under Werkzeug's threaded server (what `flask run` / `ihatemoney
    run` start; HTTP/1.1 with keep-alive), request logs silenced."""
    import logging

    from werkzeug.serving import run_simple

    app = ihm_app(folder)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    run_simple("127.0.0.1", port, app, threaded=True)


# ---------------------------------------------------------------- the driver (any python3)


def serve_fresh(binary, prefix):
    """`binary serve` on a fresh SQLite database in a new folder of `TMP` named `prefix…`,
    its log there: (the process, its port, the folder), once `/healthz` answers."""
    os.makedirs(TMP, exist_ok=True)
    folder = tempfile.mkdtemp(prefix=prefix, dir=TMP)
    port = free_port()
    server = subprocess.Popen(
        [binary, "serve", "--bind", f"127.0.0.1:{port}",
         "--database-url", f"sqlite://{folder}/x.db"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "log"), "w"))
    try:
        wait_up(port, "/healthz", server, "scorekeeper")
    except BaseException:
        server.terminate()
        raise
    return server, port, folder


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(port, path, proc, what, limit=120):
    """Waits until `path` answers on `port`, failing if the server died."""
    deadline = time.time() + limit
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"{what} exited with {proc.returncode} before answering")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", path)
            c.getresponse().read()
            c.close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"{what} did not answer {path} within {limit} s")


class Client:
    """One kept-alive HTTP connection; `call` returns (status, body bytes)."""

    def __init__(self, port, auth):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.auth = auth

    def reopen(self):
        """A fresh connection (a server closes one left idle while others load)."""
        self.conn.close()
        self.conn = http.client.HTTPConnection("127.0.0.1", self.conn.port, timeout=120)

    def call(self, method, path, body=None, ctype="application/json"):
        headers = {"Authorization": self.auth} if self.auth else {}
        if body is not None:
            headers["Content-Type"] = ctype
        self.conn.request(method, path, body=body, headers=headers)
        r = self.conn.getresponse()
        return r.status, r.read()


def ensure_venv():
    """The pinned IHateMoney in target/tmp/ihm-venv; returns its python."""
    py = os.path.join(VENV, "bin", "python")
    if os.path.exists(py):
        probe = subprocess.run([py, "-c", "import importlib.metadata as m;"
                                "print(m.version('ihatemoney'))"], capture_output=True,
                               text=True)
        if probe.stdout.strip() == "7.2.1":
            return py
    print(f"installing ihatemoney==7.2.1 into {VENV} (pip, pinned) ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", VENV], check=True)
    pins = os.path.join(TMP, "ihm-pins.txt")
    with open(pins, "w") as f:
        f.write(PINS)
    subprocess.run([py, "-m", "pip", "install", "-q", "-r", pins], check=True)
    return py


def pitch_hand(i):
    """Hand `i` (from 0) of a long Auction Pitch session at the 4 players, as
    tests/common/hands.rs plays it: dealers in turn, the bid going round, every fourth
    contract set, a game ending every few hands (target 11)."""
    n = len(PLAYERS)
    dealer, left, other = PLAYERS[(i + n - 1) % n], PLAYERS[i % n], PLAYERS[(i + 1) % n]
    if i % 4 != 3:
        points = {"high": left, "low": left, "jack": left, "game": left}
    else:
        points = {"high": left, "low": other, "jack": None, "game": other}
    return {"type": "hand", "dealer": dealer, "pitcher": left, "bid": 2 + i % 3,
            "points": points}


def compact(value):
    return json.dumps(value, separators=(",", ":")).encode()


class Ours:
    """A `scorekeeper serve` on its own database with one club session of `n` hands."""

    def __init__(self, binary, n):
        self.n, self.label = n, "Scorekeeper"
        self.dir = tempfile.mkdtemp(prefix="ihm-ours-", dir=TMP)
        self.port = free_port()
        self.proc = subprocess.Popen(
            [binary, "serve", "--bind", f"127.0.0.1:{self.port}",
             "--database-url", f"sqlite://{self.dir}/x.db",
             # IHateMoney's slow reads at 10,000 bills leave this connection idle longer
             # than the default 10 s, after which the server would close it.
             "--header-timeout", "600"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "log"), "w"))
        try:
            self.setup(n)
        except BaseException:
            self.proc.terminate()
            raise

    def setup(self, n):
        """Makes the club, its token and its session of `n` hands over the JSON API."""
        wait_up(self.port, "/healthz", self.proc, "scorekeeper")
        c = Client(self.port, None)
        creds = compact({"name": "Thursday club", "passphrase": CODE})
        st, body = c.call("POST", "/api/v1/clubs", creds)
        assert st == 201, body
        st, body = c.call("POST", "/api/v1/tokens", creds)
        assert st == 201, body
        c.auth = "Bearer " + json.loads(body)["token"]
        doc = {"format": "scorekeeper/session@1", "game": "auction_pitch",
               "currency": "USD", "agreements": {"stake": "0.05", "target": 11},
               "players": PLAYERS, "events": [pitch_hand(i) for i in range(n)]}
        st, body = c.call("POST", "/api/v1/sessions/import", compact(doc))
        assert st == 201, (st, body[:300])
        self.sid = json.loads(body)["id"]
        # A club session: the club's own list shows it.
        st, body = c.call("GET", "/api/v1/sessions")
        assert st == 200 and self.sid in [s["id"] for s in json.loads(body)["sessions"]], body
        self.count = n
        self.client = c

    def record(self):
        st, body = self.client.call("POST", f"/api/v1/sessions/{self.sid}/events",
                                    compact(pitch_hand(self.count)))
        assert st == 201, (st, body[:300])
        self.count += 1

    def read(self):
        st, body = self.client.call("GET", f"/api/v1/sessions/{self.sid}/standing")
        assert st == 200 and json.loads(body)["event_count"] == self.count, body[:300]


class Theirs:
    """IHateMoney 7.2.1 on its own SQLite database with one project of `n` bills."""

    def __init__(self, py, n):
        self.n, self.label = n, "IHateMoney"
        self.dir = tempfile.mkdtemp(prefix="ihm-theirs-", dir=TMP)
        me = os.path.abspath(__file__)
        fill = subprocess.run([py, me, "--ihm-fill", self.dir, str(n)],
                              capture_output=True, text=True)
        if fill.returncode != 0:
            sys.exit(f"filling IHateMoney failed:\n{fill.stderr}")
        out = fill.stdout
        filled = json.loads(out.strip().splitlines()[-1])
        self.members = filled["members"]
        self.port = free_port()
        self.proc = subprocess.Popen([py, me, "--ihm-serve", self.dir, str(self.port)],
                                     stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(self.dir, "log"), "w"))
        try:
            wait_up(self.port, "/api/currencies", self.proc, "ihatemoney")
        except BaseException:
            self.proc.terminate()
            raise
        self.client = Client(self.port, "Bearer " + filled["token"])
        self.count = n

    def record(self):
        form = bill_form(self.count, self.members)
        st, body = self.client.call("POST", f"/api/projects/{PROJECT}/bills",
                                    urllib.parse.urlencode(form),
                                    "application/x-www-form-urlencoded")
        assert st == 201, (st, body[:300])
        self.count += 1

    def read(self):
        st, body = self.client.call("GET", f"/api/projects/{PROJECT}")
        assert st == 200 and len(json.loads(body)["members"]) == 4, body[:300]

    def basic_record_ms(self):
        """One bill with HTTP basic auth instead of the token: a password hash each time."""
        basic = "Basic " + base64.b64encode(f"{PROJECT}:{CODE}".encode()).decode()
        token, self.client.auth = self.client.auth, basic
        t = time.perf_counter()
        self.record()
        ms = (time.perf_counter() - t) * 1000
        self.client.auth = token
        return ms


def raw_commit_rate(seconds=2.0):
    """Single-row commits per second in target/tmp with Python's sqlite3, WAL and
    synchronous=FULL, one connection."""
    folder = tempfile.mkdtemp(prefix="ihm-raw-", dir=TMP)
    db = sqlite3.connect(os.path.join(folder, "raw.db"), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        db.execute("BEGIN")
        db.execute("INSERT INTO t (v) VALUES (?)", (f"row {n}",))
        db.execute("COMMIT")
        n += 1
    rate = n / (time.perf_counter() - start)
    db.close()
    shutil.rmtree(folder)
    return rate


def timed(fn):
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


def measure(servers, reps):
    """For each server, medians in ms of (a) record and (b) record + read, going round
    every server once per repetition."""
    for s in servers:  # warm up: caches, connections, the first query plans
        s.client.reopen()
        for _ in range(3):
            s.record()
            s.read()
    alone = {id(s): [] for s in servers}
    cycle = {id(s): [] for s in servers}
    # A new order every repetition (seeded, so runs compare): on a shared disk a commit
    # after a long pause waits for the writes of others (a raw commit after 5 s idle took
    # 8-185 ms here against 3-5 ms back to back), so no server may always follow the
    # slowest one.
    order, rng = list(servers), random.Random(21)
    for rep in range(reps):
        if rep % 10 == 0:
            print(f"  repetition {rep + 1} of {reps}", flush=True)
        rng.shuffle(order)
        for s in order:
            alone[id(s)].append(timed(s.record))
            cycle[id(s)].append(timed(lambda: (s.record(), s.read())))
    return ({k: statistics.median(v) for k, v in alone.items()},
            {k: statistics.median(v) for k, v in cycle.items()})


def verdict(ok):
    return "PASS" if ok else "FAIL"


def report(lengths, ours, theirs, alone, cycle, raw_rates, basic_ms):
    """Prints the table per length and the targets' lines."""
    print("\nmedian ms per operation (theirs / ours = how many times faster Scorekeeper is)")
    print(f"{'hands':>7} {'what':<22} {'IHateMoney':>11} {'Scorekeeper':>12} {'ratio':>9}")
    ratio_a, ratio_b = {}, {}
    for n in lengths:
        o, t = ours[n], theirs[n]
        ratio_a[n] = alone[id(t)] / alone[id(o)]
        ratio_b[n] = cycle[id(t)] / cycle[id(o)]
        print(f"{n:>7} {'(a) record alone':<22} {alone[id(t)]:>11.2f} {alone[id(o)]:>12.3f}"
              f" {ratio_a[n]:>8.1f}x")
        print(f"{n:>7} {'(b) record + balances':<22} {cycle[id(t)]:>11.2f} "
              f"{cycle[id(o)]:>12.3f} {ratio_b[n]:>8.1f}x")
    raw = min(raw_rates)
    print(f"\nraw SQLite single-row commits (WAL, synchronous=FULL, Python sqlite3, {TMP}): "
          + ", ".join(f"{r:.0f}/s" for r in raw_rates) + " (before, after the run)")
    if basic_ms is not None:
        print(f"IHateMoney with HTTP basic auth instead of its token, one bill at "
              f"{lengths[0]} bills: {basic_ms:.1f} ms (a password hash per request)")
    first = lengths[0]
    ceiling = alone[id(theirs[first])] / (1000 / raw)
    print(f"at {first} hands, IHateMoney's record / one raw commit ({1000 / raw:.2f} ms at "
          f"the slower rate): {ceiling:.0f}x, the most a durable record can be faster")
    print("\ntargets:")
    for n in lengths:
        print(f"  {verdict(ratio_a[n] >= 5)} record alone, club session, {n} hands: "
              f"{ratio_a[n]:.1f}x >= 5x")
    if 10000 in lengths:
        print(f"  {verdict(ratio_b[10000] >= 1000)} record + standing, 10000 hands: "
              f"{ratio_b[10000]:.1f}x >= 1000x")
    if 100 in lengths:
        print(f"  goal at 100 hands 50x: record alone {ratio_a[100]:.1f}x "
              f"({verdict(ratio_a[100] >= 50)}), record + standing {ratio_b[100]:.1f}x "
              f"({verdict(ratio_b[100] >= 50)}); Scorekeeper's record alone is "
              f"{alone[id(ours[100])] * raw / 1000:.1f} raw commits")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--hands", default="100,1000,10000")
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "scorekeeper"))
    ap.add_argument("--keep-venv", action="store_true")
    ap.add_argument("--ihm-fill", nargs=2, metavar=("DIR", "N"), help=argparse.SUPPRESS)
    ap.add_argument("--ihm-serve", nargs=2, metavar=("DIR", "PORT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.ihm_fill:
        return ihm_fill(args.ihm_fill[0], int(args.ihm_fill[1]))
    if args.ihm_serve:
        return ihm_serve(args.ihm_serve[0], int(args.ihm_serve[1]))
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no release binary at {args.binary}: cargo build --release first")
    lengths = [int(x) for x in args.hands.split(",")]
    os.makedirs(TMP, exist_ok=True)
    py = ensure_venv()
    raw_rates = [raw_commit_rate()]
    ours, theirs, servers = {}, {}, []
    try:
        for n in lengths:
            t = time.perf_counter()
            theirs[n] = Theirs(py, n)
            servers.append(theirs[n])
            ours[n] = Ours(args.binary, n)
            servers.append(ours[n])
            print(f"{n} bills / hands loaded into both in {time.perf_counter() - t:.1f} s",
                  flush=True)
        print(f"measuring: {args.reps} repetitions, every server once each, in a new order "
              "each time ...", flush=True)
        alone, cycle = measure(servers, args.reps)
        basic_ms = theirs[lengths[0]].basic_record_ms()
        raw_rates.append(raw_commit_rate())
        report(lengths, ours, theirs, alone, cycle, raw_rates, basic_ms)
    finally:
        for s in servers:
            s.proc.terminate()
            s.proc.wait()
            shutil.rmtree(s.dir, ignore_errors=True)
        if not args.keep_venv:
            shutil.rmtree(VENV, ignore_errors=True)
            if os.path.exists(os.path.join(TMP, "ihm-pins.txt")):
                os.remove(os.path.join(TMP, "ihm-pins.txt"))


if __name__ == "__main__":
    main()
