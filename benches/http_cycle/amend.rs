//! Amendments (docs/benchmark.md, "Corrections and undos"): a real table corrects a hand
//! now and then, mostly the one just entered. Per game, club sessions at the shortest and
//! longest history, with one amendment in 20 writes: the record + standing cycle where
//! every 20th write is, in turn, the sheet's Undo (a `void` of the last hand, which is then
//! entered again) or a correction of one of the last 25 hands; at 1 and at the most
//! clients. At the longest history, each amendment's own latency: Undo, a correction of the
//! hand 10 back, a correction of hand 1 (a whole replay) with another session's cycle times
//! meanwhile; and the server's peak memory. And the most clients recording into one
//! session at once, against the raw SQLite commit rate.
//!
//! A correction sends the hand as it was (the same replay as a changed one, and every
//! later hand still stands); the session's standing hands are tracked here by event index.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{BUSY, Client, Game, Plan, Run, percentile, verdict};

/// One write in this many is an amendment.
const EVERY: usize = 20;

/// How far back a correction of a recent hand reaches: what the table just saw.
const RECENT: usize = 25;

/// A session's standing hands as the client knows them: (the hand's number in the
/// generator, its event index), and the next event's index.
struct Sheet {
    id: i64,
    standing: Vec<(usize, usize)>,
    events: usize,
    /// The generator's next hand.
    next: usize,
}

impl Sheet {
    /// A session imported with `hands` hands and a correction after every 500th
    /// ([`Game::session`]): hand `i` is event `i + i / 500`.
    fn imported(id: i64, hands: usize) -> Sheet {
        Sheet {
            id,
            standing: (0..hands).map(|i| (i, i + i / 500)).collect(),
            events: hands + hands / 500,
            next: hands,
        }
    }
}

/// Sends `body` to session `sheet.id`'s events, once more if the server was busy: its
/// status and how long it took.
async fn post(c: &mut Client, sheet: &mut Sheet, body: &Value) -> Duration {
    let events = format!("/api/v1/sessions/{}/events", sheet.id);
    let text = body.to_string();
    let started = Instant::now();
    let (mut status, _) = c.request("POST", &events, Some(&text)).await;
    if status == 503 {
        BUSY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        (status, _) = c.request("POST", &events, Some(&text)).await;
    }
    let took = started.elapsed();
    assert_eq!(status, 201, "session {}: {text}", sheet.id);
    sheet.events += 1;
    took
}

/// Enters the generator's next hand.
async fn hand(c: &mut Client, game: &Game, sheet: &mut Sheet) -> Duration {
    let i = sheet.next;
    let at = sheet.events;
    let took = post(c, sheet, &game.hand(i)).await;
    sheet.standing.push((i, at));
    sheet.next += 1;
    took
}

/// The sheet's Undo: the last hand voided (then entered again by the caller).
async fn undo(c: &mut Client, sheet: &mut Sheet) -> Duration {
    let (i, at) = sheet.standing.pop().expect("a hand to undo");
    let took = post(c, sheet, &json!({"type": "void", "event": at})).await;
    sheet.next = i;
    took
}

/// A correction of the standing hand `back` hands from the last (0: the last).
async fn correct(c: &mut Client, game: &Game, sheet: &mut Sheet, back: usize) -> Duration {
    let (i, at) = sheet.standing[sheet.standing.len() - 1 - back];
    let body = json!({"type": "correction", "event": at, "replacement": game.hand(i),
                      "reason": "read again"});
    post(c, sheet, &body).await
}

/// `cycles` record + standing cycles on `sheet`, one write in [`EVERY`] an amendment (Undo
/// and a recent correction in turn, by the write's number `first + k`): the sheet after
/// them and the cycle times.
async fn client(
    (addr, token): (String, String),
    game: Game,
    mut sheet: Sheet,
    cycles: usize,
    first: usize,
) -> (Sheet, Vec<Duration>) {
    let mut c = Client::connect(&addr, &token).await;
    let standing = format!("/api/v1/sessions/{}/standing", sheet.id);
    let mut times = Vec::with_capacity(cycles);
    for k in 0..cycles {
        let started = Instant::now();
        let write = first + k;
        if write % EVERY == EVERY - 1 {
            if (write / EVERY).is_multiple_of(2) {
                undo(&mut c, &mut sheet).await;
            } else {
                let back = (write * 7919) % RECENT.min(sheet.standing.len());
                correct(&mut c, &game, &mut sheet, back).await;
            }
        } else {
            hand(&mut c, &game, &mut sheet).await;
        }
        let (status, _) = c.request("GET", &standing, None).await;
        assert_eq!(status, 200);
        times.push(started.elapsed());
    }
    (sheet, times)
}

