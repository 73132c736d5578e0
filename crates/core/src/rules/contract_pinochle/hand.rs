//! One Contract Pinochle deal, checked (rules §1.8, S003), and what it scores.
//!
//! ```json
//! { "type": "hand", "dealer": "N", "bidder": "E", "bid": 250, "trump": "hearts",
//!   "doubled": "no", "outcome": "made",
//!   "auction": [["N", "200 spades"], ["E", "250 hearts"], ["S", "pass"], ["W", "pass"],
//!               ["N", "pass"]] }
//! { "type": "hand", "dealer": "E", "all_passed": true }
//! ```
//!
//! `doubled`: `"no"` | `"doubled"` | `"redoubled"`, by default what the `auction` ended in
//! (else `"no"`). `outcome`: `made` | `made_on_meld` | `failed` | `conceded_before_lead` |
//! `conceded_after_lead` | `opponents_conceded`. An optional `auction` is checked
//! ([`super::auction`]) and must end in the hand's contract.

use serde::{Deserialize, Serialize};

use super::agreements::Agreements;
use super::auction::{self, Ended};
use crate::rules::hand_form::is_false;
use crate::rules::partnership::{Seating, Side};
use crate::rules::typed::no_contract;
use crate::rules::{RuleError, Suit, contract_head};

/// The lowest bid, in points: the dealer opens with a pass or at least 100 (rules §1.8).
pub const MIN_BID: i64 = 100;

/// The highest bid accepted, in points: catches a typed extra zero; `bid × 4` fits.
pub const MAX_BID: i64 = 10_000;

/// Whether the contract stands doubled (rules §1.8: multiplier 1 / 2 / 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Doubled {
    /// Undoubled: × 1.
    #[default]
    No,
    /// Doubled by an opponent: × 2.
    Doubled,
    /// Redoubled by the contracting side: × 4.
    Redoubled,
}

impl Doubled {
    /// All three, in the order forms offer them.
    pub const ALL: [Doubled; 3] = [Doubled::No, Doubled::Doubled, Doubled::Redoubled];

    /// The multiplier `d` of rules §1.8: 1, 2 or 4.
    pub fn multiplier(self) -> i64 {
        match self {
            Doubled::No => 1,
            Doubled::Doubled => 2,
            Doubled::Redoubled => 4,
        }
    }

    /// The value in documents: `"no"`, `"doubled"`, `"redoubled"`.
    pub fn id(self) -> &'static str {
        match self {
            Doubled::No => "no",
            Doubled::Doubled => "doubled",
            Doubled::Redoubled => "redoubled",
        }
    }

    /// The words on the sheet: `"undoubled"`, `"doubled"`, `"redoubled"`.
    pub fn words(self) -> &'static str {
        match self {
            Doubled::No => "undoubled",
            Doubled::Doubled => "doubled",
            Doubled::Redoubled => "redoubled",
        }
    }
}

/// How the hand ended (rules §1.8 scoring table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandOutcome {
    /// Played out and the contracting side made its bid.
    Made,
    /// The contracting side's melds alone reached the bid; the hand was not played.
    MadeOnMeld,
    /// Played out and the contracting side fell short.
    Failed,
    /// Both contractors threw the hand in before a card was led.
    ConcededBeforeLead,
    /// Both contractors threw the hand in after a card was played.
    ConcededAfterLead,
    /// Both opponents conceded (at any time).
    OpponentsConceded,
}

impl HandOutcome {
    /// All six, in the order forms offer them.
    pub const ALL: [HandOutcome; 6] = [
        HandOutcome::Made,
        HandOutcome::MadeOnMeld,
        HandOutcome::Failed,
        HandOutcome::ConcededBeforeLead,
        HandOutcome::ConcededAfterLead,
        HandOutcome::OpponentsConceded,
    ];

