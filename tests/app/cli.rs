//! The `scorekeeper` command line: `replay` prints the ledger and exits 0, exits 2 with one
//! line on stderr naming the event, field and rule (nothing on stdout) for a refused
//! document, and 1 for input that cannot be read as JSON; every example in `examples/`
//! replays to its hand-worked balances; a `DATABASE_URL` that is not SQLite is refused at
//! start-up without touching the disk.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn session(events: Value) -> Value {
    json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": {"stake": "0.05"}, "players": ["A", "B", "C"], "events": events
    })
}

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scorekeeper"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn replay_prints_the_ledger() {
    let dir = std::env::temp_dir().join(format!("scorekeeper-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.json");
    let doc = session(
        json!([{"type": "hand", "dealer": "C", "bidder": "A", "bid": 250, "trump": "hearts", "outcome": "made"}]),
    );
    std::fs::write(&file, doc.to_string()).unwrap();
    let (code, out, err) = run(&["replay", file.to_str().unwrap()], None);
    assert_eq!(code, 0, "stderr: {err}");
    let ledger: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(ledger["format"], "scorekeeper/ledger@1");
    assert_eq!(
        ledger["balances"],
        json!({"A": "0.20", "B": "-0.10", "C": "-0.10"})
    );
}

#[test]
fn replay_reads_standard_input() {
    let doc = session(
        json!([{"type": "hand", "dealer": "C", "bidder": "A", "bid": 300, "trump": "spades", "outcome": "failed"}]),
    );
    let (code, out, _) = run(&["replay", "-"], Some(&doc.to_string()));
    assert_eq!(code, 0);
    let ledger: Value = serde_json::from_str(&out).unwrap();
    // 3 units × 0.05 × 2 (spades) × 2 (double bete) to each of two opponents.
    assert_eq!(ledger["balances"]["A"], "-1.20");
}

#[test]
fn a_refused_document_exits_2_with_one_line_naming_event_and_field() {
    let doc = session(json!([
        {"type": "hand", "dealer": "C", "bidder": "A", "bid": 250, "trump": "hearts", "outcome": "made"},
        {"type": "hand", "dealer": "A", "bidder": "B", "bid": 240, "trump": "hearts", "outcome": "made"}
    ]));
    let (code, out, err) = run(&["replay", "-"], Some(&doc.to_string()));
    assert_eq!(code, 2);
    assert!(out.is_empty(), "stdout must be empty, got {out}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.starts_with("event 1: bid: 240 is below the minimum 250 (rules §1.1)"),
        "{err}"
    );
}

#[test]
fn unknown_fields_and_json_numbers_for_money_are_refused() {
    let mut doc = session(json!([]));
    doc["agreements"]["stake"] = json!(0.05);
    let (code, out, err) = run(&["replay", "-"], Some(&doc.to_string()));
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("agreements.stake"), "{err}");
    let doc = session(
        json!([{"type": "hand", "dealer": "C", "bidder": "A", "bid": 250, "trump": "hearts", "outcome": "made", "bonus": 1}]),
    );
    let (code, _, err) = run(&["replay", "-"], Some(&doc.to_string()));
    assert_eq!(code, 2);
    assert!(err.starts_with("event 0: bonus: unknown field"), "{err}");
    // JSON that is not an object is a document, refused like any other.
    let (code, _, err) = run(&["replay", "-"], Some("[1, 2]"));
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("document: "), "{err}");
}