/// Record + standing cycles on `sheet` with plain hands: 60 of them, or with `stop` until
/// it is set. The sheet after them and the cycle times.
async fn beside(
    (addr, token): (String, String),
    game: Game,
    mut sheet: Sheet,
    stop: Option<Arc<AtomicBool>>,
) -> (Sheet, Vec<Duration>) {
    let mut c = Client::connect(&addr, &token).await;
    let standing = format!("/api/v1/sessions/{}/standing", sheet.id);
    let mut times = Vec::new();
    let more = |n: usize| match &stop {
        Some(stop) => !stop.load(Ordering::Relaxed),
        None => n < 60,
    };
    while more(times.len()) {
        let started = Instant::now();
        hand(&mut c, &game, &mut sheet).await;
        let (status, _) = c.request("GET", &standing, None).await;
        assert_eq!(status, 200);
        times.push(started.elapsed());
    }
    (sheet, times)
}

/// One game at one history and number of clients (a session each): cycles/s (the best of
/// the plan's rounds) and p50 in ms.
async fn amending_rate(plan: &Plan, game: &Game, hands: usize, clients: usize) -> (f64, f64) {
    let run = Run::start(&plan.dir, "amend", game, hands, clients).await;
    let mut sheets: Vec<Sheet> = run
        .ids
        .iter()
        .map(|&id| Sheet::imported(id, hands))
        .collect();
    let (mut best, mut all) = (0.0f64, Vec::new());
    for round in 0..plan.rounds {
        let started = Instant::now();
        let tasks: Vec<_> = sheets
            .drain(..)
            .enumerate()
            .map(|(k, sheet)| {
                let to = (run.addr(k).to_string(), run.token.clone());
                let first = round * plan.cycles + k * 7;
                tokio::spawn(client(to, game.clone(), sheet, plan.cycles, first))
            })
            .collect();
        for t in tasks {
            let (sheet, times) = t.await.unwrap();
            all.extend(times);
            sheets.push(sheet);
        }
        let done = sheets.len() * plan.cycles;
        best = best.max(done as f64 / started.elapsed().as_secs_f64());
    }
    all.sort();
    (best, percentile(&all, 0.5))
}

/// Milliseconds of `times`: (p50, the slowest).
fn ms(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let slowest = times.last().map_or(0.0, |t| t.as_secs_f64() * 1e3);
    (percentile(&times, 0.5), slowest)
}

/// At the longest history, on a server with two club sessions of `game`: Undo, a
/// correction 10 hands back and a correction of hand 1 on the first (each `tries` times),
/// and the second's record + standing cycles before and during the corrections of hand 1.
/// Prints a line each.
pub async fn latencies(plan: &Plan, game: &Game, tries: usize) {
    let hands = plan.longest();
    let run = Run::start(&plan.dir, "amend-latency", game, hands, 2).await;
    let mut sheet = Sheet::imported(run.ids[0], hands);
    let mut c = Client::connect(run.addr(0), &run.token).await;
    let (mut undos, mut near) = (Vec::new(), Vec::new());
    for _ in 0..tries {
        undos.push(undo(&mut c, &mut sheet).await);
        hand(&mut c, game, &mut sheet).await;
        near.push(correct(&mut c, game, &mut sheet, 10).await);
        hand(&mut c, game, &mut sheet).await;
    }
    let other = (run.addr(1).to_string(), run.token.clone());
    let busy = Sheet::imported(run.ids[1], hands);
    let (busy, quiet) = beside(other.clone(), game.clone(), busy, None).await;
    let stop = Arc::new(AtomicBool::new(false));
    let during = tokio::spawn(beside(other, game.clone(), busy, Some(stop.clone())));
    let mut far = Vec::new();
    for _ in 0..tries.min(3) {
        let back = sheet.standing.len() - 1;
        far.push(correct(&mut c, game, &mut sheet, back).await);
    }
    stop.store(true, Ordering::Relaxed);
    let (_, during) = during.await.unwrap();
    let (undo, near, far) = (ms(undos), ms(near), ms(far));
    let (quiet, during) = (ms(quiet), ms(during));
    println!(
        "  {} {:<26} Undo at {hands} hands: p50 {:.1} ms, slowest {:.1} ms of {tries} (target ≤ 5 ms)",
        verdict(undo.0 <= 5.0),
        game.id,
        undo.0,
        undo.1
    );
    println!(
        "  {} {:<26} correcting the hand 10 back: p50 {:.1} ms, slowest {:.1} ms (target ≤ 10 ms)",
        verdict(near.0 <= 10.0),
        game.id,
        near.0,
        near.1
    );
    println!(
        "  {} {:<26} correcting hand 1: p50 {:.0} ms, slowest {:.0} ms (target ≤ 300 ms); peak RSS {:.1} MiB",
        verdict(far.1 <= 300.0),
        game.id,
        far.0,
        far.1,
        run.server.peak_rss_mib()
    );
    println!(
        "  {} {:<26} another session's record + standing meanwhile: p50 {:.1} ms, slowest {:.1} ms; before: p50 {:.1} ms, slowest {:.1} ms (target: p50 within 2×)",
        verdict(during.0 <= 2.0 * quiet.0.max(1.0)),
        game.id,
        during.0,
        during.1,
        quiet.0,
        quiet.1
    );
}

