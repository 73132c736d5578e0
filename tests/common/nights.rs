//! The sessions the history and night tests share, worked out by hand once.

use scorekeeper::format::SessionDoc;
use scorekeeper::ids::ClubId;
use scorekeeper::service;
use serde_json::{Value, json};

use super::TestApp;

/// Auction Pitch to 11, 0.10 a point of difference (rules §1.4), seats `a`, `b`, Dee, in
/// `currency` (ISO code): `a` makes 4 (4–0–0), `b` is set 3 while `a` takes High and Dee
/// Game (5, −3, 1), `a` makes 4 twice (13: out). `b` pays (13 − (−3)) × 0.10 = 1.60, Dee
/// (13 − 1) × 0.10 = 1.20: `a` +2.80. Closed, not paid.
pub fn pitch_in(a: &str, b: &str, currency: &str) -> SessionDoc {
    let all = json!({ "high": a, "low": a, "jack": a, "game": a });
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pitch", "currency": currency,
        "agreements": { "stake": "0.10", "target": 11 }, "players": [a, b, "Dee"],
        "events": [
            { "type": "hand", "dealer": "Dee", "pitcher": a, "bid": 4, "points": all },
            { "type": "hand", "dealer": a, "pitcher": b, "bid": 3, "points": { "high": a, "low": b, "jack": null, "game": "Dee" } },
            { "type": "hand", "dealer": b, "pitcher": a, "bid": 4, "points": all },
            { "type": "hand", "dealer": "Dee", "pitcher": a, "bid": 4, "points": all },
            { "type": "close" }
        ]
    }))
    .unwrap()
}

/// Auction Pinochle, 0.05 a unit, Scarne's kitty (rules §1.1–1.3), seats Ann, Bob and
/// `third`, opening antes of 0.10 each; the first `hands` (0 to 2) of the hands the night
/// tests share, then the events `rest` as given:
/// 1. `third` deals, Ann 350 hearts made: 0.20 from each and the kitty's 0.30, then everyone
///    antes 0.10 again;
/// 2. Ann deals, Bob 300 clubs failed: 0.30 to each (no kitty under 350).
pub fn pinochle(third: &str, hands: usize, rest: &[Value]) -> SessionDoc {
    let played = [
        json!({ "type": "hand", "dealer": third, "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "made" }),
        json!({ "type": "hand", "dealer": "Ann", "bidder": "Bob", "bid": 300, "trump": "clubs", "outcome": "failed" }),
    ];
    let events: Vec<Value> = played[..hands].iter().chain(rest).cloned().collect();
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": { "stake": "0.05", "kitty": "pot" }, "players": ["Ann", "Bob", third],
        "events": events
    }))
    .unwrap()
}

/// [`pitch_in`] dollars: `a` +2.80, `b` −1.60, Dee −1.20.
pub fn pitch(a: &str, b: &str) -> SessionDoc {
    pitch_in(a, b, "USD")
}

/// `hledger -f FILE balance` of `journal` as cents by account, zeros left out (the
/// club journal's balance is every person's net after the nights' payments); `None`
/// when hledger is not installed (a failure in CI).
pub fn hledger_balances(
    journal: &str,
    name: &str,
) -> Option<std::collections::BTreeMap<String, i64>> {
    // One binary runs every test file's journals at once: a number of its own keeps two
    // callers of the same `name` apart.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!(
        "scorekeeper-{}-{n}-{name}.journal",
        std::process::id()
    ));
    std::fs::write(&file, journal).unwrap();
    let output = match std::process::Command::new("hledger")
        .arg("-f")
        .arg(&file)
        .args(["balance", "--flat", "--empty", "--no-total", "-O", "csv"])
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set and hledger cannot run: {e}"
            );
            eprintln!("note: hledger is not installed ({e}); the journal balance check is skipped");
            return None;
        }
    };
    let _ = std::fs::remove_file(&file);
    assert!(
        output.status.success(),
        "hledger: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut reader = csv::Reader::from_reader(output.stdout.as_slice());
    let mut balances = std::collections::BTreeMap::new();
    for row in reader.records() {
        let row = row.unwrap();
        let amount = row[1].replace('$', "");
        // hledger writes a zero balance as a bare "0".
        let cents = scorekeeper::money::Money::parse(&amount)
            .unwrap_or_else(|e| panic!("{}: {e}", &row[1]))
            .cents();
        if cents != 0 {
            balances.insert(row[0].to_string(), cents);
        }
    }
    Some(balances)
}

