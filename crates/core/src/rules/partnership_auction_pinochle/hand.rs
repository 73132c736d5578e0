//! One Partnership Auction Pinochle deal, checked (rules §1.0, §1.6), and what it scores.
//!
//! ```json
//! { "type": "hand", "dealer": "W", "bidder": "N", "bid": 300, "trump": "hearts",
//!   "NS": { "meld": 140, "tricks": 200, "won_trick": true },
//!   "EW": { "meld": 100, "tricks": 50, "won_trick": true },
//!   "auction": [["N", 300], ["E", "pass"], ["S", "pass"], ["W", "pass"]] }
//! { "type": "hand", "dealer": "N", "all_passed": true }
//! ```
//!
//! Per side `tricks` is required (summing to 250); `meld` defaults to 0, `won_trick` to
//! "took any trick points". `auction` is optional ([`super::auction`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::agreements::{Agreements, MAX_POINTS};
use super::auction::{self, Ending};
use crate::rules::contract_head::{self, Head};
use crate::rules::hand_form::is_false;
use crate::rules::partnership::{self, PerSide, Seating, Side, SideHand, WrittenSide};
use crate::rules::typed::no_contract;
use crate::rules::{Field, RuleError, Suit};

/// A deal, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deal {
    /// All four passed: no score, the deal passes to the left (session-format).
    AllPassed {
        /// Who dealt.
        dealer: String,
    },
    /// A bid was won and the hand played.
    Played(Hand),
}

/// A played deal: the contract and both sides' results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    /// Who dealt.
    pub dealer: String,
    /// The contract: bidder, side, bid in points and trump.
    pub head: Head,
    /// Each side's meld, trick points and won-a-trick.
    pub sides: PerSide<SideHand>,
    /// How many calls the auction had, when it was given (checked).
    pub auction_calls: Option<usize>,
}

/// A `hand` event as written (the shapes above). Points throughout.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenHand {
    /// Who dealt.
    pub dealer: String,
    /// All four passed: no bidder, nothing played (session-format).
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_passed: bool,
    /// Who won the auction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bidder: Option<String>,
    /// The winning bid, in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid: Option<i64>,
    /// The trump the bidder named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump: Option<Suit>,
    /// North–South's result.
    #[serde(rename = "NS", skip_serializing_if = "Option::is_none")]
    pub ns: Option<WrittenSide>,
    /// East–West's result.
    #[serde(rename = "EW", skip_serializing_if = "Option::is_none")]
    pub ew: Option<WrittenSide>,
    /// The calls, `[player, bid | "pass"]`, checked when given ([`super::auction`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auction: Option<Vec<Value>>,
}

/// Checks a `hand` as written (session-format). Errors name the field: `dealer`/`bidder` not
/// seated; contract fields when all passed; a missing `bidder`, `bid`, `trump`, `NS` or `EW`; `bid`
/// not in tens, below the minimum (rules §1.6) or over [`MAX_POINTS`];
/// [`partnership::check_hands`]; [`auction::check`].
pub fn check(
    w: WrittenHand,
    seating: &Seating,
    agreements: &Agreements,
) -> Result<Deal, RuleError> {
    contract_head::seated_dealer(&w.dealer, seating)?;
    if w.all_passed {
        check_all_passed(&w, seating, agreements)?;
        return Ok(Deal::AllPassed { dealer: w.dealer });
    }
    let head = contract_head::head(w.bidder, w.bid, w.trump, seating, &ASKS, |bid| {
        check_bid(bid, agreements)
    })?;
    let sides = PerSide::new(written_side(w.ns, Side::NS)?, written_side(w.ew, Side::EW)?);
    partnership::check_hands(&sides)?;
    if let Some(calls) = &w.auction {
        auction::check(
            calls,
            &w.dealer,
            seating,
            agreements,
            Ending::Won {
                bidder: &head.bidder,
                bid: head.bid,
            },
        )?;
    }
    Ok(Deal::Played(Hand {
        dealer: w.dealer,
        head,
        sides,
        auction_calls: w.auction.as_ref().map(Vec::len),
    }))
}

