//! Snapshots of every registered game's rendered sheet page, so a broken `<title>`, a lost
//! column or a changed word shows in review (`cargo insta review`, or read the `.snap.new`
//! file beside the old one). Each game's session is the public golden case that stands
//! and finishes a game, with the most hands, with a correction (hand 1 entered
//! again, as at the table when a player asks "was that right?"), an undo of the last hand,
//! that hand entered again and the close appended: so each snapshot holds hands, a
//! correction, an undo, the finished games, and a close. Recorded times are redacted;
//! everything else on the page is the engine's words and numbers.
//!
//! Beside each sheet, the game's new-session form as it opens and the blank hand form of
//! the session its defaults start.
//!
//! The cases are read from `crates/core/tests/fixtures/golden/`, so a fresh clone runs every snapshot.
//! The files keep the names they had when this file was a test binary of its own
//! (`tests/snapshots/sheet_snapshots__<name>.snap`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::html::form_values;
use common::{TestApp, golden_fixtures};
use scorekeeper::format::{SessionDoc, replay};
use scorekeeper::registry;
use scorekeeper::rules::SpecKind;
use serde_json::{Value, json};

/// The golden case of `game` that replays and finishes a game, with the most hands (else
/// the one with the most hands), as a session document.
fn fullest_standing_case(game: &str) -> Option<Value> {
    let dir = golden_fixtures().join(game);
    let mut best: Option<((usize, usize), String, Value)> = None;
    for entry in std::fs::read_dir(dir).ok()?.filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let session = case["session"].clone();
        let Ok(doc) = serde_json::from_value::<SessionDoc>(session.clone()) else {
            continue;
        };
        let Ok(ledger) = replay(&doc) else {
            continue;
        };
        let games = serde_json::to_value(&ledger).unwrap()["games"]
            .as_array()
            .map_or(0, Vec::len);
        let hands = session["events"]
            .as_array()
            .map_or(0, |e| e.iter().filter(|e| e["type"] == "hand").count());
        let events = (usize::from(games > 0), hands);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // Ties go to the first file by name, so the pick is stable.
        let better = match &best {
            None => true,
            Some((n, other, _)) => events > *n || (events == *n && name < *other),
        };
        if better {
            best = Some((events, name, session));
        }
    }
    best.map(|(_, _, session)| session)
}

/// `session` with hand 1 corrected to itself, the last hand undone and entered again, and
/// the close.
fn with_amendments(mut session: Value) -> Value {
    let events = session["events"].as_array_mut().unwrap();
    events.retain(|e| e["type"] != "close");
    let hands: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e["type"] == "hand")
        .map(|(i, _)| i)
        .collect();
    if let (Some(&first), Some(&last)) = (hands.first(), hands.last()) {
        let replacement = events[first].clone();
        events.push(json!({"type": "correction", "event": first,
            "reason": "checked with the table", "replacement": replacement}));
        if last != first {
            let again = events[last].clone();
            events.push(json!({"type": "void", "event": last, "reason": "entered twice"}));
            events.push(again);
        }
    }
    events.push(json!({"type": "close"}));
    session
}

