//! Contract Pinochle's pages: new-session agreements, the agreements in words, and the
//! hand form (rules §1.8): dealer, bidder, bid, trump, doubled and outcome, plus "All
//! passed".

use serde::Deserialize;

use super::agreements::Agreements;
use super::hand::{Doubled, HandOutcome, MIN_BID, WrittenHand};
use crate::rules::game::{Choice, HandFormSpec, suit_choices};
use crate::rules::hand_form::{self, Boxes, choice};
use crate::rules::partnership;
use crate::rules::{AgreementSpec, RuleError, SpecKind};

/// The agreements the new-session form offers, defaults filled in (rules §1.8, §3 item 28).
pub static AGREEMENTS: &[AgreementSpec] = &[
    partnership::stake_per_game(
        "When a game ends, each player of the losing side pays this to his opposite number on the winning side; a game unfinished at the close pays nothing; $0.00 (the default) plays for points only (session-format).",
    ),
    AgreementSpec {
        name: "target",
        label: "Game (points)",
        kind: SpecKind::Number,
        default: "3000",
        help: "The first side to reach it wins; only one side scores on a hand, so both never reach it together (rules §1.8).",
    },
    AgreementSpec {
        name: "double_survives_overcall",
        label: "A double stays after a higher bid",
        kind: SpecKind::Bool,
        default: "no",
        help: "No: a double or redouble counts only if the doubled bid is the final contract. Yes: it stays on a higher bid by the doubled side, never on the doublers' own bid (rules §1.8, §3 item 28).",
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    vec![
        partnership::stake_row(a.stake, currency),
        ("Game".into(), format!("{} points", a.target)),
        (
            "Scoring".into(),
            "only one side scores: bid × 1, 2 or 4 (undoubled, doubled, redoubled); half of that on a concession before the lead".into(),
        ),
        (
            "Double after a higher bid".into(),
            if a.double_survives_overcall {
                "stays on a higher bid by the doubled side".into()
            } else {
                "cancelled: it counts only on the final contract".into()
            },
        ),
    ]
}

/// What the hand form offers: lowest bid, suits, doublings, outcomes with their scores.
pub fn offer() -> HandFormSpec {
    HandFormSpec {
        min_bid: MIN_BID,
        lists: vec![
            ("suits", suit_choices()),
            (
                "doubled",
                Doubled::ALL
                    .iter()
                    .map(|d| Choice::new(d.id(), format!("{} (× {})", d.words(), d.multiplier())))
                    .collect(),
            ),
            (
                "outcomes",
                HandOutcome::ALL
                    .iter()
                    .map(|o| Choice::new(o.id(), outcome_label(*o)))
                    .collect(),
            ),
        ],
        note: Some("The dealer bids first.".into()),
    }
}

/// An outcome as the form offers it, with who scores what.
fn outcome_label(o: HandOutcome) -> String {
    let what = match o {
        HandOutcome::Made | HandOutcome::MadeOnMeld | HandOutcome::OpponentsConceded => {
            "bidders score the bid"
        }
        HandOutcome::Failed | HandOutcome::ConcededAfterLead => "opponents score the bid",
        HandOutcome::ConcededBeforeLead => "opponents score half the bid",
    };
    format!("{}: {what}", o.words())
}

/// The submitted hand form (`templates/games/contract_pinochle/hand_form.html`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Form {
    /// Dealer, "All passed", bidder, bid and trump.
    #[serde(skip)]
    pub boxes: Boxes,
    /// Undoubled, doubled, redoubled.
    #[serde(default, deserialize_with = "choice")]
    pub doubled: Option<Doubled>,
    /// How the hand ended.
    #[serde(default, deserialize_with = "choice")]
    pub outcome: Option<HandOutcome>,
}

impl hand_form::HandForm for Form {
    type Written = WrittenHand;

    fn boxes(&mut self) -> Option<&mut Boxes> {
        Some(&mut self.boxes)
    }