/// Partnership Auction Pinochle's words for a missing bidder, bid or trump (rules §1.6).
const ASKS: contract_head::Asks = contract_head::Asks {
    bidder_rule: "rules §1.6",
    bid: || RuleError::new("bid", "what was the winning bid?").rule("rules §1.6"),
    trump: || {
        RuleError::new("trump", "which suit did the bidder name as trump?").rule("rules §1.6")
    },
};

/// All passed: no contract field or side; an auction of four passes (rules §1.6).
fn check_all_passed(
    w: &WrittenHand,
    seating: &Seating,
    agreements: &Agreements,
) -> Result<(), RuleError> {
    let given = [
        ("bidder", w.bidder.is_some()),
        ("bid", w.bid.is_some()),
        ("trump", w.trump.is_some()),
        ("NS", w.ns.is_some()),
        ("EW", w.ew.is_some()),
    ];
    no_contract(
        &given,
        "when all four pass nobody bids and the deal is not played: clear the bidder, bid, trump and both sides, or enter the hand as played",
        Some("rules §1.6"),
    )?;
    if let Some(calls) = &w.auction {
        auction::check(calls, &w.dealer, seating, agreements, Ending::AllPassed)?;
    }
    Ok(())
}

/// A side's part of a played deal, required (rules §1.6); the error names the side (`NS`).
fn written_side(written: Option<WrittenSide>, side: Side) -> Result<SideHand, RuleError> {
    written.map(|s| s.hand()).ok_or_else(|| {
        RuleError::new(
            Field::default().side(side.name()),
            format!(
                "enter {}'s meld and trick points, like {{\"meld\": 100, \"tricks\": 130}}",
                side.name()
            ),
        )
    })
}

/// A bid: in tens, minimum to [`MAX_POINTS`] (rules §0.3, §1.6; S003 rule 2). Errors name `bid`.
fn check_bid(bid: i64, agreements: &Agreements) -> Result<(), RuleError> {
    if bid % 10 != 0 {
        return Err(
            RuleError::new("bid", format!("{bid} is not a bid: bids go up in tens"))
                .rule("rules §0.3, §1.6"),
        );
    }
    if bid < agreements.min_bid {
        let why = if agreements.aeroplane {
            "Aeroplane, S003 rule 2"
        } else {
            "BIC-PAP"
        };
        return Err(RuleError::new(
            "bid",
            format!("{bid} is below the minimum {}", agreements.min_bid),
        )
        .rule(format!("rules §1.6, {why}")));
    }
    if bid > MAX_POINTS {
        return Err(RuleError::new(
            "bid",
            format!("{bid} is more than any deal can make"),
        ));
    }
    Ok(())
}

/// What one side scores on a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideScore {
    /// Points added to the side's score, negative when its bid fails.
    pub points: i64,
    /// The meld that counted (0 without a trick, or for bidders who failed).
    pub meld: i64,
    /// The meld lost because the side won no trick.
    pub meld_lost: i64,
}

/// A scored deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scored {
    /// Whether the bidding side's counted meld + trick points reached the bid.
    pub made: bool,
    /// The bidding side's counted meld + trick points.
    pub bidders_total: i64,
    /// Each side's score for the deal.
    pub sides: PerSide<SideScore>,
}

