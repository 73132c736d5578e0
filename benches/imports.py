#!/usr/bin/env python3
"""Large club imports sent at once: the server's peak memory.

Anyone may send a club backup to `POST /api/v1/clubs/import`, up to 16 MiB. This script
starts the release server (`target/release/scorekeeper serve`, or `--binary PATH`) on a
fresh database in `target/tmp/` and sends `--at-once` (8) imports of about `--megabytes`
(16) MB at the same moment, in four rounds:

  (a) a real club's backup: Auction Pitch sessions of `--hands` (2,000) hands each, as
      `benches/ihatemoney.py` plays them (dealers in turn, every fourth contract set, games
      ending), every event with its record time;
  (b) a body of the same size whose bulk is one long string (the club's name): text an
      import holds as it reads it, which no club sends;
  (c) backups of sessions of `--long-hands` (11,000) hands, the longest a session may be
      in an import;
  (d) a backup of one session as long as the body (refused: a session is imported up to
      2 MiB).

Before them, (0): bodies of `--oversize` (60) MB, over the 16 MiB an import reads.

For each it prints the answers by status, the seconds until the last answer and the
server's peak memory (`VmHWM`, reset before each round), then a PASS/FAIL line against the
target: the peak under 128 MiB. Every import answered 201 is checked: its club holds every
session of the backup.

Usage: python3 benches/imports.py [--megabytes 16] [--at-once 8] [--hands 2000]
"""

import argparse
import collections
import http.client
import json
import os
import shutil
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ihatemoney import CODE, PLAYERS, ROOT, compact, pitch_hand, serve_fresh  # noqa: E402

TARGET_MIB = 128