    /// The value in documents (`"conceded_before_lead"`).
    pub fn id(self) -> &'static str {
        match self {
            HandOutcome::Made => "made",
            HandOutcome::MadeOnMeld => "made_on_meld",
            HandOutcome::Failed => "failed",
            HandOutcome::ConcededBeforeLead => "conceded_before_lead",
            HandOutcome::ConcededAfterLead => "conceded_after_lead",
            HandOutcome::OpponentsConceded => "opponents_conceded",
        }
    }

    /// The words on the sheet and the form ("conceded before the lead").
    pub fn words(self) -> &'static str {
        match self {
            HandOutcome::Made => "made",
            HandOutcome::MadeOnMeld => "made on meld",
            HandOutcome::Failed => "failed",
            HandOutcome::ConcededBeforeLead => "conceded before the lead",
            HandOutcome::ConcededAfterLead => "conceded after the lead",
            HandOutcome::OpponentsConceded => "opponents conceded",
        }
    }

    /// Whether the contracting side scores (else the opponents do).
    pub fn contractors_score(self) -> bool {
        matches!(
            self,
            HandOutcome::Made | HandOutcome::MadeOnMeld | HandOutcome::OpponentsConceded
        )
    }
}

/// A `hand` event as the session document writes it; the hand form builds one too.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenHand {
    /// Who dealt (and called first).
    pub dealer: String,
    /// All four passed: a new deal, nothing else is written.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_passed: bool,
    /// Who won the auction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bidder: Option<String>,
    /// The contract, in points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<i64>,
    /// The trump named with the final bid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trump: Option<Suit>,
    /// Undoubled, doubled or redoubled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doubled: Option<Doubled>,
    /// How the hand ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<HandOutcome>,
    /// The calls, `[player, call]`, the dealer first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auction: Option<Vec<(String, String)>>,
}

/// A played deal, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contract {
    /// Who dealt.
    pub dealer: String,
    /// Who won the auction.
    pub bidder: String,
    /// The bidder's partnership: the contracting side.
    pub side: Side,
    /// The contract, in points.
    pub bid: i64,
    /// Trump.
    pub trump: Suit,
    /// Undoubled, doubled or redoubled.
    pub doubled: Doubled,
    /// How it ended.
    pub result: HandOutcome,
    /// How many calls the recorded auction had (checked), if it was recorded.
    pub auction_calls: Option<usize>,
}

/// A deal: thrown in, or played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deal {
    /// All four passed (rules §1.8): no score, the next dealer deals and bids first.
    AllPassed {
        /// Who dealt.
        dealer: String,
    },
    /// A contract was played (or conceded).
    Played(Contract),
}

/// Checks a `hand` as written (session-format). Errors name the field: unknown; unseated; `bid`
/// (rules §1.8); a missing contract field; contract fields when `all_passed`; a bad `auction`.
pub fn check(
    w: WrittenHand,
    seating: &Seating,
    agreements: &Agreements,
) -> Result<Deal, RuleError> {
    contract_head::seated_dealer(&w.dealer, seating)?;
    let ended = match &w.auction {
        Some(calls) => Some(auction::check(
            calls,
            &w.dealer,
            seating,
            agreements.double_survives_overcall,
        )?),
        None => None,
    };
    if w.all_passed {
        check_all_passed(&w, ended.as_ref())?;
        return Ok(Deal::AllPassed { dealer: w.dealer });
    }
    let head = contract_head::head(w.bidder, w.bid, w.trump, seating, &ASKS, auction::check_bid)?;
    let result = w.outcome.ok_or_else(|| {
        RuleError::new(
            "outcome",
            "How did the hand end? Made, made on meld, set, conceded before or after the lead, or the opponents conceded",
        )
    })?;
    let doubled = match (w.doubled, &ended) {
        (Some(d), _) => d,
        (None, Some(Ended::Contract(f))) => f.doubled,
        (None, _) => Doubled::No,
    };
    auction_agrees(ended.as_ref(), &head, doubled)?;
    Ok(Deal::Played(Contract {
        dealer: w.dealer,
        bidder: head.bidder,
        side: head.side,
        bid: head.bid,
        trump: head.trump,
        doubled,
        result,
        auction_calls: w.auction.as_ref().map(Vec::len),
    }))
}

/// Contract Pinochle's words for a missing bidder, bid or trump (rules §1.8).
const ASKS: contract_head::Asks = contract_head::Asks {
    bidder_rule: "rules §1.8",
    bid: || RuleError::new("bid", "what was the bid?"),
    trump: || RuleError::new("trump", "which suit is trump?"),
};

