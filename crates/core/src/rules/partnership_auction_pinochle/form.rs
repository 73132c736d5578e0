//! Partnership Auction Pinochle's pages: new-session agreements, the agreements in words,
//! and the hand form (rules §1.6): contract, each side's meld, one side's trick points (the
//! other gets the rest of 250, rules §1.0), a pointless-trick tap, "All four passed", and an
//! optional auction typed as calls.

use serde::Deserialize;
use serde_json::{Value, json};

use super::agreements::Agreements;
use super::hand::WrittenHand;
use crate::rules::game::{HandFormSpec, suit_choices};
use crate::rules::hand_form::{self, Boxes, text};
use crate::rules::partnership::{self, Seating, Side};
use crate::rules::{AgreementSpec, Field, RuleError, SpecKind};

/// The agreements the new-session form offers, defaults filled in (rules §1.6, §3 item 27).
pub static AGREEMENTS: &[AgreementSpec] = &[
    partnership::stake_per_game(
        "When a game ends each loser pays this to his opposite number on the winning side; $0.00 keeps points only (session-format, money in the partnership games).",
    ),
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
    let stake = crate::rules::game::stake_words(
        a.stake,
        currency,
        "points only",
        "a game, each loser to his opposite number",
    );
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

/// What the hand form offers: lowest bid, suits, sides (`max` 250).
pub fn offer(seating: &Seating, agreements: &Agreements) -> HandFormSpec {
    HandFormSpec {
        min_bid: agreements.min_bid,
        lists: vec![("suits", suit_choices()), ("sides", seating.side_choices())],
        note: agreements.aeroplane.then(|| {
            format!(
                "Aeroplane: bids from {}, at most two bids each (rules §1.6).",
                agreements.min_bid
            )
        }),
    }
}

/// The submitted hand form (`templates/games/partnership_auction_pinochle/hand_form.html`).
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(skip)]
    boxes: Boxes,
    /// The calls in words, optional: `"Ann 250, Bob pass, Cy 260"`.
    #[serde(default, deserialize_with = "text")]
    auction: Option<String>,
}

impl hand_form::HandForm for Form {
    type Written = WrittenHand;

    fn boxes(&mut self) -> Option<&mut Boxes> {
        Some(&mut self.boxes)
    }

    /// The hand as written:
    ///
    /// * `all_passed` gives `{type, dealer, all_passed: true}`; anything else filled is
    ///   refused by name.
    /// * Else `dealer`, `bidder`, `bid`, `trump` are required; per side `meld` (empty: 0)
    ///   and `won_trick`; tricks entered once, the other side gets the rest (both sent: the
    ///   engine checks them).
    /// * `auction` is typed as calls in words ([`calls`]).
    fn written(self) -> Result<WrittenHand, RuleError> {
        let c = self.boxes;
        let dealer = c.dealer()?;
        let auction = self.auction.as_deref().map(calls).transpose()?;
        let mut hand = WrittenHand {
            dealer,
            all_passed: c.all_passed,
            bidder: None,
            bid: None,
            trump: None,
            ns: None,
            ew: None,
            auction,
        };
        if c.all_passed {
            let (ns, ew) = (Side::NS.name(), Side::EW.name());
            let filled = [
                (Field::name("bidder"), c.bidder.is_some()),
                (Field::name("bid"), c.bid.is_some()),
                (Field::name("trump"), c.trump.is_some()),
                (Field::of_side(ns, "meld"), c.ns_meld.is_some()),
                (Field::of_side(ns, "tricks"), c.ns_tricks.is_some()),
                (Field::of_side(ew, "meld"), c.ew_meld.is_some()),
                (Field::of_side(ew, "tricks"), c.ew_tricks.is_some()),
            ];
            if let Some((field, _)) = filled.into_iter().find(|(_, given)| *given) {
                return Err(RuleError::new(
                    field,
                    "all four passed, so nobody bid and nothing was played: clear this, or enter the hand instead",
                ));
            }
            return Ok(hand);
        }
        hand.bidder = Some(c.bidder.clone().ok_or_else(|| {
            RuleError::new("bidder", "who won the bid? (or press All four passed)")
        })?);
        hand.bid = Some(c.bid()?);
        hand.trump = Some(c.trump()?);
        let (ns, ew) =
            c.sides("enter NS's trick points (0 if none); EW take the rest of the 250")?;
        (hand.ns, hand.ew) = (Some(ns), Some(ew));
        Ok(hand)
    }
}

