//! One Auction Pinochle deal as entered, read and checked (rules §1.1).

use serde::{Deserialize, Serialize};

use super::agreements::Agreements;
use crate::money::Money;
use crate::rules::hand_form::is_false;
use crate::rules::typed::no_contract;
use crate::rules::{RuleError, Suit, Table};

/// How the contract ended (rules §1.1, per-hand inputs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Played out; meld + counters reached the bid.
    Made,
    /// Played out; meld + counters fell short.
    Failed,
    /// The bidder threw in after seeing the widow, before leading a card (single bete).
    ConcededBeforeLead,
    /// The bidder threw in after leading a card (treated as failed).
    ConcededAfterLead,
    /// Every active opponent conceded (pays like made).
    OpponentsConceded,
    /// The bidder reneged (pays like failed).
    BidderRenege,
    /// An opponent reneged, binding on the other (pays like made).
    DefenderRenege,
}

impl Outcome {
    /// Every outcome, in the order forms offer them.
    pub const ALL: [Outcome; 7] = [
        Outcome::Made,
        Outcome::Failed,
        Outcome::ConcededBeforeLead,
        Outcome::ConcededAfterLead,
        Outcome::OpponentsConceded,
        Outcome::BidderRenege,
        Outcome::DefenderRenege,
    ];

    /// The id used in documents (`"conceded_after_lead"`).
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Made => "made",
            Outcome::Failed => "failed",
            Outcome::ConcededBeforeLead => "conceded_before_lead",
            Outcome::ConcededAfterLead => "conceded_after_lead",
            Outcome::OpponentsConceded => "opponents_conceded",
            Outcome::BidderRenege => "bidder_renege",
            Outcome::DefenderRenege => "defender_renege",
        }
    }

    /// Words for the form's chips and the steps: a bid not made is "set".
    pub fn words(self) -> &'static str {
        match self {
            Outcome::Made => "made",
            Outcome::Failed => "set",
            Outcome::ConcededBeforeLead => "conceded before the lead",
            Outcome::ConcededAfterLead => "conceded after the lead",
            Outcome::OpponentsConceded => "opponents conceded",
            Outcome::BidderRenege => "bidder reneged",
            Outcome::DefenderRenege => "defender reneged",
        }
    }

    /// The result on the sheet's row: set is double bete, a throw-in single (rules §1.1, §1.3).
    pub fn row_words(self) -> &'static str {
        match self {
            Outcome::Made => "made",
            Outcome::Failed => "set: double bete",
            Outcome::ConcededBeforeLead => "conceded before the lead: single bete",
            Outcome::ConcededAfterLead => "conceded after the lead: double bete",
            Outcome::OpponentsConceded => "opponents conceded",
            Outcome::BidderRenege => "bidder reneged: double bete",
            Outcome::DefenderRenege => "defender reneged",
        }
    }

    /// True for the outcomes the bidder wins: made, opponents conceded, defender renege.
    pub fn bidder_wins(self) -> bool {
        matches!(
            self,
            Outcome::Made | Outcome::OpponentsConceded | Outcome::DefenderRenege
        )
    }
}

/// A deal with a contract, checked: the bidder is an active player, the bid is legal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contract {
    /// Who dealt (sits out when four are seated).
    pub dealer: String,
    /// Who won the auction.
    pub bidder: String,
    /// The final bid, in points.
    pub bid: i64,
    /// The final trump suit (it may change until the first lead; the final one counts).
    pub trump: Suit,
    /// How it ended (given, or derived from meld and counters).
    pub outcome: Outcome,
    /// Whether the outcome was derived from meld and counters.
    pub derived: bool,
    /// The opponent who reneged, for `defender_renege`.
    pub renege_by: Option<String>,
    /// The bidder's meld, in points, if given.
    pub meld: Option<i64>,
    /// The bidder's counters (points taken in tricks, buried cards included), if given.
    pub counters: Option<i64>,
    /// Money the bidder has on the table, for the kitty cover rule (rules §1.2 rule 9).
    pub bidder_cash: Option<Money>,
}

/// One deal: passed out, or played (or conceded) under a contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deal {
    /// Every active player passed; the hand is thrown in (rules §1.1 bidding).
    AllPassed {
        /// Who dealt.
        dealer: String,
    },
    /// A contract was bid.
    Contract(Contract),
}

