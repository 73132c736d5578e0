//! What the pages need of Partnership Pinochle: the agreements the new-session form offers,
//! the agreements in words for the sheet, and the hand form read into a `hand` or
//! `declare_out` event (rules §1.5, `design/session-format.md`).
//!
//! The hand form is built for the table: one side's trick points are entered and the other
//! side's are 250 minus them; meld is one number per side; the dix holders are taps (a tick
//! per player, and a choice for the rare player who held both). The same template holds a
//! second, folded form for a player who declares out; it sends `type = declare_out`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::agreements::Agreements;
use super::sheet::num;
use crate::rules::game::{Choice, HandFormSpec, suit_choices};
use crate::rules::partnership::{ALL_TRICK_POINTS, Seating, Side};
use crate::rules::{AgreementSpec, FormValues, RuleError, SpecKind};

/// The agreements the new-session form offers, defaults filled in (rules §1.5, §3 item 26).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "stake",
        label: "Stake per game",
        kind: SpecKind::Money,
        default: "0.50",
        help: "When a game ends each player of the losing side pays this to his opposite number (session-format; S002 names no stake, rules §1.5).",
    },
    AgreementSpec {
        name: "target",
        label: "Game (points)",
        kind: SpecKind::Number,
        default: "1000",
        help: "The first side to reach it wins the game (rules §1.5).",
    },
    AgreementSpec {
        name: "target_step",
        label: "Game rises by (points)",
        kind: SpecKind::Number,
        default: "250",
        help: "When both sides reach the game on one deal, nobody wins yet and the game goes on to this much more: 1,250, then 1,500 (rules §1.5).",
    },
    AgreementSpec {
        name: "holder_dix_needs_trick",
        label: "A held dix counts only with a trick",
        kind: SpecKind::Bool,
        default: "yes",
        help: "Each original holder of a dix scores 10; yes treats it as a meld, lost when his side wins no trick (rules §1.5, §3 item 26).",
    },
    AgreementSpec {
        name: "turn_up_dix_needs_trick",
        label: "A turned-up dix counts only with a trick",
        kind: SpecKind::Bool,
        default: "no",
        help: "The dealer scores 10 when he turns up a dix; no scores it whatever happens in play (rules §1.5, §3 item 26).",
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let needs = |b: bool| {
        if b {
            "counts only if the side wins a trick"
        } else {
            "counts even without a trick"
        }
        .to_string()
    };
    vec![
        (
            "Stake".into(),
            format!(
                "{} {currency} a game: each loser pays his opposite number",
                a.stake
            ),
        ),
        (
            "Game".into(),
            format!(
                "{} points; {} more each time both sides reach it on one deal",
                num(a.target),
                num(a.target_step)
            ),
        ),
        ("Held dix".into(), needs(a.holder_dix_needs_trick)),
        ("Turned-up dix".into(), needs(a.turn_up_dix_needs_trick)),
        (
            "Open at close".into(),
            "a game still open pays nothing".into(),
        ),
    ]
}

/// What the hand form offers: the suits and each side with its players. The note says when
/// the game in force is above the agreed one (both sides passed it on one deal).
pub fn offer(seating: &Seating, target: i64, agreed: i64) -> HandFormSpec {
    HandFormSpec {
        min_bid: 0,
        lists: vec![
            ("suits", suit_choices()),
            (
                "sides",
                Side::BOTH
                    .iter()
                    .map(|&s| Choice {
                        max: ALL_TRICK_POINTS,
                        ..Choice::new(s.name(), seating.members(s).join(" & "))
                    })
                    .collect(),
            ),
        ],
        note: (target != agreed).then(|| {
            format!(
                "Game is now {}: both sides reached the game on one deal (rules §1.5).",
                num(target)
            )
        }),
    }
}

/// Reads the hand form into an event: `declare_out` when the form says `type =
/// declare_out`, else a `hand`. Errors name the form's field and ask for what is missing.
pub fn hand_event(form: &FormValues) -> Result<Value, RuleError> {
    if form.given("type") == Some("declare_out") {
        return claim_event(form);
    }
    let mut event = Map::new();
    event.insert("type".into(), "hand".into());
    for (field, question) in [
        ("dealer", "who dealt?"),
        (
            "trump",
            "which suit is trump (the dealer's turned-up card)?",
        ),
    ] {
        let v = form.required(field, question)?;
        event.insert(field.into(), v.into());
    }
    if form.ticked("turn_up_dix") && form.given("turn_up_dix") != Some("false") {
        event.insert("turn_up_dix".into(), true.into());
    }
    event.insert("dix_holders".into(), dix_holders(form)?);
    let tricks = tricks(form)?;
    for side in Side::BOTH {
        let name = side.name();
        let field = |f: &str| format!("{name}.{f}");
        let mut entry = Map::new();
        entry.insert(
            "meld".into(),
            form.number(&field("meld"))?.unwrap_or(0).into(),
        );
        entry.insert("tricks".into(), tricks[side_index(side)].into());
        if form.ticked(&field("won_trick")) && form.given(&field("won_trick")) != Some("false") {
            entry.insert("won_trick".into(), true.into());
        }
        event.insert(name.into(), Value::Object(entry));
    }
    Ok(Value::Object(event))
}

fn side_index(side: Side) -> usize {
    match side {
        Side::NS => 0,
        Side::EW => 1,
    }
}

