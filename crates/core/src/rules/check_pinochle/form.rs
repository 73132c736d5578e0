//! Check Pinochle's pages: new-session agreements, the agreements in words, and the hand
//! form (rules §1.7).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::agreements::{Agreements, Settlement, Unfinished};
use super::checks::{GameAward, MIN_BID, MeldCheck};
use super::hand::{WrittenHand, WrittenSide};
use crate::rules::game::{Choice, HandFormSpec, STAKE_DEFAULT, suit_choices};
use crate::rules::hand_form::{self, Boxes, ticked};
use crate::rules::partnership::{Seating, Side};
use crate::rules::{AgreementSpec, Field, RuleError, SpecKind};

/// The agreements the new-session form offers, defaults filled in (rules §1.7).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "stake",
        label: "Stake per check",
        kind: SpecKind::Money,
        default: STAKE_DEFAULT,
        help: "The side with more checks when a game ends is paid the difference × this; Scarne suggests $0.05; $0.00 (the default) plays for points only (rules §1.7).",
    },
    AgreementSpec {
        name: "check_table",
        label: "Check table",
        kind: SpecKind::Choice(&[(
            "hoyle",
            "hoyle: make 200–240 = 2 … 550–590 = 30, defeat twice (Bicycle)",
        )]),
        default: "hoyle",
        help: "Every Hoyle number is sourced (rules §1.7). Scarne's table needs its 200–590 bands written out (make_checks) and a custom table its own bands: start those sessions from a session document (the API).",
    },
    AgreementSpec {
        name: "game_award",
        label: "Game award",
        kind: SpecKind::Choice(&[
            ("scarne", "scarne: 7 checks"),
            (
                "hoyle",
                "hoyle: 10 + 1 per 100 of the margin + 5 if the losers are minus",
            ),
            ("time1940", "time1940: 15 checks"),
        ]),
        default: "scarne",
        help: "Checks for winning a game (rules §1.7, §3 item 20).",
    },
    AgreementSpec {
        name: "target",
        label: "Game (points)",
        kind: SpecKind::Number,
        default: "1000",
        help: "The first side to reach it wins the game; if both do on one hand, the bidders win (rules §1.7).",
    },
    AgreementSpec {
        name: "settlement",
        label: "Who pays whom",
        kind: SpecKind::Choice(&[
            (
                "per_player",
                "per player: each loser pays his opposite number",
            ),
            (
                "per_partnership",
                "per partnership: the difference once, split",
            ),
        ]),
        default: "per_player",
        help: "Per player: each loser pays the difference × stake to one opponent (rules §1.7, §3 item 24).",
    },
    AgreementSpec {
        name: "meld_needs_trick",
        label: "Meld and meld checks need a trick",
        kind: SpecKind::Bool,
        default: "yes",
        help: "A side that wins no trick loses its meld and its meld checks (rules §1.7, §3 item 22).",
    },
    AgreementSpec {
        name: "slam_and_count_cumulative",
        label: "All 12 tricks and all 250 count add up",
        kind: SpecKind::Bool,
        default: "yes",
        help: "When both happen on one hand, both awards count; no gives only the larger (rules §1.7, §3 item 23).",
    },
    AgreementSpec {
        name: "roundhouse_includes_kings_queens_checks",
        label: "A roundhouse also earns the 80 kings and 60 queens checks",
        kind: SpecKind::Bool,
        default: "no",
        help: "By default the roundhouse's checks replace them (rules §1.7, §3 item 21).",
    },
    AgreementSpec {
        name: "unfinished_game",
        label: "A game still open at the close",
        kind: SpecKind::Choice(&[
            ("settle", "settle: its checks are paid as they stand"),
            ("void", "void: nothing is paid for it"),
        ]),
        default: "settle",
        help: "Neither source says; settling pays every check won, without a game award (rules §1.7).",
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    let meld_checks = MeldCheck::ALL
        .iter()
        .map(|m| format!("{} {}", m.words(), a.meld_checks.get(*m)))
        .collect::<Vec<_>>()
        .join(", ");
    let mut table = format!(
        "{}: make/defeat {}; all 12 tricks {}",
        a.table.name,
        bands_words(a),
        a.table.slam
    );
    if a.table.all_count > 0 {
        table.push_str(&format!("; all 250 count {}", a.table.all_count));
    }
    let game_award = match a.game_award {
        GameAward::Scarne => "scarne: 7 checks".to_string(),
        GameAward::Hoyle => {
            "hoyle: 10 + 1 per 100 points (or part) of the margin + 5 if the losers are minus"
                .to_string()
        }
        GameAward::Time1940 => "time1940: 15 checks".to_string(),
        GameAward::Fixed(n) => format!("{n} checks"),
    };
    let settlement = match a.settlement {
        Settlement::PerPlayer => {
            "per player: each loser pays his opposite number the difference × stake"
        }
        Settlement::PerPartnership => {
            "per partnership: the difference × stake once, each partner half"
        }
    };
    let unfinished = match a.unfinished_game {
        Unfinished::Settle => "its checks are paid as they stand",
        Unfinished::Void => "nothing is paid for it",
    };
    vec![
        (
            "Stake".into(),
            format!("{} a check", a.stake.shown(currency)),
        ),
        ("Game".into(), format!("{} points", a.target)),
        ("Check table".into(), table),
        ("Meld checks".into(), meld_checks),
        ("Game award".into(), game_award),
        ("Who pays".into(), settlement.into()),
        ("Meld needs a trick".into(), yes_no(a.meld_needs_trick)),
        (
            "Slam and count".into(),
            if a.slam_and_count_cumulative {
                "both count when both happen".to_string()
            } else {
                "only the larger when both happen".to_string()
            },
        ),
        (
            "Roundhouse".into(),
            if a.roundhouse_includes_kings_queens {
                "also earns the 80 kings and 60 queens checks".to_string()
            } else {
                "its checks replace the 80 kings and 60 queens checks".to_string()
            },
        ),
        (
            "Open at close".into(),
            format!("a game still open: {unfinished}"),
        ),
    ]
}