    /// "All passed" with a contract field filled is refused (`all_passed`).
    fn written(self) -> Result<WrittenHand, RuleError> {
        let c = self.boxes;
        let dealer = c.dealer()?;
        if c.all_passed {
            // The doubled select always sends a value; only "no" goes with all passed.
            let doubled = self.doubled.is_some_and(|d| d != Doubled::No);
            if c.bidder.is_some()
                || c.bid.is_some()
                || c.trump.is_some()
                || self.outcome.is_some()
                || doubled
            {
                return Err(RuleError::new(
                    "all_passed",
                    "All passed, but the form also has a contract: clear the bidder, bid, trump and how it ended, or press Enter the hand",
                ));
            }
            return Ok(WrittenHand {
                dealer,
                all_passed: true,
                ..WrittenHand::default()
            });
        }
        Ok(WrittenHand {
            dealer,
            all_passed: false,
            bidder: Some(hand_form::asked(
                c.bidder.clone(),
                "bidder",
                "who won the bid? (or press All passed)",
            )?),
            bid: Some(c.bid()?),
            trump: Some(c.trump()?),
            doubled: Some(self.doubled.unwrap_or_default()),
            outcome: Some(hand_form::asked(
                self.outcome,
                "outcome",
                "how did the hand end?",
            )?),
            auction: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::hand_form::form_tests!(super::super::ContractPinochle, Form);

    use crate::rules::hand_form::form_body as form;

    #[test]
    fn a_played_hand_becomes_the_documents_event() {
        let event = hand_event(&form(&[
            ("dealer", "Ann"),
            ("bidder", "Bob"),
            ("bid", " 250 "),
            ("trump", "hearts"),
            ("doubled", "redoubled"),
            ("outcome", "conceded_before_lead"),
            ("expected_events", "3"),
        ]))
        .unwrap();
        assert_eq!(
            event,
            json!({"type": "hand", "dealer": "Ann", "bidder": "Bob", "bid": 250,
                   "trump": "hearts", "doubled": "redoubled", "outcome": "conceded_before_lead"})
        );
        // Doubled left on its first choice or not sent at all: undoubled.
        let event = hand_event(&form(&[
            ("dealer", "Ann"),
            ("bidder", "Bob"),
            ("bid", "250"),
            ("trump", "hearts"),
            ("outcome", "made"),
        ]))
        .unwrap();
        assert_eq!(event["doubled"], "no");
    }

    #[test]
    fn all_passed_records_only_the_dealer_and_refuses_a_filled_in_contract() {
        // As the browser sends it: empty selects and bid, doubled on its first choice.
        let event = hand_event(&form(&[
            ("dealer", "Cy"),
            ("all_passed", "true"),
            ("bidder", ""),
            ("bid", ""),
            ("doubled", "no"),
            ("outcome", ""),
        ]))
        .unwrap();
        assert_eq!(
            event,
            json!({"type": "hand", "dealer": "Cy", "all_passed": true})
        );
        // With a contract filled in, "All passed" is refused by name, never recorded.
        for filled in [("bid", "300"), ("bidder", "Ann"), ("doubled", "doubled")] {
            let e =
                hand_event(&form(&[("dealer", "Cy"), ("all_passed", "true"), filled])).unwrap_err();
            assert_eq!(e.field, "all_passed", "{filled:?}");
        }
    }

    #[test]
    fn missing_or_unreadable_fields_are_named() {
        let e = hand_event(&form(&[("dealer", "Ann")])).unwrap_err();
        assert_eq!(e.field, "bidder");
        let e = hand_event(&form(&[
            ("dealer", "Ann"),
            ("bidder", "Bob"),
            ("bid", "2x0"),
        ]))
        .unwrap_err();
        assert_eq!(
            (e.field.to_string().as_str(), e.message.as_str()),
            ("bid", "\"2x0\" is not a whole number")
        );
        let e = hand_event(&form(&[
            ("dealer", "Ann"),
            ("bidder", "Bob"),
            ("bid", "200"),
            ("trump", "hearts"),
        ]))
        .unwrap_err();
        assert_eq!(e.field, "outcome");
        let e = hand_event(&form(&[("dealer", "Ann"), ("outcome", "won")])).unwrap_err();
        assert_eq!(e.field, "outcome");
        assert!(hand_event(&form(&[])).is_err());
    }

    #[test]
    fn the_form_offers_every_outcome_and_doubling() {
        let spec = offer();
        assert_eq!(spec.min_bid, 100);
        assert_eq!(spec.list("outcomes").len(), 6);
        assert_eq!(spec.list("doubled").len(), 3);
        assert_eq!(spec.list("suits").len(), 4);
    }
}