/// Hands recorded by `clients` clients at once into one session of `game` (the shortest
/// history), each taking the generator's next hand with a key of its own, against the raw SQLite commit rate
/// measured before and after in the same folder: (records/s, raw commits/s).
async fn one_session(plan: &Plan, game: &Game, clients: usize) -> (f64, f64) {
    let run = Run::start(&plan.dir, "one-session", game, plan.shortest(), 1).await;
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(plan.shortest()));
    let recorded = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let before = super::raw_commit_rate(&plan.dir, 500).await;
    let writes = 60;
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let (addr, token) = (run.addr(0).to_string(), run.token.clone());
            let (game, next, id) = (game.clone(), next.clone(), run.ids[0]);
            let recorded = recorded.clone();
            tokio::spawn(async move {
                let mut c = Client::connect(&addr, &token).await;
                let events = format!("/api/v1/sessions/{id}/events");
                for _ in 0..writes {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let body = game.hand(n).to_string();
                    // Each write keyed, as the phone's hand form is.
                    let key = format!("one-session-{n}");
                    let (status, _) = c
                        .request_keyed("POST", &events, Some(&body), Some(&key))
                        .await;
                    assert!(status == 201 || status == 503, "{}: {status}", game.id);
                    if status == 201 {
                        recorded.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    // Only what was recorded counts: a write refused as busy (503) is not a record.
    let recorded = recorded.load(Ordering::Relaxed);
    if recorded < clients * writes {
        println!(
            "  {} of {} writes refused as busy",
            clients * writes - recorded,
            clients * writes
        );
    }
    let rate = recorded as f64 / started.elapsed().as_secs_f64();
    let after = super::raw_commit_rate(&plan.dir, 500).await;
    (rate, (before + after) / 2.0)
}

/// The row of `game`'s hands recorded by the plan's most clients into one session at once.
pub async fn one_session_row(plan: &Plan, game: &Game) {
    let clients = plan.most_clients();
    let (rate, raw) = one_session(plan, game, clients).await;
    println!(
        "  {} {:<26} {clients} clients on one session: {rate:.0} records/s against {raw:.0} raw SQLite commits/s: ×{:.2} (target ≥ 0.5)",
        verdict(rate >= 0.5 * raw),
        game.id,
        rate / raw
    );
}

/// The amendment rows of every game of the plan: the latencies at the longest history, then
/// the cycle rate with one amendment in 20 at the shortest and longest, at each number of
/// clients, and the longest's share of the shortest's rate (target ≥ 0.67).
pub async fn rows(plan: &Plan) {
    println!(
        "amendments: one write in {EVERY} an amendment (Undo, then a correction of one of the last {RECENT} hands, in turn); record + standing cycles/s, best of {} rounds of {} cycles a client",
        plan.rounds, plan.cycles
    );
    for game in &plan.games {
        one_session_row(plan, game).await;
        latencies(plan, game, 10).await;
        for &clients in &plan.clients {
            let short = amending_rate(plan, game, plan.shortest(), clients).await;
            let long = amending_rate(plan, game, plan.longest(), clients).await;
            let ratio = long.0 / short.0;
            println!(
                "  {} {:<26} {clients} clients: {:.0}/s at {} hands, {:.0}/s at {} (p50 {:.2} / {:.2} ms): ×{ratio:.2}",
                verdict(ratio >= 0.67),
                game.id,
                short.0,
                plan.shortest(),
                long.0,
                plan.longest(),
                short.1,
                long.1
            );
        }
    }
}

/// What a night's amendments and look-backs add to a server holding `run`'s sessions of
/// `hands` hands (after [`super::load`] recorded one more hand in each): the sheet's Undo
/// and the hand again, a correction of the hand 10 back and one of hand 1 on the first
/// session, then every streamed download and the chart of the second, each read to its end.
pub async fn amend_and_download(run: &Run, hands: usize) {
    let game = run.game.clone();
    let mut sheet = Sheet::imported(run.ids[0], hands);
    sheet.standing.push((hands, sheet.events));
    sheet.events += 1;
    sheet.next = hands + 1;
    let mut c = Client::connect(run.addr(0), &run.token).await;
    undo(&mut c, &mut sheet).await;
    hand(&mut c, &game, &mut sheet).await;
    correct(&mut c, &game, &mut sheet, 10).await;
    let back = sheet.standing.len() - 1;
    correct(&mut c, &game, &mut sheet, back).await;
    let id = run.ids[1].to_string();
    for (label, path, streamed) in super::downloads::READS {
        if streamed && !path.contains("{club}") {
            let path = path.replace("{id}", &id);
            let (status, _) = super::downloads::get(run.addr(1), &run.token, &path).await;
            assert_eq!(status, 200, "{label}");
        }
    }
}