/// The agreed contract bands in words, `"200–240 2/4"` (make/defeat), up to 600–640.
fn bands_words(agreements: &Agreements) -> String {
    let table = &agreements.table;
    let mut bands: Vec<(String, i64, i64)> = Vec::new();
    for bid in (MIN_BID..=640).step_by(10) {
        let label = table.band_label(bid);
        if bands.last().is_none_or(|b| b.0 != label) {
            bands.push((label, table.make_checks(bid), table.defeat_checks(bid)));
        }
    }
    let open_ended = bands.last().is_some_and(|b| b.0.ends_with("or over"));
    let mut words = bands
        .iter()
        .map(|(label, make, defeat)| format!("{label} {make}/{defeat}"))
        .collect::<Vec<_>>()
        .join(", ");
    if !open_ended {
        words.push_str(", …");
    }
    words
}

/// What the hand form offers: minimum bid, suits, sides, check melds with their maxima.
pub fn offer(seating: &Seating) -> HandFormSpec {
    HandFormSpec {
        min_bid: MIN_BID,
        lists: vec![
            ("suits", suit_choices()),
            ("sides", seating.side_choices()),
            (
                "meld_checks",
                MeldCheck::ALL
                    .iter()
                    .map(|m| Choice {
                        max: m.most_per_deal() as i64,
                        ..Choice::new(m.id(), m.words())
                    })
                    .collect(),
            ),
        ],
        note: None,
    }
}

/// The submitted hand form (`templates/games/check_pinochle/hand_form.html`).
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(skip)]
    boxes: Boxes,
    #[serde(default, deserialize_with = "ticked")]
    dealer_forced: bool,
    /// The rest of the form: the check-meld counts, read by name in [`Form::side`].
    #[serde(flatten)]
    counts: BTreeMap<String, String>,
}

/// The trick points of a deal, both sides together (rules §1.7).
const TRICK_POINTS: i64 = 250;

impl hand_form::HandForm for Form {
    type Written = WrittenHand;

    fn boxes(&mut self) -> Option<&mut Boxes> {
        Some(&mut self.boxes)
    }

    fn written(self) -> Result<WrittenHand, RuleError> {
        let b = &self.boxes;
        // One side's trick points suffice: the other took the rest of 250 (rules §1.7).
        let (ns_tricks, ew_tricks) = match (b.ns_tricks, b.ew_tricks) {
            (Some(ns), None) => (Some(ns), TRICK_POINTS.checked_sub(ns)),
            (None, Some(ew)) => (TRICK_POINTS.checked_sub(ew), Some(ew)),
            both => both,
        };
        Ok(WrittenHand {
            dealer: b.dealer()?,
            bidder: hand_form::asked(b.bidder.clone(), "bidder", "who won the bid?")?,
            bid: b.bid()?,
            trump: b.trump()?,
            dealer_forced: self.dealer_forced,
            ns: self.side(
                Side::NS,
                b.ns_meld,
                ns_tricks,
                b.ns_won_trick,
                b.ns_all_tricks,
            )?,
            ew: self.side(
                Side::EW,
                b.ew_meld,
                ew_tricks,
                b.ew_won_trick,
                b.ew_all_tricks,
            )?,
        })
    }
}