/// The trick points of both sides, NS first: the side entered, and the other 250 minus it
/// when left empty (both may be entered; the rules then check they make 250).
fn tricks(form: &FormValues) -> Result<[i64; 2], RuleError> {
    let ns = form.number("NS.tricks")?;
    let ew = form.number("EW.tricks")?;
    let in_range = |field: &str, v: i64| {
        if (0..=ALL_TRICK_POINTS).contains(&v) {
            Ok(v)
        } else {
            Err(RuleError::new(
                field,
                format!("{v} is outside 0–250, the trick points in one deal (rules §1.0)"),
            ))
        }
    };
    match (ns, ew) {
        (Some(ns), Some(ew)) => Ok([ns, ew]),
        (Some(ns), None) => Ok([ns, ALL_TRICK_POINTS - in_range("NS.tricks", ns)?]),
        (None, Some(ew)) => Ok([ALL_TRICK_POINTS - in_range("EW.tricks", ew)?, ew]),
        (None, None) => Err(RuleError::new(
            "NS.tricks",
            "enter one side's trick points; the other side's are 250 minus them",
        )),
    }
}

/// The dix holders from the taps: `dix_holders.<player>` ticked (or a count, 1 or 2, as a
/// correction fills it in) and `dix_both` naming a player who held both. Names in
/// alphabetical order (the order does not matter to the score).
fn dix_holders(form: &FormValues) -> Result<Value, RuleError> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (key, value) in &form.0 {
        let Some(player) = key.strip_prefix("dix_holders.") else {
            continue;
        };
        let n = match value.trim() {
            "" | "0" | "false" => 0,
            "1" | "true" | "on" => 1,
            "2" => 2,
            other => {
                return Err(RuleError::new(
                    key.as_str(),
                    format!("\"{other}\" is not a number of dixes (0, 1 or 2)"),
                ));
            }
        };
        if n > 0 {
            counts.insert(player.to_string(), n);
        }
    }
    if let Some(both) = form.given("dix_both") {
        counts.insert(both.to_string(), 2);
    }
    let list: Vec<Value> = counts
        .into_iter()
        .flat_map(|(p, n)| std::iter::repeat_n(Value::from(p), n))
        .collect();
    Ok(Value::Array(list))
}

/// The declare-out form: claimant, the side's meld this deal with its dix 10s, trick points
/// so far, and a tick when the side has won only pointless tricks.
fn claim_event(form: &FormValues) -> Result<Value, RuleError> {
    let mut event = Map::new();
    event.insert("type".into(), "declare_out".into());
    let claimant = form.required("claimant", "who declared out?")?;
    event.insert("claimant".into(), claimant.into());
    event.insert("meld".into(), form.number("meld")?.unwrap_or(0).into());
    event.insert(
        "tricks_so_far".into(),
        form.number("tricks_so_far")?.unwrap_or(0).into(),
    );
    if form.ticked("won_trick") && form.given("won_trick") != Some("false") {
        event.insert("won_trick".into(), true.into());
    }
    Ok(Value::Object(event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form(pairs: &[(&str, &str)]) -> FormValues {
        FormValues(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn one_sides_tricks_give_the_others() {
        let e = hand_event(&form(&[
            ("dealer", "N"),
            ("trump", "hearts"),
            ("turn_up_dix", "true"),
            ("dix_holders.S", "true"),
            ("NS.meld", "120"),
            ("EW.meld", "80"),
            ("NS.tricks", "160"),
        ]))
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "hand", "dealer": "N", "trump": "hearts", "turn_up_dix": true,
                   "dix_holders": ["S"],
                   "NS": {"meld": 120, "tricks": 160}, "EW": {"meld": 80, "tricks": 90}})
        );
        let e = hand_event(&form(&[
            ("dealer", "N"),
            ("trump", "spades"),
            ("EW.tricks", "0"),
            ("EW.won_trick", "true"),
            ("dix_both", "W"),
        ]))
        .unwrap();
        assert_eq!(e["NS"], json!({"meld": 0, "tricks": 250}));
        assert_eq!(e["EW"], json!({"meld": 0, "tricks": 0, "won_trick": true}));
        assert_eq!(e["dix_holders"], json!(["W", "W"]));
    }

    #[test]
    fn a_correction_fills_the_form_back_to_the_same_event() {
        let event = json!({"type": "hand", "dealer": "E", "trump": "clubs", "turn_up_dix": true,
                           "dix_holders": ["N", "N"],
                           "NS": {"meld": 60, "tricks": 100}, "EW": {"meld": 40, "tricks": 150}});
        let back = hand_event(&crate::rules::game::form_values(&event)).unwrap();
        assert_eq!(back, event);
    }

    #[test]
    fn missing_and_impossible_entries_name_the_field() {
        let field = |pairs: &[(&str, &str)]| hand_event(&form(pairs)).unwrap_err().field;
        assert_eq!(
            field(&[("trump", "hearts"), ("NS.tricks", "100")]),
            "dealer"
        );
        assert_eq!(field(&[("dealer", "N"), ("NS.tricks", "100")]), "trump");
        assert_eq!(field(&[("dealer", "N"), ("trump", "hearts")]), "NS.tricks");
        assert_eq!(
            field(&[("dealer", "N"), ("trump", "hearts"), ("EW.tricks", "300")]),
            "EW.tricks"
        );
        assert_eq!(
            field(&[("dealer", "N"), ("trump", "hearts"), ("NS.tricks", "x")]),
            "NS.tricks"
        );
        assert_eq!(
            field(&[
                ("dealer", "N"),
                ("trump", "hearts"),
                ("NS.tricks", "100"),
                ("dix_holders.S", "3")
            ]),
            "dix_holders.S"
        );
        assert_eq!(field(&[("type", "declare_out")]), "claimant");
    }

    #[test]
    fn the_declare_out_form_sends_a_claim() {
        let e = hand_event(&form(&[
            ("type", "declare_out"),
            ("claimant", "N"),
            ("meld", "100"),
            ("tricks_so_far", "60"),
        ]))
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "declare_out", "claimant": "N", "meld": 100, "tricks_so_far": 60})
        );
    }
}
