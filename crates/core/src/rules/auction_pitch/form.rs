//! Auction Pitch's pages: new-session agreements, the agreements in words, and the hand
//! form (rules §1.4).

use serde::Deserialize;

use super::agreements::{Agreements, NegativeDifference, SmudgeRule, Variant};
use super::hand::{MAX_BID, Point, WrittenHand, WrittenPoints};
use crate::rules::game::{Choice, HandFormSpec, STAKE_DEFAULT};
use crate::rules::hand_form::{self, text, ticked, whole};
use crate::rules::{AgreementSpec, RuleError, SpecKind};

/// The agreements the new-session form offers, defaults filled in (rules §1.4).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "stake",
        label: "Stake per point of difference",
        kind: SpecKind::Money,
        default: STAKE_DEFAULT,
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
    let stake = crate::rules::game::stake_words(
        a.stake,
        currency,
        "points only",
        "a point of difference, paid to the winner of each game",
    );
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

/// The submitted hand form (`templates/games/auction_pitch/hand_form.html`).
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(default, deserialize_with = "text")]
    dealer: Option<String>,
    #[serde(default, deserialize_with = "ticked")]
    all_passed: bool,
    #[serde(default, deserialize_with = "text")]
    pitcher: Option<String>,
    #[serde(default, deserialize_with = "whole")]
    bid: Option<i64>,
    #[serde(default, rename = "points.high", deserialize_with = "text")]
    high: Option<String>,
    #[serde(default, rename = "points.low", deserialize_with = "text")]
    low: Option<String>,
    #[serde(default, rename = "points.jack", deserialize_with = "text")]
    jack: Option<String>,
    #[serde(default, rename = "points.game", deserialize_with = "text")]
    game: Option<String>,
    #[serde(default, deserialize_with = "text")]
    revoke_by: Option<String>,
}

impl hand_form::HandForm for Form {
    type Written = WrittenHand;

    /// Jack and Game may go to nobody, High and Low may not (rules §1.4).
    fn written(self) -> Result<WrittenHand, RuleError> {
        let dealer = self
            .dealer
            .ok_or_else(|| RuleError::new("dealer", "who dealt?"))?;
        let mut hand = WrittenHand {
            dealer,
            all_passed: self.all_passed,
            pitcher: None,
            bid: None,
            points: None,
            revoke_by: None,
        };
        if self.all_passed {
            // Enter in a filled-in form must never record "all passed".
            if self.pitcher.is_some() || self.bid.is_some() {
                return Err(RuleError::new(
                    "all_passed",
                    "All passed, but the form also has a pitcher or a bid: clear them, or press Enter the hand",
                ));
            }
            return Ok(hand);
        }
        hand.pitcher = Some(self.pitcher.ok_or_else(|| {
            RuleError::new(
                "pitcher",
                "who is the pitcher (won the bid)? If everyone passed, press All passed",
            )
        })?);
        hand.bid = Some(
            self.bid
                .ok_or_else(|| RuleError::new("bid", "what did the pitcher bid, 1 to 4?"))?,
        );
        let taker = |point: Point, taken: Option<String>| match taken.as_deref() {
            Some("nobody") => Ok(None),
            Some(_) => Ok(taken),
            None => {
                let field = format!("points.{}", point.id());
                let hint = match point {
                    Point::Jack => " Choose nobody if the jack of trumps was not dealt",
                    Point::Game => " Choose nobody if game count was tied",
                    Point::High | Point::Low => "",
                };
                Err(RuleError::new(
                    &field,
                    format!("who took {}?{hint}", point.word()),
                ))
            }
        };
        hand.points = Some(WrittenPoints {
            high: taker(Point::High, self.high)?,
            low: taker(Point::Low, self.low)?,
            jack: taker(Point::Jack, self.jack)?,
            game: taker(Point::Game, self.game)?,
        });
        hand.revoke_by = self.revoke_by;
        Ok(hand)
    }
}

/// What the hand form offers: bids 1–4 and the four points' takers (rules §1.4).
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Form;

    crate::rules::hand_form::form_tests!(super::super::AuctionPitch, Form);

    #[test]
    fn the_form_becomes_the_hand_as_the_session_document_writes_it() {
        let event = hand_event(
            b"dealer=Cy&pitcher=Ann&bid=2&points.high=Ann&points.low=Bob&points.jack=nobody&points.game=Ann&revoke_by=",
        )
        .unwrap();
        assert_eq!(
            event,
            json!({"type": "hand", "dealer": "Cy", "pitcher": "Ann", "bid": 2,
                   "points": {"high": "Ann", "low": "Bob", "jack": null, "game": "Ann"}})
        );
        let passed = hand_event(b"dealer=Cy&all_passed=true&pitcher=&bid=").unwrap();
        assert_eq!(
            passed,
            json!({"type": "hand", "dealer": "Cy", "all_passed": true})
        );
    }

    #[test]
    fn a_missing_or_unreadable_field_is_asked_for_by_name() {
        let e = hand_event(b"dealer=Cy&pitcher=Ann&bid=two").unwrap_err();
        assert_eq!(
            (e.field.to_string().as_str(), e.message.as_str()),
            ("bid", "\"two\" is not a whole number")
        );
        let e = hand_event(
            b"dealer=Cy&pitcher=Ann&bid=2&points.high=Ann&points.low=Ann&points.jack=Ann",
        )
        .unwrap_err();
        assert_eq!(e.field, "points.game");
        assert!(e.message.contains("tied"), "{}", e.message);
        let e = hand_event(b"dealer=Cy&all_passed=true&pitcher=Ann&bid=2").unwrap_err();
        assert_eq!(e.field, "all_passed");
        let e = hand_event(b"pitcher=Ann").unwrap_err();
        assert_eq!(e.field, "dealer");
    }
}