/// A `hand` event as written (session-format); points, but `bidder_cash` is money.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenHand {
    /// Who dealt.
    pub dealer: String,
    /// Every active player passed: the deal is thrown in.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_passed: bool,
    /// Who won the bid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bidder: Option<String>,
    /// The winning bid, in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid: Option<i64>,
    /// The trump the bidder named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump: Option<Suit>,
    /// How the contract ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The defender who reneged, when `outcome` is `defender_renege`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renege_by: Option<String>,
    /// The bidder's meld, in points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meld: Option<i64>,
    /// The bidder's counters (trick points), 0–250.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counters: Option<i64>,
    /// Cash the bidder settled at the table instead of through the ledger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bidder_cash: Option<Money>,
}

/// Trick points in one deal: 250 with the last trick, whatever the count (rules §1.0).
pub const ALL_COUNTERS: i64 = 250;

/// The most a bidder can meld in one deal, in points: far above Scarne's 721–730 for meld
/// and counters (rules §1.0); catches a typed extra zero.
pub const MAX_MELD: i64 = crate::rules::partnership::MAX_MELD;

/// The highest bid accepted, in points: [`MAX_MELD`] as in Check and Contract Pinochle.
pub const MAX_BID: i64 = 10_000;

/// Checks a `hand` as written (session-format). Errors name the field: an unseated or disallowed
/// person, `bid` not in tens or below the minimum (rules §1.1), `counters` outside 0–250 (rules
/// §1.0), `outcome` missing or contradicted.
pub fn check(w: WrittenHand, agreements: &Agreements, table: &Table) -> Result<Deal, RuleError> {
    let seated = table.seated();
    if !(3..=4).contains(&seated.len()) {
        return Err(RuleError::new(
            "dealer",
            format!(
                "Auction Pinochle is played by 3 or 4 seated players, and {} are seated",
                seated.len()
            ),
        )
        .rule("rules §1.1"));
    }
    if !table.is_seated(&w.dealer) {
        return Err(RuleError::new(
            "dealer",
            format!("{} is not seated at this table", w.dealer),
        ));
    }
    if w.all_passed {
        return all_passed(w);
    }
    let four_handed = seated.len() == 4;
    let bidder = w.bidder.clone().ok_or_else(|| {
        RuleError::new(
            "bidder",
            "Who won the bid? If everybody passed, use the All passed button",
        )
    })?;
    if !table.is_seated(&bidder) {
        return Err(RuleError::new(
            "bidder",
            format!("{bidder} is not seated at this table"),
        ));
    }
    if four_handed && bidder == w.dealer {
        return Err(RuleError::new(
            "bidder",
            format!("{bidder} dealt and sits out a 4-handed deal, so cannot bid"),
        )
        .rule("rules §1.1"));
    }
    let bid = w
        .bid
        .ok_or_else(|| RuleError::new("bid", "the final bid is required"))?;
    check_bid(bid, agreements)?;
    let trump = w
        .trump
        .ok_or_else(|| RuleError::new("trump", "the final trump suit is required"))?;
    check_counts(&w)?;
    let (outcome, derived) = outcome_of(&w, bid)?;
    let active = |who: &str| table.is_seated(who) && !(four_handed && who == w.dealer);
    let renege_by = renege_of(outcome, w.renege_by, &bidder, active)?;
    Ok(Deal::Contract(Contract {
        dealer: w.dealer,
        bidder,
        bid,
        trump,
        outcome,
        derived,
        renege_by,
        meld: w.meld,
        counters: w.counters,
        bidder_cash: w.bidder_cash,
    }))
}

/// An all-passed deal has no contract field (rules §1.1); errors name the first given.
fn all_passed(w: WrittenHand) -> Result<Deal, RuleError> {
    let given = [
        ("bidder", w.bidder.is_some()),
        ("bid", w.bid.is_some()),
        ("trump", w.trump.is_some()),
        ("outcome", w.outcome.is_some()),
        ("renege_by", w.renege_by.is_some()),
        ("meld", w.meld.is_some()),
        ("counters", w.counters.is_some()),
        ("bidder_cash", w.bidder_cash.is_some()),
    ];
    no_contract(
        &given,
        "a deal where all passed has no contract: clear the bidder, bid and trump, or enter the hand as played",
        None,
    )?;
    Ok(Deal::AllPassed { dealer: w.dealer })
}