/// Replaces every recorded time, in words ("2026-11-24 12:01:43 UTC", "2026-11-24 12:01 UTC") or as stored in a
/// `<time datetime>` ("2026-11-24T12:01:43Z"), with `[time]`.
fn redact_times(page: &str) -> String {
    let bytes = page.as_bytes();
    let shapes: [&[u8]; 3] = [
        b"dddd-dd-dd dd:dd:dd UTC",
        b"dddd-dd-dd dd:dd UTC",
        b"dddd-dd-ddTdd:dd:ddZ",
    ];
    let mut out = String::with_capacity(page.len());
    let mut i = 0;
    while i < bytes.len() {
        let fits = shapes.iter().find(|shape| {
            bytes.len() - i >= shape.len()
                && shape.iter().zip(&bytes[i..]).all(|(s, b)| match s {
                    b'd' => b.is_ascii_digit(),
                    _ => s == b,
                })
        });
        if let Some(shape) = fits {
            out.push_str("[time]");
            i += shape.len();
        } else {
            let c = page[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The page's `<main>`, tidied: a diff points at the line that changed.
fn main_of(page: &str) -> String {
    let start = page.find("<main>").expect("the page has a <main>");
    let end = page.find("</main>").expect("the page closes its <main>");
    tidy(&page[start..end + "</main>".len()])
}

/// `html` one tag or text run a line as the template wrote it, indentation and blank lines
/// dropped.
fn tidy(html: &str) -> String {
    html.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn every_games_sheet_with_a_correction_an_undo_and_the_close() {
    for registration in registry::GAMES {
        let id = registration.game.id;
        let session = fullest_standing_case(id)
            .unwrap_or_else(|| panic!("{id}: no golden case that stands to snapshot"));
        let session = with_amendments(session);
        let app = TestApp::new().await;
        let doc: SessionDoc = serde_json::from_value(session).unwrap();
        let session_id = scorekeeper::service::import(&app.pool, &doc, None)
            .await
            .unwrap_or_else(|e| panic!("{id}: the amended session is refused: {e}"));
        let reply = app.get(&format!("/sessions/{session_id}")).await;
        assert_eq!(reply.status, 200, "{id}: {}", reply.body);
        let title = reply
            .body
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .unwrap();
        assert!(
            !title.contains('<'),
            "{id}: the title holds no markup: {title}"
        );
        assert_page_snapshot(id, &redact_times(&main_of(&reply.body)));
    }
}

/// The page's `<section id="next">` (the hand form under "Next hand"), tidied as
/// [`main_of`] does.
fn next_hand_of(page: &str) -> String {
    let start = page
        .find("<section id=\"next\">")
        .expect("an open session's sheet offers the next hand");
    let end = start
        + page[start..]
            .find("</section>")
            .expect("the section closes");
    tidy(&page[start..end + "</section>".len()])
}

/// Snapshot `name` under `tests/snapshots/` with its name as it was when each file of
/// `tests/` was a binary of its own (`sheet_snapshots__…`), not the module path
/// `app::sheet_snapshots` insta would prepend now. The assets' version, which changes with
/// every edit of a style or script, is written `[version]`.
fn assert_page_snapshot(name: &str, page: &str) {
    let version = format!("?v={}", scorekeeper::web::html::assets::version());
    let page = page.replace(&version, "?v=[version]");
    insta::with_settings!({
        snapshot_path => "../snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(format!("sheet_snapshots__{name}"), page);
    });
}

/// Every game's new-session form as it opens (players blank, every
/// agreement at the rules' default), and the blank hand form of the session those defaults
/// start, with the players of the game's golden case.
#[tokio::test]
async fn every_games_new_session_form_and_blank_hand_form() {
    for registration in registry::GAMES {
        let id = registration.game.id;
        let app = TestApp::new().await;
        let form = app.get(&format!("/sessions/new?game={id}")).await;
        assert_eq!(form.status, 200, "{id}: {}", form.body);
        assert_page_snapshot(&format!("{id}_new_session"), &main_of(&form.body));

        let case = fullest_standing_case(id).unwrap_or_else(|| panic!("{id}: no golden case"));
        let players: Vec<&str> = case["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let mut fields = form_values(&form.body, "main form[action=\"/sessions\"]");
        for (seat, name) in players.iter().enumerate() {
            let field = format!("player_{}", seat + 1);
            let slot = fields.iter_mut().find(|(k, _)| *k == field);
            slot.unwrap_or_else(|| panic!("{id}: no {field} for {name}"))
                .1 = (*name).to_string();
        }
        // Words the table must write (a house game's name) have no default: the golden
        // case's.
        for spec in registration.game.agreements {
            if let (SpecKind::Text, Some(words)) =
                (spec.kind, case["agreements"][spec.name].as_str())
                && let Some(slot) = fields
                    .iter_mut()
                    .find(|(k, _)| *k == format!("a.{}", spec.name))
            {
                slot.1 = words.to_string();
            }
        }
        let fields: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let created = app.post_form("/sessions", &fields).await;
        assert_eq!(
            created.status, 303,
            "{id}: the form's defaults start a session: {}",
            created.body
        );
        let sheet = app.get(created.location.as_deref().unwrap()).await;
        assert_eq!(sheet.status, 200, "{id}: {}", sheet.body);
        assert_page_snapshot(&format!("{id}_hand_form"), &next_hand_of(&sheet.body));
    }
}

/// The amounts of money in `page`'s text (markup and attribute values left out: a form's
/// `value="0.15"` is for the server, not a reader) that are not written the one way every
/// page writes money ([`scorekeeper::money::with_currency`]), and how
/// many amounts it holds. An amount is digits, a point and exactly two digits, not part of
/// a longer number ("1.234", "v1.20") and not a rule's section ("§1.11"). The one way: the
/// currency's symbol right before the digits ("$0.45", "€0.45", "£0.45"), after it at most
/// a sign, "+" or the minus U+2212, joined to it by U+2060 (so no line breaks between the
/// sign and the digits); or, for a currency without a symbol, the digits then a no-break
/// space and the code ("0.45 CHF"). A "¢" anywhere is a second way, and fails too. Nothing
/// is left out: the sheet's money columns write their amounts this way as well.
fn amounts_not_written_one_way(page: &str) -> (Vec<String>, usize) {
    let mut text = String::with_capacity(page.len());
    let mut in_tag = false;
    for c in page.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let chars: Vec<char> = text.chars().collect();
    let (mut bad, mut found) = (Vec::new(), 0);
    let context = |from: usize, to: usize| -> String {
        chars[from.saturating_sub(12)..(to + 6).min(chars.len())]
            .iter()
            .collect()
    };
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '.'));
        if !starts {
            if chars[i] == '¢' {
                bad.push(context(i, i));
            }
            i += 1;
            continue;
        }
        let digits = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let point = i + digits;
        let two = chars.get(point) == Some(&'.')
            && chars.get(point + 1).is_some_and(char::is_ascii_digit)
            && chars.get(point + 2).is_some_and(char::is_ascii_digit)
            && !chars.get(point + 3).is_some_and(|c| {
                c.is_ascii_alphanumeric()
                    || *c == '.' && chars.get(point + 4).is_some_and(char::is_ascii_digit)
            });
        if !two || (i > 0 && chars[i - 1] == '§') {
            i = point.max(i + 1);
            continue;
        }
        found += 1;
        let end = point + 3;
        let before = |k: usize| i.checked_sub(k).map(|j| chars[j]);
        let symbol = matches!(before(1), Some('$' | '€' | '£'));
        let signed =
            matches!(before(2), Some('\u{2060}')) && matches!(before(3), Some('+' | '\u{2212}'));
        let sign_ok = !matches!(before(2), Some('-' | '+' | '\u{2212}' | '\u{2060}')) || signed;
        let coded = chars.get(end) == Some(&'\u{a0}')
            && chars[end + 1..]
                .iter()
                .take_while(|c| c.is_ascii_uppercase())
                .count()
                == 3
            && !matches!(before(1), Some('-' | '+'));
        if !((symbol && sign_ok) || coded) {
            bad.push(context(i, end));
        }
        i = end;
    }
    (bad, found)
}

#[test]
fn the_amount_rule_tells_the_one_way_from_the_others() {
    let one = "<td>+\u{2060}$0.30<small>−\u{2060}$1.20</small></td> $0.00 0.05\u{a0}CHF \
               <input value=\"0.15\"> rules §1.11, bid 1.5, 1.234";
    assert_eq!(amounts_not_written_one_way(one), (vec![], 4));
    // A money column's cell is held to the same rule as any other amount.
    let column = "<td class=\"tally money\" data-account=\"A\">−0.45</td> and $0.45";
    assert_eq!(amounts_not_written_one_way(column).0.len(), 1);
    let column =
        "<td class=\"tally money\"><span>+\u{2060}$0.20</span><small>−\u{2060}$0.45</small></td>";
    assert_eq!(amounts_not_written_one_way(column), (vec![], 2));
    for other in [
        "0.30", "−0.30", "−$0.30", "-$0.30", "$-0.30", "5¢", "0.30 CHF",
    ] {
        let (bad, _) = amounts_not_written_one_way(other);
        assert_eq!(bad.len(), 1, "{other:?} passed");
    }
}

/// Every amount on every snapshot is written the one way. Reads the
/// stored snapshots themselves (so it fails on a page kept with another format, whichever
/// test wrote it) and needs no `../shared`: the nine sheets, each with amounts, and the
/// nine new-session forms and nine blank hand forms, whose few amounts (a
/// stake's hint, poker's chips) are held to the same rule.
#[test]
fn every_amount_on_every_snapshot_is_written_one_way() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let (mut sheets, mut forms, mut in_forms) = (0, 0, 0);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "snap") {
            continue;
        }
        let page = std::fs::read_to_string(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy();
        let form = stem.ends_with("_new_session") || stem.ends_with("_hand_form");
        let (bad, found) = amounts_not_written_one_way(&page);
        assert!(
            bad.is_empty(),
            "{}: {} of {found} amounts written another way: {bad:#?}",
            path.display(),
            bad.len()
        );
        if form {
            forms += 1;
            in_forms += found;
        } else {
            assert!(found > 0, "{}: no amount at all", path.display());
            sheets += 1;
        }
    }
    let games = registry::GAMES.len();
    assert!(sheets >= games, "one sheet snapshot per game: {sheets}");
    assert!(forms >= 2 * games, "two form snapshots per game: {forms}");
    assert!(in_forms > 0, "the forms' amounts were read: {in_forms}");
}
