//! The hand form's typed event folds exactly as the document's JSON does: every hand of
//! every worked case is turned into the form a scorer would submit (the correction form's
//! own pre-fill, [`form_values`]), read back by the game's form into its typed event, and
//! applied typed; the ledger must be the one `replay` makes from the document.

use scorekeeper_core::format::{SessionDoc, ledger, start};
use scorekeeper_core::rules::game::form_values;
use scorekeeper_core::rules::hand_form::FormHand;
use scorekeeper_core::rules::{GAMES, GameInfo, game};
use scorekeeper_core::session::Entry;
use serde_json::Value;

use crate::fixtures::{cases, rejected_at};

/// The hand `event` as its form submits it, read by the game's form; `None` for an event
/// no hand form makes (a payment, a close).
fn as_form(info: &GameInfo, event: &Value) -> Option<FormHand> {
    let mut pairs: Vec<(String, String)> = match info.id {
        "poker" => poker_form(event),
        _ => form_values(event).into_iter().collect(),
    };
    pairs.sort();
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish();
    (info.hand_from_form)(body.as_bytes()).ok()
}

/// A poker hand as its form names it: `put_in.<p>` (no ante tapped), `folded.<p>`,
/// `all_in.<p>`, `place.<p>` and `low.<p>` (1 = best), `cards.<p>`, `board`, `split`.
fn poker_form(event: &Value) -> Vec<(String, String)> {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let mut pairs = vec![("dealer".to_string(), text(&event["dealer"]))];
    for key in ["split", "board"] {
        if let Some(v) = event.get(key) {
            pairs.push((key.to_string(), text(v)));
        }
    }
    let named = |field: &str| event[field].as_object().cloned().unwrap_or_default();
    pairs.extend(
        named("contributions")
            .iter()
            .map(|(p, v)| (format!("put_in.{p}"), text(v))),
    );
    pairs.extend(
        named("cards")
            .iter()
            .map(|(p, v)| (format!("cards.{p}"), text(v))),
    );
    for (list, field) in [("folded", "folded"), ("all_in", "all_in")] {
        for p in event[list].as_array().into_iter().flatten() {
            pairs.push((format!("{field}.{}", text(p)), "on".into()));
        }
    }
    for (list, field) in [("showdown", "place"), ("showdown_low", "low")] {
        for (i, group) in event[list].as_array().into_iter().flatten().enumerate() {
            for p in group.as_array().into_iter().flatten() {
                pairs.push((format!("{field}.{}", text(p)), (i + 1).to_string()));
            }
        }
    }
    pairs
}

#[test]
fn a_hand_typed_by_its_form_folds_as_its_document_does() {
    let mut typed_per_game = std::collections::BTreeMap::<&str, usize>::new();
    for case in cases(GAMES.iter().map(|g| g.id)) {
        if rejected_at(&case.expect).is_some() {
            continue;
        }
        let doc: SessionDoc = serde_json::from_value(case.session.clone()).unwrap();
        let info = game(&doc.game).unwrap();
        let (mut written, mut typed) = (start(&doc).unwrap(), start(&doc).unwrap());
        for (index, event) in doc.events.iter().enumerate() {
            written.apply(index, event).unwrap();
            match as_form(info, event) {
                Some(hand) => {
                    typed.apply(index, Entry::Typed(&hand)).unwrap();
                    *typed_per_game.entry(info.id).or_default() += 1;
                }
                None => typed.apply(index, event).unwrap(),
            }
        }
        let (a, b) = (ledger(&doc, &written), ledger(&doc, &typed));
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            serde_json::to_value(&b).unwrap(),
            "{}: the typed hands' ledger differs",
            case.id
        );
    }
    // Every game's form makes at least some of its worked hands exactly.
    for g in GAMES {
        assert!(
            typed_per_game.get(g.id).copied().unwrap_or(0) > 0,
            "no hand of {} came through its form: {typed_per_game:?}",
            g.id
        );
    }
    eprintln!("hands applied typed per game: {typed_per_game:?}");
}