impl Form {
    /// One side's part; boxes only when ticked (the engine reads them from the tricks).
    fn side(
        &self,
        side: Side,
        meld: Option<i64>,
        tricks: Option<i64>,
        won_trick: bool,
        all_tricks: bool,
    ) -> Result<WrittenSide, RuleError> {
        let name = side.name();
        let mut meld_checks = Vec::new();
        for meld in MeldCheck::ALL {
            let field = Field::of_side(name, "meld_checks").then(meld.id());
            meld_checks.extend(std::iter::repeat_n(meld, self.meld_count(&field)?));
        }
        Ok(WrittenSide {
            meld: meld.unwrap_or(0),
            meld_checks,
            tricks: tricks.ok_or_else(|| {
                RuleError::new(
                    Field::of_side(name, "tricks"),
                    format!("enter {name}'s trick points (0 if none)"),
                )
            })?,
            won_trick: won_trick.then_some(true),
            all_tricks: all_tricks.then_some(true),
        })
    }

    /// A number of check-bearing melds: empty means none.
    fn meld_count(&self, field: &Field) -> Result<usize, RuleError> {
        let Some(text) = self
            .counts
            .get(field.as_str())
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
        else {
            return Ok(0);
        };
        text.parse::<usize>()
            .ok()
            .filter(|n| *n <= 99)
            .ok_or_else(|| RuleError::new(field, format!("\"{text}\" is not a number of melds")))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Form;

    crate::rules::hand_form::form_tests!(super::super::CheckPinochle, Form);

    #[test]
    fn the_form_becomes_the_hand_as_the_session_document_writes_it() {
        let event = hand_event(
            b"dealer=Dan&bidder=Ann&bid=250&trump=hearts&NS.meld=140&NS.tricks=180\
              &NS.meld_checks.aces_100=2&NS.meld_checks.flush=&NS.won_trick=true\
              &EW.meld=60&EW.tricks=70&EW.meld_checks.queens_60=1&expected_events=3",
        )
        .unwrap();
        assert_eq!(
            event,
            json!({"type": "hand", "dealer": "Dan", "bidder": "Ann", "bid": 250,
                   "trump": "hearts",
                   "NS": {"meld": 140, "meld_checks": ["aces_100", "aces_100"], "tricks": 180,
                          "won_trick": true},
                   "EW": {"meld": 60, "meld_checks": ["queens_60"], "tricks": 70}})
        );
    }

    #[test]
    fn one_sides_trick_points_give_the_others() {
        // NS took 180 of the 250: EW took 70; and the other way round.
        let event =
            hand_event(b"dealer=Dan&bidder=Ann&bid=250&trump=hearts&NS.tricks=180").unwrap();
        assert_eq!(
            (event["NS"]["tricks"].clone(), event["EW"]["tricks"].clone()),
            (json!(180), json!(70))
        );
        let event =
            hand_event(b"dealer=Dan&bidder=Ann&bid=250&trump=hearts&EW.tricks=250").unwrap();
        assert_eq!(
            (event["NS"]["tricks"].clone(), event["EW"]["tricks"].clone()),
            (json!(0), json!(250))
        );
    }

    #[test]
    fn a_missing_or_unreadable_field_is_asked_for_by_name() {
        let e = hand_event(b"dealer=Dan&bidder=Ann&bid=250&trump=hearts").unwrap_err();
        assert_eq!(e.field, "NS.tricks");
        let e = hand_event(
            b"dealer=Dan&bidder=Ann&bid=250&trump=hearts&NS.tricks=180&EW.tricks=70&EW.meld_checks.flush=x",
        )
        .unwrap_err();
        assert_eq!(
            (e.field.to_string().as_str(), e.message.as_str()),
            ("EW.meld_checks.flush", "\"x\" is not a number of melds")
        );
        let e = hand_event(b"dealer=Dan&bidder=Ann&bid=250&trump=hearts&NS.meld=1e3").unwrap_err();
        assert_eq!(e.field, "NS.meld");
    }
}