/// Exit 1, not 2, when there is no JSON to judge: a missing file, a folder, broken JSON.
/// One line on stderr naming the input, nothing on stdout.
#[test]
fn unreadable_input_exits_1_and_a_refused_document_2() {
    let dir = std::env::temp_dir().join(format!("scorekeeper-cli-unread-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("no-such-session.json");
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"format\": \"scorekeeper/session@1\",").unwrap();
    for (path, words) in [
        (missing.to_str().unwrap(), "cannot be read"),
        (dir.to_str().unwrap(), "cannot be read"),
        (broken.to_str().unwrap(), "not JSON"),
    ] {
        let (code, out, err) = run(&["replay", path], None);
        assert_eq!(code, 1, "{path}: {err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(path) && err.contains(words), "{err}");
    }
    let (code, _, err) = run(&["replay", "-"], Some("not json"));
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("-: not JSON"), "{err}");
    // The same folder holding a document the rules refuse: 2.
    let refused = dir.join("refused.json");
    let doc = session(
        json!([{"type": "hand", "dealer": "C", "bidder": "A", "bid": 240, "trump": "hearts", "outcome": "made"}]),
    );
    std::fs::write(&refused, doc.to_string()).unwrap();
    let (code, _, err) = run(&["replay", refused.to_str().unwrap()], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("event 0: bid: 240"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// SQLite and PostgreSQL are built in: a MySQL URL, or one that is no URL at
/// all, is refused before anything is written (it used to create a folder `mysql:`), with
/// one line naming the variable and what it accepts, and the password never echoed; the
/// same for `backup` and `restore`, and for the variable as for the option. A PostgreSQL
/// URL is taken: `serve` goes to the server (here none listens: one line, no password,
/// nothing on disk), while `backup` and `restore` answer with the `pg_dump` and
/// `pg_restore` commands to use.
#[test]
fn a_database_url_that_is_not_sqlite_is_refused_at_start_up_and_nothing_is_created() {
    let dir = std::env::temp_dir().join(format!("scorekeeper-cli-dburl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let refused = "DATABASE_URL (--database-url) is";
    // Port 1 on this machine: nothing listens there, so the connection is refused at once.
    let nowhere = "postgres://sk:hunter22@127.0.0.1:1/sk";
    let cases: [(&[&str], Option<&str>, &[&str]); 6] = [
        (
            &["serve", "--bind", "127.0.0.1:0", "--database-url", nowhere],
            None,
            &["cannot open the database postgres://sk@127.0.0.1:1/sk"],
        ),
        (
            &[
                "--bind",
                "127.0.0.1:0",
                "--database-url",
                "mysql://sk:hunter22@db/sk",
            ],
            None,
            &[refused, "sqlite://", "postgres://"],
        ),
        (
            &[
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--database-url",
                "data/sk.db",
            ],
            None,
            &[refused, "sqlite://", "postgres://"],
        ),
        (
            &["backup", "copy.db", "--database-url", nowhere],
            None,
            &["pg_dump --format=custom", "docs/postgres.md"],
        ),
        (
            &["restore", "copy.db", "--force"],
            Some("postgresql://sk:hunter22@db:5432/sk"),
            &["pg_restore --clean"],
        ),
        (
            &["restore", "copy.db", "--force"],
            Some("mysql://sk:hunter22@db/sk"),
            &[refused, "sqlite://"],
        ),
    ];
    for (args, env, says) in cases {
        let mut command = Command::new(env!("CARGO_BIN_EXE_scorekeeper"));
        command
            .args(args)
            .current_dir(&dir)
            .env_remove("DATABASE_URL");
        if let Some(url) = env {
            command.env("DATABASE_URL", url);
        }
        let out = command.output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        for words in says {
            assert!(err.contains(words), "{args:?}: {err} lacks {words:?}");
        }
        assert!(!err.contains("hunter22"), "the password is echoed: {err}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "{args:?} created {left:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--read-url` (`DATABASE_READ_URL`) is a PgBouncer's `postgres://` URL beside a
/// PostgreSQL database: any other scheme, or one beside SQLite, is refused at start-up with
/// one line naming the variable, the password never echoed, and no SQLite file made.
#[test]
fn a_read_url_that_is_not_postgres_or_beside_sqlite_is_refused_at_start_up() {
    let dir = std::env::temp_dir().join(format!("scorekeeper-cli-readurl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let nowhere = "postgres://sk:hunter22@127.0.0.1:1/sk";
    let cases = [
        (nowhere, "mysql://sk:hunter22@db/sk", "cannot use"),
        ("sqlite://sk.db", nowhere, "for a PostgreSQL database only"),
    ];
    for (database, read, says) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_scorekeeper"))
            .args(["serve", "--bind", "127.0.0.1:0", "--database-url", database])
            .env("DATABASE_READ_URL", read)
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{read}: {err}");
        assert_eq!(err.lines().count(), 1, "{read}: {err}");
        assert!(err.contains("DATABASE_READ_URL (--read-url)"), "{err}");
        assert!(err.contains(says), "{err} lacks {says:?}");
        assert!(!err.contains("hunter22"), "the password is echoed: {err}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(left.is_empty(), "{read} created {left:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_lists_every_registered_game_one_a_line() {
    let (code, out, _) = run(&["games"], None);
    assert_eq!(code, 0);
    let listed: Vec<&str> = out.lines().collect();
    let registered: Vec<&str> = scorekeeper::registry::GAMES
        .iter()
        .map(|r| r.game.id)
        .collect();
    assert_eq!(listed, registered);
    assert!(listed.contains(&"auction_pitch"), "{out}");
}

/// Every registered game has an evening in `examples/<game>.json`, and `replay` gives the
/// balances and game results worked out by hand from the rules (the sums are in the
/// comments; every balance list sums to zero).
#[test]
fn every_example_replays_to_its_hand_worked_balances() {
    let expected: [(&str, Value, Value); 10] = [
        // 4 at the table, 0.05 a unit, spades double. Bob's 250 ♥ made: 2 units = 0.10 from
        // each of 3; Carla's 300 ♠ failed: 3 units × 2 (♠) × 2 (failed) = 0.60 to each of 3;
        // Ann's 350 ♦ made: 4 units = 0.20 from each; Dave's 280 ♣ conceded before the
        // lead: one single 0.10 to each; Ann's 400 ♠ made: 5 units × 2 = 0.50 from each.
        // Ann -0.10 +0.60 +0.60 +0.10 +1.50 = 2.70; Carla -0.10 -1.80 -0.20 +0.10 -0.50.
        (
            "auction_pinochle",
            json!({"Ann": "2.70", "Bob": "0.30", "Carla": "-2.50", "Dave": "-0.50"}),
            json!([]),
        ),
        // Scores after each hand (M, T, L, R): 2 1 1 0; 2 -2 1 1 (Tom set back 3); 2 -2 4 2;
        // a dead hand; 2 -2 4 6; 5 -1 4 6; 5 -1 5 9; 6 -1 5 11: pitcher Ray out at 11. Each
        // pays (11 - score) × 0.05: Maria 5, Tom 12, Lucy 6 points; Ray 23 × 0.05 = 1.15.
        (
            "auction_pitch",
            json!({"Maria": "-0.25", "Tom": "-0.60", "Lucy": "-0.30", "Ray": "1.15"}),
            json!([["Ray", {"Maria": 6, "Tom": -1, "Lucy": 5, "Ray": 11}]]),
        ),
        // Points NS/EW: 330/160, 450/-190 (EW's 350 defeated), 710/-60, 830/350, 1040/490.
        // Hoyle checks NS: 7+2, +20 (defeat of 350), 4+2, 0, 2 + 7 (Scarne's game award)
        // = 44; EW: 1, 0, 1, 15+1+1 = 19. 25 checks × 0.05 from each EW player to his
        // opposite number.
        (
            "check_pinochle",
            json!({"Nora": "1.25", "Sam": "1.25", "Eli": "-1.25", "Wes": "-1.25"}),
            json!([["NS", {"NS": 1040, "EW": 490}]]),
        ),
        // NS 500; +800 (Walt's 400 ♠ doubled and failed); +600 (made on meld) = 1900; EW
        // 450, +175 (half of 350, conceded before the lead); a pass-out; NS 550 doubled =
        // 1100, 3000: NS win, each EW player pays his opposite number 1.00.
        (
            "contract_pinochle",
            json!({"Vera": "1.00", "Xena": "1.00", "Walt": "-1.00", "Yuri": "-1.00"}),
            json!([["NS", {"NS": 3000, "EW": 625}]]),
        ),
        // NS 340/EW 150; EW 230 of 250, so -250: NS 560/EW -100; all passed; EW 320 of 280:
        // NS 680/EW 220; NS 390 of 350: NS 1070/EW 300, NS win 0.50 from each opposite.
        (
            "partnership_auction_pinochle",
            json!({"Olga": "0.50", "Quinn": "0.50", "Paul": "-0.50", "Rosa": "-0.50"}),
            json!([["NS", {"NS": 1070, "EW": 300}]]),
        ),
        // NS 240+150+10 (Hank's dix) = 400, EW 200; NS 150+130+10 (Hank turned up the dix)
        // = 690, EW 80+120+10 (Kate's dix) = 410; NS +360 = 1050, EW +150 = 560: NS win.
        (
            "partnership_pinochle",
            json!({"Hank": "1.00", "Jack": "1.00", "Iris": "-1.00", "Kate": "-1.00"}),
            json!([["NS", {"NS": 1050, "EW": 560}]]),
        ),
        // Dora takes 1.60 (net +1.10); Chen's flush takes 1.00 (+0.70); Alice and Chen split
        // 0.85, the odd 0.05 to Chen, first left of dealer Ben (+0.15, +0.20); Dora all in
        // at 0.40 takes the main pot 1.30 (+0.90), Eddie the side pot 1.20 (+0.20).
        (
            "poker",
            json!({"Alice": "-1.65", "Ben": "-1.10", "Chen": "0.80", "Dora": "1.90", "Eddie": "0.05"}),
            json!([]),
        ),
        // Tricks round up from 7: Zoe 150+140 = 290, Adam 80+110 = 190; Zoe +10 (dix) +40
        // +90 = 430, Adam +240 +150 = 580; Zoe +300 +180 = 910, Adam +60 +70 = 710; Zoe
        // declares out with 40 meld and 47 (-> 50) in tricks: 1000, she wins 2.00.
        (
            "two_handed_pinochle",
            json!({"Zoe": "2.00", "Adam": "-2.00"}),
            json!([["Zoe", {"Zoe": 1000, "Adam": 710}]]),
        ),
        // Game 1: Hugo A + A = 8, Ines K Q J = 6, Jan J Q K = 6: Hugo wins 0.25 from each.
        // Game 2 (from the table's count): Jan A K Q = 9 beats Ines 8 and Hugo 3.
        (
            "auction_game",
            json!({"Hugo": "0.25", "Ines": "-0.50", "Jan": "0.25"}),
            json!([["Hugo", null], ["Jan", null]]),
        ),
        // Hearts, low wins, to 100 (rules §1.12): Pia shoots the moon in hand 2; Nora's 101
        // ends game 1 on hand 7 and Pia's 16 is lowest. Totals 101, 78, 16, 39 (S = 234):
        // nets 0.05 × (234 − 4s) = −8.50, −3.90, +8.50, +3.90. Game 2's one hand is
        // unfinished at the close and pays nothing.
        (
            "house_game",
            json!({"Nora": "-8.50", "Owen": "-3.90", "Pia": "8.50", "Quin": "3.90"}),
            json!([["Pia", {"Nora": 101, "Owen": 78, "Pia": 16, "Quin": 39}]]),
        ),
    ];
    let listed: Vec<&str> = expected.iter().map(|(game, _, _)| *game).collect();
    for registration in scorekeeper::registry::GAMES {
        assert!(
            listed.contains(&registration.game.id),
            "no example for {}",
            registration.game.id
        );
    }
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for (game, balances, games) in expected {
        let file = examples.join(format!("{game}.json"));
        let (code, out, err) = run(&["replay", file.to_str().unwrap()], None);
        assert_eq!(code, 0, "{game}: {err}");
        let ledger: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(ledger["game"], game);
        assert_eq!(ledger["balances"], balances, "{game}");
        let got = ledger["games"].as_array().unwrap();
        assert_eq!(
            got.len(),
            games.as_array().unwrap().len(),
            "{game}: {got:?}"
        );
        for (want, got) in games.as_array().unwrap().iter().zip(got) {
            assert_eq!(got["winner"], want[0], "{game}");
            if !want[1].is_null() {
                assert_eq!(got["final_scores"], want[1], "{game}");
            }
        }
    }
}