/// The final bid: in tens, minimum to [`MAX_BID`] (rules §1.1, §1.0). Errors name `bid`.
fn check_bid(bid: i64, agreements: &Agreements) -> Result<(), RuleError> {
    if bid % 10 != 0 {
        return Err(
            RuleError::new("bid", format!("{bid} is not a multiple of 10")).rule("rules §1.1"),
        );
    }
    if bid < agreements.min_bid {
        return Err(RuleError::new(
            "bid",
            format!("{bid} is below the minimum {}", agreements.min_bid),
        )
        .rule("rules §1.1"));
    }
    if bid > MAX_BID {
        return Err(RuleError::new(
            "bid",
            format!(
                "{bid} is more than any deal can make: at most {MAX_BID} (a bidder's meld and counters stay near 730)"
            ),
        )
        .rule("rules §1.0"));
    }
    Ok(())
}

/// The bidder's meld (0–[`MAX_MELD`]), counters (0–250) and cash (≥ 0), where given.
fn check_counts(w: &WrittenHand) -> Result<(), RuleError> {
    if let Some(meld) = w.meld
        && meld < 0
    {
        return Err(RuleError::new("meld", format!("{meld} cannot be negative")));
    }
    if let Some(meld) = w.meld
        && meld > MAX_MELD
    {
        return Err(RuleError::new(
            "meld",
            format!("{meld} is more than any deal can meld ({MAX_MELD})"),
        )
        .rule("rules §1.0"));
    }
    if let Some(c) = w.counters
        && !(0..=ALL_COUNTERS).contains(&c)
    {
        return Err(RuleError::new(
            "counters",
            format!("{c} is outside 0–250, the points in one deal"),
        )
        .rule("rules §1.0"));
    }
    if let Some(cash) = w.bidder_cash
        && cash.cents() < 0
    {
        return Err(RuleError::new(
            "bidder_cash",
            "cash on the table cannot be negative",
        ));
    }
    Ok(())
}

/// The outcome as written or derived (`true`); a contradicted one is refused (rules §1.1).
fn outcome_of(w: &WrittenHand, bid: i64) -> Result<(Outcome, bool), RuleError> {
    let total = w.meld.zip(w.counters).map(|(m, c)| m + c);
    Ok(match (w.outcome, total) {
        (Some(o), Some(t)) if o == Outcome::Made && t < bid => {
            return Err(RuleError::new(
                "outcome",
                format!(
                    "made contradicts meld {} + counters {} = {t}, short of the bid {bid}",
                    w.meld.unwrap_or(0),
                    w.counters.unwrap_or(0)
                ),
            )
            .rule("rules §1.1"));
        }
        (Some(o), Some(t)) if o == Outcome::Failed && t >= bid => {
            return Err(RuleError::new(
                "outcome",
                format!(
                    "failed contradicts meld {} + counters {} = {t}, which reaches the bid {bid}",
                    w.meld.unwrap_or(0),
                    w.counters.unwrap_or(0)
                ),
            )
            .rule("rules §1.1"));
        }
        (Some(o), _) => (o, false),
        (None, Some(t)) => (
            if t >= bid {
                Outcome::Made
            } else {
                Outcome::Failed
            },
            true,
        ),
        (None, None) => {
            return Err(RuleError::new(
                "outcome",
                "give the outcome, or the bidder's meld and counters to derive made or failed",
            ));
        }
    })
}

/// Who reneged: an active opponent, for a defender's renege only (rules §1.1).
fn renege_of(
    outcome: Outcome,
    renege_by: Option<String>,
    bidder: &str,
    active: impl Fn(&str) -> bool,
) -> Result<Option<String>, RuleError> {
    Ok(match (outcome, renege_by) {
        (Outcome::DefenderRenege, None) => {
            return Err(
                RuleError::new("renege_by", "name the opponent who reneged").rule("rules §1.1")
            );
        }
        (Outcome::DefenderRenege, Some(who)) if who == bidder => {
            return Err(RuleError::new(
                "renege_by",
                format!(
                    "{who} is the bidder, not a defender: when the bidder reneges, choose the outcome \"bidder reneged\", which pays like failed"
                ),
            )
            .rule("rules §1.1"));
        }
        (Outcome::DefenderRenege, Some(who)) => {
            if !active(&who) {
                return Err(RuleError::new(
                    "renege_by",
                    format!("{who} is not an active opponent of {bidder} in this deal"),
                )
                .rule("rules §1.1"));
            }
            Some(who)
        }
        (_, Some(_)) => {
            return Err(RuleError::new(
                "renege_by",
                "only an opponent's renege names who reneged",
            ));
        }
        (_, None) => None,
    })
}
