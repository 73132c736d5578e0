//! What the pages need of Partnership Auction Pinochle: the agreements the new-session form
//! offers, the agreements in words for the sheet, and the hand form read into a `hand`
//! event (rules §1.6, `design/session-format.md`).
//!
//! The hand form is short for the table: dealer, bidder, bid, trump, each side's meld as one
//! number, **one** side's trick points (the other side's are the rest of the 250, rules
//! §1.0), a tap for a side that won only pointless tricks, and an "All four passed" button.

use serde_json::{Map, Value};

use super::agreements::Agreements;
use crate::rules::game::{Choice, HandFormSpec, suit_choices};
use crate::rules::partnership::{ALL_TRICK_POINTS, Seating, Side};
use crate::rules::{AgreementSpec, FormValues, RuleError, SpecKind};

/// The agreements the new-session form offers, defaults filled in (rules §1.6, §3 item 27).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "stake",
        label: "Stake per game",
        kind: SpecKind::Money,
        default: "0.00",
        help: "When a game ends each loser pays this to his opposite number on the winning side; 0.00 keeps points only (session-format, money in the partnership games).",
    },
    AgreementSpec {
        name: "aeroplane",
        label: "Aeroplane (Scarne)",
        kind: SpecKind::Bool,
        default: "no",
        help: "Partnership Aeroplane Pinochle: minimum bid 250 and at most two bids each; the bidder and partner pass four cards (rules §1.6, S003).",
    },
    AgreementSpec {
        name: "min_bid",
        label: "Minimum bid",
        kind: SpecKind::Number,
        default: "",
        help: "Empty: 100 (Bicycle), or 250 with Aeroplane (rules §1.6).",
    },
    AgreementSpec {
        name: "target",
        label: "Game (points)",
        kind: SpecKind::Number,
        default: "1000",
        help: "The first side to reach it wins; the bidding side is counted first, so both sides never win together (rules §1.6).",
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let stake = if a.stake.is_zero() {
        "none: points only".to_string()
    } else {
        format!(
            "{} {currency} a game, each loser to his opposite number",
            a.stake
        )
    };
    let mut rows = vec![
        ("Stake".to_string(), stake),
        (
            "Game".to_string(),
            format!("{} points; the bidding side is counted first", a.target),
        ),
        ("Minimum bid".to_string(), a.min_bid.to_string()),
    ];
    rows.push((
        "Aeroplane".to_string(),
        if a.aeroplane {
            "yes: at most two bids each".to_string()
        } else {
            "no".to_string()
        },
    ));
    rows
}

/// What the hand form offers: the lowest bid, the suits, and each side with its players
/// (`max`: the trick points of a deal, 250).
pub fn offer(seating: &Seating, agreements: &Agreements) -> HandFormSpec {
    HandFormSpec {
        min_bid: agreements.min_bid,
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
        note: agreements.aeroplane.then(|| {
            format!(
                "Aeroplane: bids from {}, at most two bids each (rules §1.6).",
                agreements.min_bid
            )
        }),
    }
}

/// Reads the hand form into a `hand` event.
///
/// * The `all_passed` button sends `{type, dealer, all_passed: true}`; anything else filled
///   in is refused by name, so the button records exactly what the form shows.
/// * Otherwise `dealer`, `bidder`, `bid`, `trump` are required; per side `meld` (empty: 0)
///   and the `won_trick` tick; trick points are entered once, as `NS.tricks` (or
///   `EW.tricks`), and the other side gets the rest of the 250 (rules §1.0). When both are
///   sent both go into the event, where the engine checks that they add up.
///
/// Errors name the form's field and ask for what is missing.
pub fn hand_event(form: &FormValues) -> Result<Value, RuleError> {
    let mut event = Map::new();
    event.insert("type".into(), "hand".into());
    let dealer = form.required("dealer", "who dealt?")?;
    event.insert("dealer".into(), dealer.into());
    if form.ticked("all_passed") {
        let filled = [
            "bidder",
            "bid",
            "trump",
            "NS.meld",
            "EW.meld",
            "NS.tricks",
            "EW.tricks",
        ]
        .into_iter()
        .find(|f| form.given(f).is_some());
        if let Some(field) = filled {
            return Err(RuleError::new(
                field,
                "all four passed, so nobody bid and nothing was played: clear this, or enter the hand instead",
            ));
        }
        event.insert("all_passed".into(), true.into());
        return Ok(Value::Object(event));
    }
    for (field, question) in [
        ("bidder", "who won the bid? (or press All four passed)"),
        ("trump", "which suit is trump?"),
    ] {
        let v = form.required(field, question)?;
        event.insert(field.into(), v.into());
    }
    let bid = form
        .number("bid")?
        .ok_or_else(|| RuleError::new("bid", "what was the bid?"))?;
    event.insert("bid".into(), bid.into());
    let given = (form.number("NS.tricks")?, form.number("EW.tricks")?);
    let tricks = match given {
        (Some(ns), Some(ew)) => (ns, ew),
        (Some(ns), None) => (ns, rest("NS.tricks", ns)?),
        (None, Some(ew)) => (rest("EW.tricks", ew)?, ew),
        (None, None) => {
            return Err(RuleError::new(
                "NS.tricks",
                "enter NS's trick points (0 if none); EW take the rest of the 250",
            ));
        }
    };
    for (side, tricks) in [(Side::NS, tricks.0), (Side::EW, tricks.1)] {
        let name = side.name();
        let mut entry = Map::new();
        let meld = form.number(&format!("{name}.meld"))?.unwrap_or(0);
        entry.insert("meld".into(), meld.into());
        entry.insert("tricks".into(), tricks.into());
        // A tick only: left out, the engine reads it from the trick points.
        if form.ticked(&format!("{name}.won_trick")) {
            entry.insert("won_trick".into(), true.into());
        }
        event.insert(name.into(), Value::Object(entry));
    }
    Ok(Value::Object(event))
}