/// A results CSV's `net` summed per `player` over every row (sessions and night payments),
/// zeros left out, in cents.
pub fn csv_sums(csv_text: &str) -> std::collections::BTreeMap<String, i64> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let mut sums = std::collections::BTreeMap::new();
    for row in reader.records() {
        let row = row.unwrap();
        let cents = scorekeeper::money::Money::parse(&row[4]).unwrap().cents();
        *sums.entry(row[3].to_string()).or_insert(0i64) += cents;
    }
    sums.retain(|_, c| *c != 0);
    sums
}

/// The evening's two Pitch sessions at `club`, imported: [`pitch`] with Ann, Bob, Dee (Ann
/// +2.80, Bob −1.60, Dee −1.20) and with Bob, Ann, Dee (Bob +2.80, Ann −1.60, Dee −1.20);
/// their ids.
pub async fn two_pitches(app: &TestApp, club: i64) -> (i64, i64) {
    (
        import_to_club(app, club, &pitch("Ann", "Bob")).await,
        import_to_club(app, club, &pitch("Bob", "Ann")).await,
    )
}

/// `doc` imported straight into the store as a session of club `club` (as a club's own
/// import does); the session's id.
pub async fn import_to_club(app: &TestApp, club: i64, doc: &SessionDoc) -> i64 {
    service::import(&app.pool, doc, Some(ClubId(club)))
        .await
        .unwrap()
        .0
}

/// A night of `sessions` made through the club page's form by the holder of login
/// `cookie`, titled `title` unless it is empty: the night page's address and the night's
/// id. Fails unless the form answers 303 to the night.
pub async fn make_night(
    app: &TestApp,
    cookie: &str,
    club: i64,
    sessions: &[i64],
    title: &str,
) -> (String, i64) {
    let ids: Vec<String> = sessions.iter().map(i64::to_string).collect();
    let mut form: Vec<(&str, &str)> = ids.iter().map(|i| ("sessions", i.as_str())).collect();
    if !title.is_empty() {
        form.push(("title", title));
    }
    let made = app
        .post_form_with(
            &format!("/clubs/{club}/nights"),
            &form,
            &[("cookie", cookie)],
        )
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    let location = made.location.unwrap();
    let night: i64 = location.rsplit('/').next().unwrap().parse().unwrap();
    (location, night)
}

/// The `seen` of the payment forms on the night at `night_page`, read with `headers` (a
/// login): the night as the page shows it now (payments, sessions, events).
pub async fn seen_at(app: &TestApp, night_page: &str, headers: &[(&str, &str)]) -> String {
    let page = app.get_with(night_page, headers).await;
    let seen = super::html::select_attr(&page.body, "input[name=seen]", "value");
    seen.first()
        .cloned()
        .unwrap_or_else(|| panic!("no seen on {}", page.body))
}

/// A payment recorded against the night at `night_page` (its address) by the holder of
/// login `cookie`, from the night's page as it is now, which shows `seen` payments: `payer`
/// handed `payee` `amount`. Fails unless the form is taken (303); the answer.
pub async fn pay_at_night(
    app: &TestApp,
    cookie: &str,
    night_page: &str,
    [seen, payer, payee, amount]: [&str; 4],
) -> super::Reply {
    let shown = seen_at(app, night_page, &[("cookie", cookie)]).await;
    assert!(
        shown.starts_with(&format!("{seen}:")),
        "{shown} shows {seen} payments"
    );
    app.post_form_with_ok(
        &format!("{night_page}/payments"),
        &[
            ("seen", &shown),
            ("payer", payer),
            ("payee", payee),
            ("amount", amount),
        ],
        &[("cookie", cookie)],
    )
    .await
}

/// A payment form posted to the night at `night_page` by the holder of login `cookie` that
/// must be refused with `status`, the answer naming `naming` (the field or the reason).
pub async fn assert_payment_refused(
    app: &TestApp,
    cookie: &str,
    night_page: &str,
    fields: &[(&str, &str)],
    status: u16,
    naming: &str,
) {
    let reply = app
        .post_form_with(
            &format!("{night_page}/payments"),
            fields,
            &[("cookie", cookie)],
        )
        .await;
    assert_eq!(reply.status.as_u16(), status, "{fields:?}: {}", reply.body);
    assert!(reply.body.contains(naming), "{naming}: {}", reply.body);
}