def backup(megabytes, hands=None):
    """A club backup of about `megabytes` MB: sessions of `hands` Auction Pitch hands, or
    (`hands` None) one session of as many hands as fill it."""
    if hands is None:
        sample = backup(1, 1000)["sessions"][0]
        hands = int(megabytes * 1_000_000 * 1000 / len(compact(sample)) * 0.98)
    events = [pitch_hand(i) for i in range(hands)]
    times = [f"2026-{1 + i // 2000 % 12:02}-01T20:{i // 60 % 60:02}:{i % 60:02}Z"
             for i in range(hands)]
    session = {
        "created_at": "2026-01-01T19:00:00Z",
        "recorded_at": times,
        "session": {"format": "scorekeeper/session@1", "game": "auction_pitch",
                    "currency": "USD", "agreements": {"stake": "0.05", "target": 11},
                    "players": PLAYERS, "events": events},
    }
    one = len(compact(session))
    count = max(1, megabytes * 1_000_000 // one)
    return {"format": "scorekeeper/club@1", "name": "Thursday club", "players": PLAYERS,
            "sessions": [session] * count}


def peak_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def reset_peak(pid):
    """Resets the server's `VmHWM` to its present RSS (Linux `clear_refs`, value 5)."""
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def send(port, body, answers, index):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        conn.request("POST", "/api/v1/clubs/import", body=body,
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        answers[index] = (r.status, r.read())
    except OSError as e:
        answers[index] = (0, str(e).encode())
    finally:
        conn.close()


class Table:
    """Another club's table recording a hand every 0.1 s while the imports run: what an
    import costs everyone else."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        creds = compact({"name": "Elsewhere", "passphrase": CODE})
        made = json.loads(self.call("POST", "/api/v1/clubs", creds, None)[1])
        self.auth = "Bearer " + made["token"]
        doc = compact({"game": "auction_pitch", "players": PLAYERS,
                       "agreements": {"stake": "0.05", "target": 11}})
        self.path = f"/api/v1/sessions/{json.loads(self.call('POST', '/api/v1/sessions', doc, self.auth)[1])['id']}/events"
        self.count = 0

    def call(self, method, path, body, auth):
        headers = {"Content-Type": "application/json"}
        if auth:
            headers["Authorization"] = auth
        self.conn.request(method, path, body=body, headers=headers)
        r = self.conn.getresponse()
        return r.status, r.read()

    def play(self, stop, seen):
        """Records hands until `stop` is set; appends (status, seconds) to `seen`."""
        while not stop.is_set():
            started = time.time()
            status, _ = self.call("POST", self.path, compact(pitch_hand(self.count)), self.auth)
            seen.append((status, time.time() - started))
            self.count += status == 201
            time.sleep(0.1)


def round_of(port, pid, bodies, table):
    """Sends `bodies` at once while `table` plays; the answers, the seconds taken, the peak
    in MiB and the table's hands meanwhile."""
    reset_peak(pid)
    answers = [None] * len(bodies)
    threads = [threading.Thread(target=send, args=(port, b, answers, i))
               for i, b in enumerate(bodies)]
    stop, seen = threading.Event(), []
    player = threading.Thread(target=table.play, args=(stop, seen))
    player.start()
    started = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    player.join()
    return answers, time.time() - started, peak_mib(pid), seen


def check_imported(port, answer, sessions):
    """An import answered 201 made a club with every session of the backup."""
    made = json.loads(answer)
    assert len(made["sessions"]) == sessions, (len(made["sessions"]), sessions)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/api/v1/sessions",
                 headers={"Authorization": "Bearer " + made["token"]})
    listed = json.loads(conn.getresponse().read())["sessions"]
    conn.close()
    assert len(listed) >= min(sessions, 1), "the new club lists its sessions"


def report(label, answers, seconds, peak, seen, sessions, port):
    by_status = collections.Counter(status for status, _ in answers)
    for status, body in answers:
        if status == 201 and sessions:
            check_imported(port, body, sessions)
    # 0: the server answered before the body was sent (503 while another import is read,
    # 413 over the limit) and closed the connection, which http.client reports as an error.
    shown = ", ".join(f"{n} × {s or 'answered unread'}" for s, n in sorted(by_status.items()))
    print(f"{label}: {shown}; {seconds:.1f} s; server peak {peak:.1f} MiB", flush=True)
    statuses = collections.Counter(status for status, _ in seen)
    slowest = max((t for _, t in seen), default=0)
    print(f"    a table elsewhere meanwhile: {dict(statuses)}, slowest hand {slowest:.2f} s",
          flush=True)
    refused = [body for status, body in answers if status not in (0, 201)]
    if refused:
        print(f"    {refused[0][:240].decode(errors='replace')}", flush=True)
    return peak


def bodies(club, count, round_name):
    """`count` import bodies of `club`, each under its own name in round `round_name`."""
    return [compact({"name": f"Club {round_name} {i + 1}", "passphrase": CODE,
                     "club": club}) for i in range(count)]


def rounds(port, pid, args):
    """Every round in turn: its label, what it sends and how many sessions a 201 made."""
    big = bodies(backup(args.oversize, args.hands), args.at_once, "0")
    yield f"(0) {args.at_once} backups of {len(big[0]) / 1e6:.1f} MB, over the limit", big, 0
    del big
    club = backup(args.megabytes, args.hands)
    yield (f"(a) {args.at_once} backups of {args.megabytes} MB, {len(club['sessions'])} "
           f"sessions of {args.hands} hands"), bodies(club, args.at_once, "a"), len(club["sessions"])
    long = backup(args.megabytes, args.long_hands)
    yield (f"(c) {args.at_once} backups of {args.megabytes} MB, {len(long['sessions'])} "
           f"sessions of {args.long_hands} hands"), bodies(long, args.at_once, "c"), \
        len(long["sessions"])
    del long
    whole = backup(args.megabytes)
    hands = len(whole["sessions"][0]["session"]["events"])
    yield (f"(d) {args.at_once} backups of {args.megabytes} MB, one session of {hands} "
           f"hands, over the size of one session"), bodies(whole, args.at_once, "d"), 0
    del whole
    filler = "x" * (args.megabytes * 1_000_000 - 200)
    junk = {"format": "scorekeeper/club@1", "name": filler, "players": [], "sessions": []}
    yield (f"(b) {args.at_once} bodies of {args.megabytes} MB, one long club name"),\
        bodies(junk, args.at_once, "b"), 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "scorekeeper"))
    ap.add_argument("--megabytes", type=int, default=16)
    ap.add_argument("--oversize", type=int, default=60)
    ap.add_argument("--at-once", type=int, default=8)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--long-hands", type=int, default=11000)
    args = ap.parse_args()
    server, port, folder = serve_fresh(args.binary, "imports-")
    try:
        print(f"server at rest: {peak_mib(server.pid):.1f} MiB", flush=True)
        peaks, table = [], Table(port)
        for label, sent, sessions in rounds(port, server.pid, args):
            print(label, flush=True)
            peaks.append(report(label[:3], *round_of(port, server.pid, sent, table),
                                sessions, port))
            del sent
        ok = max(peaks) < TARGET_MIB
        print(f"{'PASS' if ok else 'FAIL'} {args.at_once} imports at once, of "
              f"{args.oversize} MB and of {args.megabytes} MB: server peak "
              f"{max(peaks):.1f} MiB (target < {TARGET_MIB} MiB)")
        return 0 if ok else 1
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