/// The other side's trick points: the rest of the 250 (rules §1.0). Errors name `field` when
/// the points entered are outside 0–250.
fn rest(field: &str, tricks: i64) -> Result<i64, RuleError> {
    if (0..=ALL_TRICK_POINTS).contains(&tricks) {
        Ok(ALL_TRICK_POINTS - tricks)
    } else {
        Err(RuleError::new(
            field,
            format!("{tricks} is outside 0–250, the trick points in one deal (rules §1.0)"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form(fields: &[(&str, &str)]) -> FormValues {
        FormValues(
            fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn one_sides_tricks_give_the_others() {
        // NS took 180 of the 250: EW took 70.
        let e = hand_event(&form(&[
            ("dealer", "W"),
            ("bidder", "N"),
            ("bid", "300"),
            ("trump", "hearts"),
            ("NS.meld", "140"),
            ("EW.meld", ""),
            ("NS.tricks", "180"),
        ]))
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "hand", "dealer": "W", "bidder": "N", "bid": 300, "trump": "hearts",
                   "NS": {"meld": 140, "tricks": 180}, "EW": {"meld": 0, "tricks": 70}})
        );
        // EW's entered instead: 250 − 250 = 0 for NS; a tick saves a pointless trick.
        let e = hand_event(&form(&[
            ("dealer", "W"),
            ("bidder", "E"),
            ("bid", "200"),
            ("trump", "clubs"),
            ("EW.tricks", "250"),
            ("NS.won_trick", "true"),
        ]))
        .unwrap();
        assert_eq!(e["NS"], json!({"meld": 0, "tricks": 0, "won_trick": true}));
        assert_eq!(e["EW"]["tricks"], json!(250));
    }

    #[test]
    fn all_four_passed_records_only_the_dealer() {
        let e = hand_event(&form(&[
            ("dealer", "N"),
            ("all_passed", "true"),
            ("bid", ""),
        ]))
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "hand", "dealer": "N", "all_passed": true})
        );
        let err = hand_event(&form(&[
            ("dealer", "N"),
            ("all_passed", "true"),
            ("bid", "250"),
        ]))
        .unwrap_err();
        assert_eq!(err.field, "bid");
    }

    #[test]
    fn missing_or_bad_fields_are_named() {
        let field = |f: &[(&str, &str)]| hand_event(&form(f)).unwrap_err().field;
        assert_eq!(field(&[]), "dealer");
        assert_eq!(field(&[("dealer", "W")]), "bidder");
        assert_eq!(
            field(&[("dealer", "W"), ("bidder", "N"), ("trump", "hearts")]),
            "bid"
        );
        let base = [
            ("dealer", "W"),
            ("bidder", "N"),
            ("trump", "hearts"),
            ("bid", "250"),
        ];
        assert_eq!(field(&base), "NS.tricks");
        assert_eq!(
            field(&[&base[..], &[("NS.tricks", "260")]].concat()),
            "NS.tricks"
        );
        assert_eq!(
            field(&[&base[..], &[("NS.tricks", "lots")]].concat()),
            "NS.tricks"
        );
        assert_eq!(
            field(&[&base[..], &[("NS.tricks", "100"), ("EW.meld", "x")]].concat()),
            "EW.meld"
        );
    }
}
