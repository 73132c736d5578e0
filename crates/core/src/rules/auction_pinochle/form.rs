//! Auction Pinochle's pages: new-session agreements, the agreements in words, and the hand
//! form (rules §1.1–1.3).

use serde::Deserialize;

use super::agreements::{Agreements, KittyKind};
use super::hand::{Outcome, WrittenHand};
use crate::money::Money;
use crate::rules::game::{Choice, HandFormSpec, STAKE_DEFAULT, suit_choices};
use crate::rules::hand_form::{self, Boxes, choice, text, whole};
use crate::rules::{AgreementSpec, RuleError, SpecKind, Table};

/// The agreements the new-session form offers, defaults filled in (rules §1.1–1.3).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "stake",
        label: "Stake per unit (per 100 points)",
        kind: SpecKind::Money,
        default: STAKE_DEFAULT,
        help: "A unit is one step of the units table; $0.05 or $0.10 a hundred is most popular; $0.00 (the default) plays for points only (rules §1.1).",
    },
    AgreementSpec {
        name: "units_table",
        label: "Units table",
        kind: SpecKind::Choice(&[
            ("standard", "standard: 250 = 2 units … 700 = 11 (Scarne)"),
            ("bonus", "bonus: 350 = 5 … 700 = 30 (Scarne)"),
            ("classic", "classic: 300 = 3, 350 = 5, 400 = 10 … 600 = 30"),
        ]),
        default: "standard",
        help: "Scarne: the bonus table must be agreed before the game; classic starts at 300 (rules §1.1, §1.3).",
    },
    AgreementSpec {
        name: "min_bid",
        label: "Minimum bid",
        kind: SpecKind::Number,
        default: "",
        help: "Leave empty for the table's lowest band: 250, or 300 with classic (rules §1.1).",
    },
    AgreementSpec {
        name: "spades_double",
        label: "Spades double",
        kind: SpecKind::Bool,
        default: "yes",
        help: "Scarne's own rule: a contract in spades pays and costs twice (rules §1.1).",
    },
    AgreementSpec {
        name: "hearts_triple",
        label: "Hearts triple",
        kind: SpecKind::Bool,
        default: "no",
        help: "Optional: a contract in hearts pays and costs three times (rules §1.1).",
    },
    AgreementSpec {
        name: "kitty",
        label: "Kitty",
        kind: SpecKind::Choice(&[
            ("none", "none"),
            ("pot", "pot: antes, won by a made 350+ (Scarne)"),
            ("account", "account: settles like a player on 350+"),
        ]),
        default: "none",
        help: "Pot: everyone antes the price of a 250 bid; a made 350+ takes it all; a failed one pays it double (rules §1.2). Account: the kitty pays and is paid like one more player on 350+ and may go negative (rules §1.3).",
    },
    AgreementSpec {
        name: "all_pass_ante",
        label: "Ante again when all pass (pot)",
        kind: SpecKind::Bool,
        default: "yes",
        help: "Kitty rule 2; the table may stop it by consent.",
    },
    AgreementSpec {
        name: "reante_after_win",
        label: "Ante again after the kitty is won (pot)",
        kind: SpecKind::Bool,
        default: "yes",
        help: "Without it, the kitty stays empty until the next all-pass deal.",
    },
    AgreementSpec {
        name: "kitty_spades_fail_multiplier",
        label: "Kitty penalty for a failed 350+ in spades",
        kind: SpecKind::NumberChoice(&[2, 3]),
        default: "2",
        help: "Kitty rule 5: twice the kitty; 3 times only by unanimous agreement.",
    },
    AgreementSpec {
        name: "kitty_hearts_fail_multiplier",
        label: "Kitty penalty for a failed 350+ in hearts (hearts triple)",
        kind: SpecKind::NumberChoice(&[2, 3, 4]),
        default: "2",
        help: "Kitty rule 5: twice the kitty; 4 times only by unanimous agreement (Scarne does not recommend it).",
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let bands: Vec<String> = a
        .units_table
        .bands()
        .iter()
        .map(|b| format!("{} = {}", a.units_table.band_label(b.lowest_bid), b.units))
        .collect();
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mut summary = vec![
        (
            "Stake".into(),
            format!("{} a unit", a.stake.shown(currency)),
        ),
        (
            "Units table".into(),
            format!("{}: {}", a.units_table.name, bands.join(", ")),
        ),
        ("Minimum bid".into(), a.min_bid.to_string()),
        ("Spades double".into(), yes_no(a.spades_double)),
        ("Hearts triple".into(), yes_no(a.hearts_triple)),
    ];
    let kitty = match a.kitty {
        KittyKind::None => "none".to_string(),
        KittyKind::Account => {
            "an account that settles like a player on bids of 350 or more (rules §1.3)".to_string()
        }
        KittyKind::Pot => format!(
            "pot: ante {}; all-pass ante {}; re-ante after a win {}; failed 350+ pays 2× the kitty ({}× in spades, {}× in hearts-triple hearts)",
            a.ante().shown(currency),
            yes_no(a.pot.all_pass_ante),
            yes_no(a.pot.reante_after_win),
            a.pot.spades_fail_multiplier,
            a.pot.hearts_fail_multiplier
        ),
    };
    summary.push(("Kitty".into(), kitty));
    summary
}