/// The form's auction, `"Ann 250, Bob pass"`, as calls; errors (`auction`) name a bad call.
fn calls(text: &str) -> Result<Vec<Value>, RuleError> {
    text.split([',', ';'])
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|call| {
            let bad = || {
                RuleError::new(
                    "auction",
                    format!(
                        "\"{call}\" is not a call: write each as a name and a bid or pass, like \"Ann 250, Bob pass\""
                    ),
                )
            };
            let (who, what) = call.rsplit_once(char::is_whitespace).ok_or_else(bad)?;
            let who = who.trim();
            if who.is_empty() {
                return Err(bad());
            }
            let what = what.trim();
            if what.eq_ignore_ascii_case("pass") {
                Ok(json!([who, "pass"]))
            } else {
                let bid: i64 = what.parse().map_err(|_| bad())?;
                Ok(json!([who, bid]))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::rules::hand_form::form_tests!(super::super::PartnershipAuction, Form);

    #[test]
    fn one_sides_tricks_give_the_others() {
        // NS took 180 of the 250: EW took 70.
        let e = hand_event(
            b"expected_events=2&dealer=W&bidder=N&bid=300&trump=hearts&NS.meld=140&EW.meld=&NS.tricks=180",
        )
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "hand", "dealer": "W", "bidder": "N", "bid": 300, "trump": "hearts",
                   "NS": {"meld": 140, "tricks": 180}, "EW": {"meld": 0, "tricks": 70}})
        );
        // EW's entered instead: 250 − 250 = 0 for NS; a tick saves a pointless trick.
        let e =
            hand_event(b"dealer=W&bidder=E&bid=200&trump=clubs&EW.tricks=250&NS.won_trick=true")
                .unwrap();
        assert_eq!(e["NS"], json!({"meld": 0, "tricks": 0, "won_trick": true}));
        assert_eq!(e["EW"]["tricks"], json!(250));
    }

    #[test]
    fn all_four_passed_records_only_the_dealer() {
        let e = hand_event(b"dealer=N&all_passed=true&bid=&bidder=").unwrap();
        assert_eq!(
            e,
            json!({"type": "hand", "dealer": "N", "all_passed": true})
        );
        let err = hand_event(b"dealer=N&all_passed=true&bid=250").unwrap_err();
        assert_eq!(err.field, "bid");
    }

    #[test]
    fn the_auction_is_typed_as_calls_in_words() {
        let e = hand_event(
            b"dealer=W&bidder=N&bid=270&trump=clubs&NS.tricks=200&auction=N+250%2C+E+pass%2C+S+260%2C+W+PASS%2C+N+270%2C+S+pass",
        )
        .unwrap();
        assert_eq!(e["auction"], super::super::auction::golden_calls());
        // A name with a space keeps it; the call is the last word.
        let e = hand_event(b"dealer=W&all_passed=true&auction=Mary+Ann+pass").unwrap();
        assert_eq!(e["auction"], json!([["Mary Ann", "pass"]]));
        let err = hand_event(b"dealer=W&bidder=N&bid=270&trump=clubs&NS.tricks=200&auction=N+two")
            .unwrap_err();
        assert_eq!(err.field, "auction");
        assert!(
            err.message.contains("\"N two\" is not a call"),
            "{}",
            err.message
        );
        let err = hand_event(b"dealer=W&all_passed=true&auction=250").unwrap_err();
        assert_eq!(err.field, "auction");
    }

    #[test]
    fn missing_or_bad_fields_are_named() {
        let field = |body: &[u8]| hand_event(body).unwrap_err().field;
        assert_eq!(field(b""), "dealer");
        assert_eq!(field(b"dealer=W"), "bidder");
        assert_eq!(field(b"dealer=W&bidder=N&trump=hearts"), "bid");
        assert_eq!(field(b"dealer=W&bidder=N&bid=250"), "trump");
        assert_eq!(field(b"dealer=W&bidder=N&bid=250&trump=stars"), "trump");
        let base = "dealer=W&bidder=N&trump=hearts&bid=250";
        assert_eq!(field(base.as_bytes()), "NS.tricks");
        assert_eq!(
            field(format!("{base}&NS.tricks=260").as_bytes()),
            "NS.tricks"
        );
        assert_eq!(
            field(format!("{base}&NS.tricks=lots").as_bytes()),
            "NS.tricks"
        );
        assert_eq!(
            field(format!("{base}&NS.tricks=100&EW.meld=x").as_bytes()),
            "EW.meld"
        );
    }
}