/// All passed: no contract field; a recorded auction is four passes (rules §1.8).
fn check_all_passed(w: &WrittenHand, ended: Option<&Ended>) -> Result<(), RuleError> {
    let given = [
        ("bidder", w.bidder.is_some()),
        ("bid", w.bid.is_some()),
        ("trump", w.trump.is_some()),
        ("doubled", w.doubled.is_some()),
        ("outcome", w.outcome.is_some()),
    ];
    no_contract(
        &given,
        "all four passed, so there is no contract: clear it, or enter the hand as played",
        Some("rules §1.8"),
    )?;
    if let Some(Ended::Contract(f)) = ended {
        return Err(RuleError::new(
            "auction",
            format!(
                "the auction ends in {}'s {} {}, not in four passes",
                f.bidder,
                f.bid,
                f.trump.name()
            ),
        ));
    }
    Ok(())
}

/// A recorded auction must end in the played contract (rules §1.8). Errors name `auction`.
fn auction_agrees(
    ended: Option<&Ended>,
    head: &contract_head::Head,
    doubled: Doubled,
) -> Result<(), RuleError> {
    match ended {
        None => Ok(()),
        Some(Ended::AllPassed) => Err(RuleError::new(
            "auction",
            "all four passed in this auction: enter the deal with the All passed button",
        )
        .rule("rules §1.8")),
        Some(Ended::Contract(f)) => {
            let words = |bidder: &str, bid: i64, trump: Suit, doubled: Doubled| {
                format!("{bidder}'s {bid} {}, {}", trump.name(), doubled.words())
            };
            let said = words(&head.bidder, head.bid, head.trump, doubled);
            let ends = words(&f.bidder, f.bid, f.trump, f.doubled);
            if said != ends {
                return Err(RuleError::new(
                    "auction",
                    format!("the auction ends in {ends}, but the hand says {said}"),
                ));
            }
            Ok(())
        }
    }
}

/// What a played hand scores: only one side scores (rules §1.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scored {
    /// The side that scores.
    pub side: Side,
    /// Its points.
    pub points: i64,
}