/// What the hand form offers: minimum bid, outcomes, suits; a fourth seat's dealer sits out.
pub fn offer(a: &Agreements, table: &Table) -> HandFormSpec {
    HandFormSpec {
        min_bid: a.min_bid,
        lists: vec![
            (
                "outcomes",
                Outcome::ALL
                    .iter()
                    .map(|o| Choice::new(o.id(), o.words()))
                    .collect(),
            ),
            ("suits", suit_choices()),
        ],
        note: (table.seated().len() == 4).then(|| {
            "Four at the table: the dealer sits out this deal but still pays and is paid.".into()
        }),
    }
}

/// The submitted hand form (`templates/games/auction_pinochle/hand_form.html`).
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(skip)]
    boxes: Boxes,
    #[serde(default, deserialize_with = "choice")]
    outcome: Option<Outcome>,
    #[serde(default, deserialize_with = "text")]
    renege_by: Option<String>,
    #[serde(default, deserialize_with = "whole")]
    meld: Option<i64>,
    #[serde(default, deserialize_with = "whole")]
    counters: Option<i64>,
    #[serde(default, deserialize_with = "text")]
    bidder_cash: Option<String>,
}

impl hand_form::HandForm for Form {
    type Written = WrittenHand;

    fn boxes(&mut self) -> Option<&mut Boxes> {
        Some(&mut self.boxes)
    }

    /// Asks for the dealer only (the engine asks for the rest, rules §1.1); keeps a
    /// renege's culprit only with that outcome, as the select stays filled.
    fn written(self) -> Result<WrittenHand, RuleError> {
        let dealer = self.boxes.dealer()?;
        let Boxes {
            all_passed,
            bidder,
            bid,
            trump,
            ..
        } = self.boxes;
        if all_passed {
            // Enter on a filled-in form must never record "all passed".
            if bidder.is_some() || bid.is_some() || trump.is_some() {
                return Err(RuleError::new(
                    "all_passed",
                    "All passed, but the form also has a contract: clear the bidder, bid and trump, or press Enter the hand",
                ));
            }
            return Ok(WrittenHand {
                dealer,
                all_passed: true,
                bidder: None,
                bid: None,
                trump: None,
                outcome: None,
                renege_by: None,
                meld: None,
                counters: None,
                bidder_cash: None,
            });
        }
        Ok(WrittenHand {
            dealer,
            all_passed: false,
            renege_by: self
                .renege_by
                .filter(|_| self.outcome == Some(Outcome::DefenderRenege)),
            bidder,
            bid,
            trump,
            outcome: self.outcome,
            meld: self.meld,
            counters: self.counters,
            bidder_cash: self
                .bidder_cash
                .map(|cash| {
                    Money::parse(&cash).map_err(|e| RuleError::new("bidder_cash", e.to_string()))
                })
                .transpose()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Form;

    crate::rules::hand_form::form_tests!(super::super::AuctionPinochle, Form);

    #[test]
    fn the_form_becomes_the_hand_as_the_session_document_writes_it() {
        // A renege culprit left selected under another outcome is not recorded.
        let event = hand_event(
            b"dealer=Cy&bidder=Ann&bid=300&trump=spades&outcome=made&meld=120&counters=190&renege_by=Bob&bidder_cash=",
        )
        .unwrap();
        assert_eq!(
            event,
            json!({"type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 300,
                   "trump": "spades", "outcome": "made", "meld": 120, "counters": 190})
        );
        let renege = hand_event(
            b"dealer=Cy&bidder=Ann&bid=300&trump=spades&outcome=defender_renege&renege_by=Bob&bidder_cash=1.50",
        )
        .unwrap();
        assert_eq!(renege["renege_by"], "Bob");
        assert_eq!(renege["bidder_cash"], "1.50");
        let passed = hand_event(b"dealer=Cy&all_passed=true&bidder=&bid=").unwrap();
        assert_eq!(
            passed,
            json!({"type": "hand", "dealer": "Cy", "all_passed": true})
        );
    }

    #[test]
    fn an_unreadable_field_is_refused_by_name() {
        let e = hand_event(b"dealer=Cy&bidder=Ann&bid=300&trump=stars").unwrap_err();
        assert_eq!(
            (e.field.to_string().as_str(), e.message.as_str()),
            ("trump", "\"stars\" is not one of the choices")
        );
        let e = hand_event(b"dealer=Cy&bidder=Ann&bid=300&counters=lots").unwrap_err();
        assert_eq!(e.field, "counters");
        let e = hand_event(b"dealer=Cy&all_passed=true&bidder=Ann&bid=300").unwrap_err();
        assert_eq!(e.field, "all_passed");
        let e = hand_event(b"dealer=Cy&bidder_cash=1.005").unwrap_err();
        assert_eq!(e.field, "bidder_cash");
    }
}
