//! What the pages need of Auction Pitch: the agreements the new-session form offers, the
//! agreements in words for the sheet, and the hand form read into a `hand` event (rules
//! §1.4, `design/session-format.md`).

use serde_json::{Map, Value};

use super::agreements::{Agreements, NegativeDifference, SmudgeRule, Variant};
use super::hand::{MAX_BID, Point};
use crate::rules::game::{Choice, HandFormSpec};
use crate::rules::{AgreementSpec, FormValues, RuleError, SpecKind};

/// The agreements the new-session form offers, defaults filled in (rules §1.4).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "stake",
        label: "Stake per point of difference",
        kind: SpecKind::Money,
        default: "0.05",
        help: "At the end of each game every other player pays the winner the difference in points times this; 0 plays for points only (rules §1.4 settlement).",
    },
    AgreementSpec {
        name: "target",
        label: "Game (points to win)",
        kind: SpecKind::Number,
        default: "11",
        help: "Scarne plays to 11; 7, 9, 10 or 21 by agreement (rules §1.4). Not used counting down.",
    },
    AgreementSpec {
        name: "variant",
        label: "Variant",
        kind: SpecKind::Choice(&[
            ("standard", "standard: count up to the game (Scarne)"),
            ("smudge", "smudge: all four points in one hand win"),
            ("countdown", "count-down: from the start to zero"),
        ]),
        default: "standard",
        help: "Smudge: taking High, Low, Jack and Game in one hand wins the game. Count-down: points won come off, a set-back goes on, first to zero wins (rules §1.4).",
    },
    AgreementSpec {
        name: "countdown_start",
        label: "Count-down start",
        kind: SpecKind::Number,
        default: "7",
        help: "Everyone starts here in the count-down variant (rules §1.4: 7).",
    },
    AgreementSpec {
        name: "smudge_rule",
        label: "Smudge rule",
        kind: SpecKind::Choice(&[
            ("wins_immediately", "a smudge wins at once"),
            ("not_in_hole", "not from the hole: the smudger goes to +4"),
        ]),
        default: "wins_immediately",
        help: "Regional rule: a smudger in the hole does not win; his minus is dropped and he stands at +4 (rules §1.4 Smudge).",
    },
    AgreementSpec {
        name: "negative_difference",
        label: "When the winner is behind a player",
        kind: SpecKind::Choice(&[
            ("clamp_zero", "that player pays nothing"),
            ("pay", "the winner pays him the difference"),
        ]),
        default: "clamp_zero",
        help: "The pitcher going out wins even if another player passed him on the same hand; the difference is then negative (rules §1.4 settlement).",
    },
    AgreementSpec {
        name: "dealer_may_steal",
        label: "Dealer may steal the bid",
        kind: SpecKind::Bool,
        default: "no",
        help: "Whether the dealer may take the bid at the current high bid; Scarne says no (rules §1.4 bidding). Written on the sheet only.",
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let stake = if a.stake.is_zero() {
        "none: points only".to_string()
    } else {
        format!(
            "{} {} a point of difference, paid to the winner of each game",
            a.stake, currency
        )
    };
    let game = match a.variant {
        Variant::Standard => format!("standard: first to {} points", a.target),
        Variant::Smudge => format!(
            "smudge: first to {} points, or all four points in one hand",
            a.target
        ),
        Variant::Countdown => format!(
            "count-down: from {} to zero; points won come off, a set-back goes on",
            a.countdown_start
        ),
    };
    let mut summary = vec![("Stake".into(), stake), ("Game".into(), game)];
    if a.variant == Variant::Smudge {
        summary.push((
            "Smudge".into(),
            match a.smudge_rule {
                SmudgeRule::WinsImmediately => "wins the game at once".into(),
                SmudgeRule::NotInHole => {
                    "wins unless the smudger is in the hole; then he goes to +4".into()
                }
            },
        ));
    }
    summary.push((
        "Winner behind a player".into(),
        match a.negative_difference {
            NegativeDifference::ClampZero => "that player pays nothing".into(),
            NegativeDifference::Pay => "the winner pays him the difference".into(),
        },
    ));
    summary.push((
        "Dealer may steal".into(),
        if a.dealer_may_steal { "yes" } else { "no" }.into(),
    ));
    summary
}

/// Reads the hand form into a `hand` event: Jack and Game may go to nobody, High and Low
/// may not (rules §1.4). Errors name the form's field and ask for what is missing.
pub fn hand_event(form: &FormValues) -> Result<Value, RuleError> {
    let ask = |field: &str, message: &str| RuleError::new(field, message);
    let mut event = Map::new();
    event.insert("type".into(), "hand".into());
    let dealer = form.required("dealer", "who dealt?")?;
    event.insert("dealer".into(), dealer.into());
    if form.ticked("all_passed") {
        event.insert("all_passed".into(), true.into());
        return Ok(Value::Object(event));
    }
    let pitcher = form.required(
        "pitcher",
        "who is the pitcher (won the bid)? If everyone passed, press All passed",
    )?;
    event.insert("pitcher".into(), pitcher.into());
    let bid = form
        .number("bid")?
        .ok_or_else(|| ask("bid", "what did the pitcher bid, 1 to 4?"))?;
    event.insert("bid".into(), bid.into());
    let mut points = Map::new();
    for point in Point::ORDER {
        let field = format!("points.{}", point.id());
        let taker = match form.given(&field) {
            Some("nobody") => Value::Null,
            Some(name) => Value::from(name),
            None if matches!(point, Point::Jack | Point::Game) => {
                return Err(ask(
                    &field,
                    &format!(
                        "who took {}? Choose nobody if {}",
                        point.word(),
                        if point == Point::Jack {
                            "the jack of trumps was not dealt"
                        } else {
                            "game count was tied"
                        }
                    ),
                ));
            }
            None => return Err(ask(&field, &format!("who took {}?", point.word()))),
        };
        points.insert(point.id().into(), taker);
    }
    event.insert("points".into(), Value::Object(points));
    if let Some(who) = form.given("revoke_by") {
        event.insert("revoke_by".into(), who.into());
    }
    Ok(Value::Object(event))
}

/// What the hand form offers: bids 1–4 (4 is the slam) and the four points, Jack and Game
/// with "nobody" (rules §1.4).
pub fn offer() -> HandFormSpec {
    HandFormSpec {
        min_bid: 1,
        lists: vec![
            (
                "bids",
                (1..=MAX_BID)
                    .map(|b| {
                        let label = if b == MAX_BID {
                            format!("{b} (slam)")
                        } else {
                            b.to_string()
                        };
                        Choice::new(b.to_string(), label)
                    })
                    .collect(),
            ),
            (
                "points",
                Point::ORDER
                    .into_iter()
                    .map(|p| Choice::new(p.id(), p.word()))
                    .collect(),
            ),
        ],
        note: None,
    }
}
