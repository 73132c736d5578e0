//! Partnership Pinochle's pages: new-session agreements, the agreements in words, and the
//! hand form read into a `hand` or `declare_out` (rules §1.5).
//!
//! One side's trick points are entered, the other's are the rest of 250; meld is one number
//! per side; dix holders are taps. A folded second form sends `type = declare_out`.

use std::collections::BTreeMap;

use super::Event;
use super::agreements::Agreements;
use super::hand::{WrittenClaim, WrittenDeal};
use super::sheet::num;
use crate::rules::game::{HandFormSpec, suit_choices};
use crate::rules::hand_form::{self, Boxes, choice, text, ticked, whole};
use crate::rules::partnership::{self, Seating};
use crate::rules::{AgreementSpec, RuleError, SpecKind, Suit};
use serde::Deserialize;

/// The agreements the new-session form offers, defaults filled in (rules §1.5, §3 item 26).
pub static AGREEMENTS: &[AgreementSpec] = &[
    partnership::stake_per_game(
        "When a game ends each player of the losing side pays this to his opposite number; $0.00 (the default) plays for points only (session-format; S002 names no stake, rules §1.5).",
    ),
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
        partnership::stake_row(a.stake, currency),
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

/// What the hand form offers: suits and sides; the note says when the target was raised.
pub fn offer(seating: &Seating, target: i64, agreed: i64) -> HandFormSpec {
    HandFormSpec {
        min_bid: 0,
        lists: vec![("suits", suit_choices()), ("sides", seating.side_choices())],
        note: (target != agreed).then(|| {
            format!(
                "Game is now {}: both sides reached the game on one deal (rules §1.5).",
                num(target)
            )
        }),
    }
}

/// The submitted hand form (`templates/games/partnership_pinochle/hand_form.html`): the
/// deal or the claim, told apart by `type`.
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(default, rename = "type", deserialize_with = "text")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "text")]
    dealer: Option<String>,
    #[serde(default, deserialize_with = "choice")]
    trump: Option<Suit>,
    #[serde(default, deserialize_with = "ticked")]
    turn_up_dix: bool,
    #[serde(default, deserialize_with = "text")]
    dix_both: Option<String>,
    #[serde(skip)]
    boxes: Boxes,
    #[serde(default, deserialize_with = "text")]
    claimant: Option<String>,
    #[serde(default, deserialize_with = "whole")]
    meld: Option<i64>,
    #[serde(default, deserialize_with = "whole")]
    tricks_so_far: Option<i64>,
    #[serde(default, deserialize_with = "ticked")]
    won_trick: bool,
    /// The rest of the form: the dix taps, read by name in [`Form::dix_holders`].
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

impl hand_form::HandForm for Form {
    type Written = Event;

    fn boxes(&mut self) -> Option<&mut Boxes> {
        Some(&mut self.boxes)
    }

    fn written(self) -> Result<Event, RuleError> {
        if self.kind.as_deref() == Some("declare_out") {
            return Ok(Event::DeclareOut(WrittenClaim {
                claimant: self
                    .claimant
                    .clone()
                    .ok_or_else(|| RuleError::new("claimant", "who declared out?"))?,
                meld: self.meld.unwrap_or(0),
                tricks_so_far: self.tricks_so_far.unwrap_or(0),
                won_trick: self.won_trick.then_some(true),
            }));
        }
        let (ns, ew) = self
            .boxes
            .sides("enter one side's trick points; the other side's are 250 minus them")?;
        Ok(Event::Hand(WrittenDeal {
            dealer: self
                .dealer
                .clone()
                .ok_or_else(|| RuleError::new("dealer", "who dealt?"))?,
            trump: self.trump.ok_or_else(|| {
                RuleError::new(
                    "trump",
                    "which suit is trump (the dealer's turned-up card)?",
                )
            })?,
            turn_up_dix: self.turn_up_dix,
            dix_holders: self.dix_holders()?,
            ns,
            ew,
        }))
    }
}

impl Form {
    /// The dix holders from `dix_holders.<player>` (ticked, or 1 or 2) and `dix_both`.
    fn dix_holders(&self) -> Result<Vec<String>, RuleError> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for (key, value) in &self.rest {
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
        if let Some(both) = &self.dix_both {
            counts.insert(both.clone(), 2);
        }
        Ok(counts
            .into_iter()
            .flat_map(|(p, n)| std::iter::repeat_n(p, n))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    use crate::rules::hand_form::form_body as body;

    fn event(pairs: &[(&str, &str)]) -> Result<Value, RuleError> {
        hand_form::hand_event::<super::super::PartnershipPinochle, Form>(&body(pairs))
    }

    #[test]
    fn one_sides_tricks_give_the_others() {
        let e = event(&[
            ("expected_events", "3"),
            ("type", "hand"),
            ("dealer", "N"),
            ("trump", "hearts"),
            ("turn_up_dix", "true"),
            ("dix_holders.S", "1"),
            ("dix_both", ""),
            ("NS.meld", "120"),
            ("EW.meld", "80"),
            ("NS.tricks", "160"),
            ("EW.tricks", ""),
        ])
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "hand", "dealer": "N", "trump": "hearts", "turn_up_dix": true,
                   "dix_holders": ["S"],
                   "NS": {"meld": 120, "tricks": 160}, "EW": {"meld": 80, "tricks": 90}})
        );
        let e = event(&[
            ("dealer", "N"),
            ("trump", "spades"),
            ("EW.tricks", "0"),
            ("EW.won_trick", "true"),
            ("dix_both", "W"),
        ])
        .unwrap();
        assert_eq!(e["NS"], json!({"meld": 0, "tricks": 250}));
        assert_eq!(e["EW"], json!({"meld": 0, "tricks": 0, "won_trick": true}));
        assert_eq!(e["dix_holders"], json!(["W", "W"]));
        assert_eq!(e["turn_up_dix"], json!(false));
    }

    #[test]
    fn a_correction_fills_the_form_back_to_the_same_event() {
        let written = json!({"type": "hand", "dealer": "E", "trump": "clubs", "turn_up_dix": true,
                             "dix_holders": ["N", "N"],
                             "NS": {"meld": 60, "tricks": 100}, "EW": {"meld": 40, "tricks": 150}});
        let values = crate::rules::game::form_values(&written);
        let pairs: Vec<(&str, &str)> = values
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(event(&pairs).unwrap(), written);
    }

    #[test]
    fn missing_and_impossible_entries_name_the_field() {
        let field = |pairs: &[(&str, &str)]| event(pairs).unwrap_err().field;
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
            field(&[("dealer", "N"), ("trump", "stars"), ("NS.tricks", "100")]),
            "trump"
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
        assert_eq!(
            field(&[
                ("type", "declare_out"),
                ("claimant", "N"),
                ("meld", "a lot")
            ]),
            "meld"
        );
    }

    #[test]
    fn the_declare_out_form_sends_a_claim() {
        let e = event(&[
            ("expected_events", "4"),
            ("type", "declare_out"),
            ("claimant", "N"),
            ("meld", "100"),
            ("tricks_so_far", "60"),
        ])
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "declare_out", "claimant": "N", "meld": 100, "tricks_so_far": 60})
        );
        let e = event(&[
            ("type", "declare_out"),
            ("claimant", "E"),
            ("won_trick", "true"),
        ])
        .unwrap();
        assert_eq!(e["won_trick"], json!(true));
    }
}