/// Scores a contract (rules §1.8, `d` = 1/2/4): made, on meld or conceded to → contractors
/// `bid × d`; failed or conceded after a card → opponents `bid × d`, before the lead half.
pub fn score(c: &Contract) -> Scored {
    let full = c.bid * c.doubled.multiplier();
    match c.result {
        HandOutcome::Made | HandOutcome::MadeOnMeld | HandOutcome::OpponentsConceded => Scored {
            side: c.side,
            points: full,
        },
        HandOutcome::Failed | HandOutcome::ConcededAfterLead => Scored {
            side: c.side.other(),
            points: full,
        },
        HandOutcome::ConcededBeforeLead => Scored {
            side: c.side.other(),
            points: full / 2,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

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
    use crate::rules::typed::TableAgreements;
    use serde_json::json;

    fn seating() -> Seating {
        Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
    }

    fn read_json(v: Value, survives: bool) -> Result<Deal, RuleError> {
        let a = Agreements::read(
            json!({"double_survives_overcall": survives})
                .as_object()
                .unwrap(),
        )
        .unwrap();
        read(v.as_object().unwrap(), &seating(), &a)
    }

    fn hand(extra: Value) -> Value {
        let mut h = json!({"type": "hand", "dealer": "N", "bidder": "E", "bid": 200,
                           "trump": "clubs", "doubled": "no", "outcome": "made"});
        for (k, v) in extra.as_object().unwrap() {
            h[k] = v.clone();
        }
        h
    }

    fn played(v: Value) -> Contract {
        match read_json(v, false).unwrap() {
            Deal::Played(c) => c,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_result_scores_for_one_side_only() {
        // E (EW) bids 200: d = 1, 2, 4.
        let cases = [
            ("made", "no", Side::EW, 200),
            ("made_on_meld", "doubled", Side::EW, 400),
            ("opponents_conceded", "redoubled", Side::EW, 800),
            ("failed", "no", Side::NS, 200),
            ("failed", "redoubled", Side::NS, 800),
            ("conceded_after_lead", "doubled", Side::NS, 400),
            // Before the lead: 200 / 2 = 100; doubled 200; redoubled 2 × 200 = 400.
            ("conceded_before_lead", "no", Side::NS, 100),
            ("conceded_before_lead", "doubled", Side::NS, 200),
            ("conceded_before_lead", "redoubled", Side::NS, 400),
        ];
        for (outcome, doubled, side, points) in cases {
            let c = played(hand(json!({"outcome": outcome, "doubled": doubled})));
            assert_eq!(score(&c), Scored { side, points }, "{outcome} {doubled}");
        }
        // 350 conceded before the lead undoubled: 175 (golden CP-04-a).
        let c = played(hand(
            json!({"bid": 350, "bidder": "N", "outcome": "conceded_before_lead"}),
        ));
        assert_eq!(
            score(&c),
            Scored {
                side: Side::EW,
                points: 175
            }
        );
    }

    #[test]
    fn impossible_hands_are_refused_by_field() {
        let field = |v: Value| read_json(v, false).unwrap_err().field;
        assert_eq!(field(hand(json!({"bid": 90}))), "bid");
        assert_eq!(field(hand(json!({"bid": 255}))), "bid");
        assert_eq!(field(hand(json!({"bid": MAX_BID + 10}))), "bid");
        assert_eq!(field(hand(json!({"bidder": "Zed"}))), "bidder");
        assert_eq!(field(hand(json!({"dealer": "Zed"}))), "dealer");
        assert_eq!(field(hand(json!({"outcome": "won"}))), "outcome");
        assert_eq!(field(hand(json!({"doubled": "yes"}))), "doubled");
        assert_eq!(field(hand(json!({"trump": "stars"}))), "trump");
        assert_eq!(field(hand(json!({"meld": 120}))), "meld");
        let mut h = hand(json!({}));
        h.as_object_mut().unwrap().remove("outcome");
        assert_eq!(field(h), "outcome");
        let h = json!({"type": "hand", "dealer": "N", "all_passed": true, "bid": 200});
        assert_eq!(field(h), "bid");
        assert_eq!(
            field(json!({"type": "hand", "dealer": "N"})),
            "bidder",
            "a deal is either played or all passed"
        );
    }

    #[test]
    fn doubled_defaults_to_no_or_to_what_the_auction_says() {
        let mut h = hand(json!({}));
        h.as_object_mut().unwrap().remove("doubled");
        assert_eq!(played(h.clone()).doubled, Doubled::No);
        h["auction"] = json!([
            ["N", "pass"],
            ["E", "200 clubs"],
            ["S", "double"],
            ["W", "pass"],
            ["N", "pass"],
            ["E", "pass"]
        ]);
        let c = played(h);
        assert_eq!(c.doubled, Doubled::Doubled);
        assert_eq!(c.auction_calls, Some(6));
        assert_eq!(score(&c).points, 400);
    }

    #[test]
    fn the_auction_must_end_in_the_hands_contract() {
        let auction = json!([
            ["N", "pass"],
            ["E", "200 clubs"],
            ["S", "pass"],
            ["W", "pass"],
            ["N", "pass"]
        ]);
        assert!(read_json(hand(json!({"auction": auction})), false).is_ok());
        for wrong in [
            json!({"bid": 210}),
            json!({"trump": "spades"}),
            json!({"bidder": "W"}),
            json!({"doubled": "doubled"}),
        ] {
            let mut h = hand(wrong.clone());
            h["auction"] = auction.clone();
            assert_eq!(read_json(h, false).unwrap_err().field, "auction", "{wrong}");
        }
        let four = json!([["N", "pass"], ["E", "pass"], ["S", "pass"], ["W", "pass"]]);
        assert_eq!(
            read_json(hand(json!({"auction": four.clone()})), false)
                .unwrap_err()
                .field,
            "auction"
        );
        let passed = json!({"type": "hand", "dealer": "N", "all_passed": true, "auction": four});
        assert_eq!(
            read_json(passed, false).unwrap(),
            Deal::AllPassed { dealer: "N".into() }
        );
        let passed = json!({"type": "hand", "dealer": "N", "all_passed": true,
                            "auction": auction});
        assert_eq!(read_json(passed, false).unwrap_err().field, "auction");
    }

    #[test]
    fn a_written_hand_is_the_documents_shape() {
        use crate::rules::typed::Events;
        let h = hand(json!({"doubled": "redoubled", "outcome": "conceded_before_lead"}));
        let p = json!({"type": "hand", "dealer": "N", "all_passed": true});
        for written in [h, p] {
            let event = super::super::Event::read("hand", written.as_object().unwrap());
            let event = event.unwrap().unwrap();
            assert_eq!(serde_json::to_value(&event).unwrap(), written);
        }
    }
}