/// Scores a played deal (rules §1.6, BIC-PAP; Aeroplane alike, §3 item 27): meld counts
/// only with a trick; bidders reaching the bid score all they made, else lose the bid and
/// score nothing else; opponents always score meld + tricks.
pub fn score(hand: &Hand) -> Scored {
    let b = hand.head.side;
    let bidders_total = hand.sides[b].points(true);
    let made = bidders_total >= hand.head.bid;
    let sides = PerSide::from_fn(|side| {
        let h = hand.sides[side];
        if side == b && !made {
            return SideScore {
                points: -hand.head.bid,
                meld: 0,
                meld_lost: 0,
            };
        }
        let meld = h.counted_meld(true);
        SideScore {
            points: meld + h.tricks,
            meld,
            meld_lost: h.meld - meld,
        }
    });
    Scored {
        made,
        bidders_total,
        sides,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand `event` as a document writes it, read and checked.
    fn read(
        event: &serde_json::Map<String, serde_json::Value>,
        seating: &Seating,
        agreements: &Agreements,
    ) -> Result<Deal, RuleError> {
        check(
            crate::rules::fields::read_event(event)?,
            seating,
            agreements,
        )
    }
    use serde_json::json;

    fn seating() -> Seating {
        Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
    }

    fn read_with(agreements: Value, event: Value) -> Result<Deal, RuleError> {
        let a = Agreements::read(agreements.as_object().unwrap()).unwrap();
        read(event.as_object().unwrap(), &seating(), &a)
    }

    fn deal(bidder: &str, bid: i64, ns: Value, ew: Value) -> Value {
        json!({"type": "hand", "dealer": "W", "bidder": bidder, "bid": bid, "trump": "hearts",
               "NS": ns, "EW": ew})
    }

    fn played(event: Value) -> Hand {
        match read_with(json!({}), event).unwrap() {
            Deal::Played(h) => h,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_made_bid_scores_everything_the_bidders_made() {
        // NS bid 300: meld 140 + tricks 200 = 340 ≥ 300, so NS +340; EW 100 + 50 = +150.
        let h = played(deal(
            "N",
            300,
            json!({"meld": 140, "tricks": 200}),
            json!({"meld": 100, "tricks": 50}),
        ));
        let s = score(&h);
        assert!(s.made);
        assert_eq!((s.sides.ns.points, s.sides.ew.points), (340, 150));
        // Exactly the bid is made: NS meld 100 + tricks 200 = 300.
        let h = played(deal(
            "S",
            300,
            json!({"meld": 100, "tricks": 200}),
            json!({"tricks": 50}),
        ));
        assert_eq!(score(&h).sides.ns.points, 300);
    }

    #[test]
    fn a_failed_bid_is_deducted_and_the_opponents_still_score() {
        // Golden AE-02-b: NS bid 300 and make 90 + 200 = 290 < 300: NS −300, EW 100 + 50.
        let h = played(deal(
            "N",
            300,
            json!({"meld": 90, "tricks": 200}),
            json!({"meld": 100, "tricks": 50}),
        ));
        let s = score(&h);
        assert!(!s.made);
        assert_eq!(s.bidders_total, 290);
        assert_eq!((s.sides.ns.points, s.sides.ew.points), (-300, 150));
        // EW bid: E bids 200, meld 60 + tricks 130 = 190: EW −200, NS 120 + 120 = 240.
        let h = played(deal(
            "E",
            200,
            json!({"meld": 120, "tricks": 120}),
            json!({"meld": 60, "tricks": 130}),
        ));
        let s = score(&h);
        assert_eq!((s.sides.ns.points, s.sides.ew.points), (240, -200));
    }

    #[test]
    fn a_side_without_a_trick_loses_its_meld() {
        // EW take no trick: their 80 meld is lost, EW score 0. NS bid 250 with 20 + 250.
        let h = played(deal(
            "N",
            250,
            json!({"meld": 20, "tricks": 250}),
            json!({"meld": 80, "tricks": 0}),
        ));
        let s = score(&h);
        assert_eq!((s.sides.ns.points, s.sides.ew.points), (270, 0));
        assert_eq!(s.sides.ew.meld_lost, 80);
        // Bidders without a trick: their meld is lost, so 300 meld does not make a 150 bid.
        let h = played(deal(
            "E",
            150,
            json!({"tricks": 250}),
            json!({"meld": 300, "tricks": 0}),
        ));
        let s = score(&h);
        assert!(!s.made);
        assert_eq!((s.sides.ns.points, s.sides.ew.points), (250, -150));
        // A pointless trick still saves the meld when the table says so.
        let h = played(deal(
            "E",
            150,
            json!({"tricks": 250}),
            json!({"meld": 300, "tricks": 0, "won_trick": true}),
        ));
        assert_eq!(score(&h).sides.ew.points, 300);
    }

    #[test]
    fn bids_respect_the_minimum_and_steps() {
        let field = |agreements: Value, bid| {
            read_with(
                agreements,
                deal("N", bid, json!({"tricks": 200}), json!({"tricks": 50})),
            )
            .unwrap_err()
            .field
        };
        assert_eq!(field(json!({}), 90), "bid");
        assert_eq!(field(json!({}), 255), "bid");
        assert_eq!(field(json!({"aeroplane": true}), 240), "bid");
        assert_eq!(field(json!({}), MAX_POINTS + 10), "bid");
        assert!(
            read_with(
                json!({}),
                deal("N", 100, json!({"tricks": 200}), json!({"tricks": 50}))
            )
            .is_ok()
        );
        assert!(
            read_with(
                json!({"aeroplane": true}),
                deal("N", 250, json!({"tricks": 200}), json!({"tricks": 50}))
            )
            .is_ok()
        );
    }

    #[test]
    fn impossible_deals_are_refused_by_field() {
        let field = |event: Value| read_with(json!({}), event).unwrap_err().field;
        assert_eq!(
            field(deal(
                "Zed",
                200,
                json!({"tricks": 200}),
                json!({"tricks": 50})
            )),
            "bidder"
        );
        assert_eq!(
            field(deal(
                "N",
                200,
                json!({"tricks": 200}),
                json!({"tricks": 60})
            )),
            "EW.tricks"
        );
        assert_eq!(
            field(deal(
                "N",
                200,
                json!({"meld": 15, "tricks": 200}),
                json!({"tricks": 50})
            )),
            "NS.meld"
        );
        assert_eq!(
            field(deal(
                "N",
                200,
                json!({"tricks": 200, "won_trick": false}),
                json!({"tricks": 50})
            )),
            "NS.won_trick"
        );
        assert_eq!(
            field(deal(
                "N",
                200,
                json!({"tricks": 200, "dix": 1}),
                json!({"tricks": 50})
            )),
            "NS.dix"
        );
        assert_eq!(
            field(json!({"type": "hand", "dealer": "X", "all_passed": true})),
            "dealer"
        );
        assert_eq!(
            field(
                json!({"type": "hand", "dealer": "W", "bidder": "N", "bid": 200, "trump": "hearts", "NS": {"tricks": 250}})
            ),
            "EW"
        );
        assert_eq!(
            field(
                json!({"type": "hand", "dealer": "W", "bidder": "N", "bid": 200, "NS": {"tricks": 250}, "EW": {"tricks": 0}})
            ),
            "trump"
        );
        assert_eq!(field(json!({"type": "hand", "dealer": "W"})), "bidder");
        let mut e = deal("N", 200, json!({"tricks": 200}), json!({"tricks": 50}));
        e["trump"] = json!("notrump");
        assert_eq!(field(e), "trump");
    }

    #[test]
    fn all_passed_deals_carry_no_contract() {
        let d = read_with(
            json!({}),
            json!({"type": "hand", "dealer": "W", "all_passed": true}),
        )
        .unwrap();
        assert_eq!(d, Deal::AllPassed { dealer: "W".into() });
        let e = read_with(
            json!({}),
            json!({"type": "hand", "dealer": "W", "all_passed": true, "bid": 100}),
        )
        .unwrap_err();
        assert_eq!(e.field, "bid");
        let e = read_with(
            json!({}),
            json!({"type": "hand", "dealer": "W", "all_passed": true,
            "auction": [["N", 100], ["E", "pass"], ["S", "pass"], ["W", "pass"]]}),
        )
        .unwrap_err();
        assert_eq!(e.field, "auction");
        let ok = read_with(
            json!({}),
            json!({"type": "hand", "dealer": "W", "all_passed": true,
            "auction": [["N", "pass"], ["E", "pass"], ["S", "pass"], ["W", "pass"]]}),
        );
        assert!(ok.is_ok());
    }

    #[test]
    fn the_auction_must_end_in_the_contract() {
        let mut e = deal(
            "N",
            270,
            json!({"meld": 100, "tricks": 200}),
            json!({"tricks": 50}),
        );
        e["auction"] = super::super::auction::golden_calls();
        let h = played(e.clone());
        assert_eq!(h.auction_calls, Some(6));
        e["bid"] = json!(280);
        assert_eq!(read_with(json!({}), e).unwrap_err().field, "auction");
    }
}
