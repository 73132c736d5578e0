//! One Check Pinochle deal: the `hand` event as entered at the table, checked against the
//! rules (rules §1.0, §1.7), and what it scores in points and checks.
//!
//! ```json
//! { "type": "hand", "dealer": "W", "bidder": "N", "bid": 300, "trump": "hearts",
//!   "dealer_forced": false,
//!   "NS": { "meld": 140, "meld_checks": ["aces_100"], "tricks": 180,
//!           "won_trick": true, "all_tricks": false },
//!   "EW": { "meld": 60, "meld_checks": ["queens_60"], "tricks": 70 } }
//! ```
//!
//! Per side, `tricks` is required; `meld` defaults to 0, `meld_checks` to `[]` (list each
//! occurrence; a roundhouse's own kings and queens are not listed again), `won_trick` to
//! "took any trick points" (say `true` for a side that won only pointless tricks) and
//! `all_tricks` to "the other side won no trick", the only way to win all 12.
//! `dealer_forced` (default false) records that the first three passed and the dealer had
//! to bid (rules §1.7 bidding rule 4).

use serde::{Deserialize, Serialize};

use super::agreements::Agreements;
use super::checks::{MIN_BID, MeldCheck};
use crate::rules::hand_form::is_false;
use crate::rules::partnership::{self, PerSide, Seating, Side, SideHand};
use crate::rules::{Field, RuleError, Suit};

/// The highest bid accepted, in points: a guard against a typed extra zero.
pub const MAX_BID: i64 = 10_000;

/// One side's part of a deal, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideInput {
    /// Meld points, trick points, won-a-trick.
    pub hand: SideHand,
    /// Every check-bearing meld, one entry per occurrence.
    pub meld_checks: Vec<MeldCheck>,
    /// Whether the side won all 12 tricks (a slam).
    pub all_tricks: bool,
}

/// A deal, checked: the contract and both sides' results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    /// Who dealt.
    pub dealer: String,
    /// Who won the auction.
    pub bidder: String,
    /// The bidder's partnership.
    pub bidding: Side,
    /// The contract, in points (a multiple of 10, at least 200).
    pub bid: i64,
    /// The trump the bidder named.
    pub trump: Suit,
    /// The first three passed and the dealer had to bid (rules §1.7 bidding rule 4).
    pub dealer_forced: bool,
    /// Each side's result.
    pub sides: PerSide<SideInput>,
}

/// A `hand` event as written (the shape above). Points throughout.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenHand {
    /// Who dealt.
    pub dealer: String,
    /// Who won the auction.
    pub bidder: String,
    /// The contract, in points.
    pub bid: i64,
    /// The trump the bidder named.
    pub trump: Suit,
    /// The first three passed and the dealer had to bid (rules §1.7 bidding rule 4).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dealer_forced: bool,
    /// North–South's result.
    #[serde(rename = "NS")]
    pub ns: WrittenSide,
    /// East–West's result.
    #[serde(rename = "EW")]
    pub ew: WrittenSide,
}

/// One side's part of a written hand.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenSide {
    /// Meld points (0 when left out).
    #[serde(default)]
    pub meld: i64,
    /// Every check-bearing meld, one entry per occurrence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meld_checks: Vec<MeldCheck>,
    /// Trick points, 0–250.
    pub tricks: i64,
    /// Whether the side won a trick; read from the trick points when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won_trick: Option<bool>,
    /// Whether the side won all 12 tricks; read from the other side when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_tricks: Option<bool>,
}

/// Checks a `hand` as written (session-format). Errors name the field: `dealer`/`bidder` not
/// seated; `bid` (rules §1.7 rule 2); `dealer_forced` (rule 4); [`partnership::check_hands`];
/// `all_tricks`; `meld_checks` beyond the meld or deck.
pub fn check(w: WrittenHand, seating: &Seating) -> Result<Hand, RuleError> {
    if seating.seat_of(&w.dealer).is_none() {
        return Err(RuleError::new(
            "dealer",
            format!("{} is not seated at this table", w.dealer),
        ));
    }
    let bidding = seating.side_of(&w.bidder).ok_or_else(|| {
        RuleError::new(
            "bidder",
            format!("{} is not seated at this table", w.bidder),
        )
    })?;
    check_bid(&w)?;
    let hands = PerSide::new(
        SideHand::new(w.ns.meld, w.ns.tricks, w.ns.won_trick),
        SideHand::new(w.ew.meld, w.ew.tricks, w.ew.won_trick),
    );
    partnership::check_hands(&hands)?;
    if w.dealer_forced && w.bid > MIN_BID && hands[bidding].meld < 20 {
        return Err(RuleError::new(
            "bid",
            format!(
                "a forced dealer without a marriage bids exactly 200, and {} melded {} — no marriage",
                bidding.name(),
                hands[bidding].meld
            ),
        )
        .rule("rules §1.7 bidding rule 4, S003"));
    }
    let written = PerSide::new(w.ns, w.ew);
    let all_tricks = all_tricks(&written, &hands)?;
    check_meld_checks(&written, &hands)?;
    Ok(Hand {
        dealer: w.dealer,
        bidder: w.bidder,
        bidding,
        bid: w.bid,
        trump: w.trump,
        dealer_forced: w.dealer_forced,
        sides: PerSide::from_fn(|s| SideInput {
            hand: hands[s],
            meld_checks: written[s].meld_checks.clone(),
            all_tricks: all_tricks[s],
        }),
    })
}

fn check_bid(w: &WrittenHand) -> Result<(), RuleError> {
    if w.bid % 10 != 0 {
        return Err(
            RuleError::new("bid", format!("{} is not a multiple of 10", w.bid))
                .rule("rules §1.7 bidding rule 2"),
        );
    }
    if w.bid < MIN_BID {
        return Err(RuleError::new(
            "bid",
            format!("{} is below the minimum 200 for every seat", w.bid),
        )
        .rule("rules §1.7 bidding rule 2"));
    }
    if w.bid > MAX_BID {
        return Err(RuleError::new(
            "bid",
            format!("{} is more than any deal can make", w.bid),
        ));
    }
    if w.dealer_forced && w.bidder != w.dealer {
        return Err(RuleError::new(
            "dealer_forced",
            format!(
                "only the dealer is forced to bid, when the first three pass, and {} bid but {} dealt",
                w.bidder, w.dealer
            ),
        )
        .rule("rules §1.7 bidding rule 4"));
    }
    Ok(())
}

/// All 12 tricks exactly when the other side won none (rules §1.7).
fn all_tricks(
    written: &PerSide<WrittenSide>,
    hands: &PerSide<SideHand>,
) -> Result<PerSide<bool>, RuleError> {
    let mut out = PerSide::default();
    for side in Side::BOTH {
        let swept = !hands[side.other()].won_trick;
        let field = Field::of_side(side.name(), "all_tricks");
        match written[side].all_tricks {
            Some(true) if !swept => {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{} won a trick, so {} did not win all 12",
                        side.other().name(),
                        side.name()
                    ),
                )
                .rule("rules §1.7"));
            }
            Some(false) if swept => {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{} won no trick, so {} won all 12",
                        side.other().name(),
                        side.name()
                    ),
                )
                .rule("rules §1.7"));
            }
            _ => out[side] = swept,
        }
    }
    Ok(out)
}

/// The listed check melds must fit the side's meld points and the deck (rules §1.0).
fn check_meld_checks(
    written: &PerSide<WrittenSide>,
    hands: &PerSide<SideHand>,
) -> Result<(), RuleError> {
    let mut used = [0usize; 7];
    for side in Side::BOTH {
        let field = Field::of_side(side.name(), "meld_checks");
        let list = &written[side].meld_checks;
        let least: i64 = list.iter().map(|m| m.least_points()).sum();
        if least > hands[side].meld {
            return Err(RuleError::new(
                field,
                format!(
                    "{} hold at least {least} meld points, more than the {} entered for {}",
                    words(list),
                    hands[side].meld,
                    side.name()
                ),
            )
            .rule("rules §1.0"));
        }
        for meld in list {
            used[meld.index()] += 1;
        }
        let roundhouses = used[MeldCheck::Roundhouse.index()];
        for meld in MeldCheck::ALL {
            let n = match meld {
                MeldCheck::Kings80 | MeldCheck::Queens60 => used[meld.index()] + roundhouses,
                _ => used[meld.index()],
            };
            if n > meld.most_per_deal() {
                let uses = match meld {
                    MeldCheck::Kings80 | MeldCheck::Queens60 if roundhouses > 0 => {
                        " (each roundhouse uses a set of four)"
                    }
                    _ => "",
                };
                return Err(RuleError::new(
                    field,
                    format!(
                        "the deck holds two of each card, so one deal has at most {} {}{uses}",
                        meld.most_per_deal(),
                        meld.words()
                    ),
                )
                .rule("rules §1.0"));
            }
        }
    }
    Ok(())
}

fn words(list: &[MeldCheck]) -> String {
    list.iter()
        .map(|m| m.words())
        .collect::<Vec<_>>()
        .join(" + ")
}

/// One check award and its words (`+7 (make 300–340)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award {
    /// Checks awarded.
    pub checks: i64,
    /// What for.
    pub words: String,
}

/// What one side scores on a deal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideScore {
    /// Points added to the side's score (negative when a bid fails).
    pub points: i64,
    /// Check awards, in the order of the sheet.
    pub awards: Vec<Award>,
    /// The points in words: `"meld 140 + tricks 180"`.
    pub points_words: String,
    /// Check melds that earn nothing this deal and why (`"flush cancelled"`).
    pub lost: Option<String>,
}

impl SideScore {
    /// Checks earned on the deal.
    pub fn checks(&self) -> i64 {
        self.awards.iter().map(|a| a.checks).sum()
    }
}

/// A scored deal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scored {
    /// Whether the bidding side's counted meld + tricks reached the bid.
    pub made: bool,
    /// The bidding side's counted meld + tricks, in points.
    pub bidders_total: i64,
    /// The same in words: `"meld 200 + tricks 120"`.
    pub bidders_words: String,
    /// Each side's points and checks.
    pub sides: PerSide<SideScore>,
}

/// Scores a deal (rules §1.7, S003 with BIC-CHK):
/// * made: both sides score meld + tricks; the bidders get the make checks;
/// * set: the bidders score −bid and nothing else (S003); the opponents get defeat checks;
/// * all but set bidders get meld checks (§3 item 22), slam and count (§3 item 23).
pub fn score(hand: &Hand, agreements: &Agreements) -> Scored {
    let needs_trick = agreements.meld_needs_trick;
    let bidders = hand.bidding;
    let bidders_total = hand.sides[bidders].hand.points(needs_trick);
    let made = bidders_total >= hand.bid;
    let table = &agreements.table;
    let sides = PerSide::from_fn(|side| {
        let input = &hand.sides[side];
        if side == bidders && !made {
            let lost = (!input.meld_checks.is_empty())
                .then(|| format!("{} cancelled", words(&input.meld_checks)));
            return SideScore {
                points: -hand.bid,
                awards: Vec::new(),
                points_words: format!("the bid {}", hand.bid),
                lost,
            };
        }
        let mut awards = Vec::new();
        if side == bidders {
            awards.push(Award {
                checks: table.make_checks(hand.bid),
                words: format!("make {}", table.band_label(hand.bid)),
            });
        } else if !made {
            awards.push(Award {
                checks: table.defeat_checks(hand.bid),
                words: format!("defeat {}", table.band_label(hand.bid)),
            });
        }
        let counts = input.hand.won_trick || !needs_trick;
        let lost = if counts {
            awards.extend(meld_awards(&input.meld_checks, agreements));
            None
        } else {
            (!input.meld_checks.is_empty())
                .then(|| format!("{} lost without a trick", words(&input.meld_checks)))
        };
        awards.extend(play_awards(input, agreements));
        awards.retain(|a| a.checks != 0);
        SideScore {
            points: input.hand.points(needs_trick),
            awards,
            points_words: points_words(&input.hand, needs_trick),
            lost,
        }
    });
    Scored {
        made,
        bidders_total,
        bidders_words: points_words(&hand.sides[bidders].hand, needs_trick),
        sides,
    }
}

/// Meld checks per kind (`+4 (2 × 100 aces)`); §3 item 21 adds kings and queens to a roundhouse.
fn meld_awards(list: &[MeldCheck], agreements: &Agreements) -> Vec<Award> {
    let mut awards = Vec::new();
    for meld in MeldCheck::ALL {
        let n = list.iter().filter(|m| **m == meld).count() as i64;
        if n == 0 {
            continue;
        }
        let times = if n > 1 {
            format!("{n} × ")
        } else {
            String::new()
        };
        awards.push(Award {
            checks: n * agreements.meld_checks.get(meld),
            words: format!("{times}{}", meld.words()),
        });
        if meld == MeldCheck::Roundhouse && agreements.roundhouse_includes_kings_queens {
            for part in [MeldCheck::Kings80, MeldCheck::Queens60] {
                awards.push(Award {
                    checks: n * agreements.meld_checks.get(part),
                    words: format!("{times}{} in the roundhouse", part.words()),
                });
            }
        }
    }
    awards
}

/// Slam and all-250 count (rules §1.7): both add up, or only the larger with §3 item 23 off.
fn play_awards(input: &SideInput, agreements: &Agreements) -> Vec<Award> {
    let table = &agreements.table;
    let slam = input.all_tricks.then(|| Award {
        checks: table.slam,
        words: "all 12 tricks".into(),
    });
    let count =
        (input.hand.tricks == partnership::ALL_TRICK_POINTS && table.all_count > 0).then(|| {
            Award {
                checks: table.all_count,
                words: "all 250 count".into(),
            }
        });
    match (slam, count) {
        (Some(s), Some(c)) if !agreements.slam_and_count_cumulative => {
            let mut best = if c.checks > s.checks { c } else { s };
            best.words
                .push_str(", the larger of slam and count (not cumulative)");
            vec![best]
        }
        (s, c) => s.into_iter().chain(c).collect(),
    }
}

fn points_words(h: &SideHand, needs_trick: bool) -> String {
    if h.counted_meld(needs_trick) == h.meld {
        format!("meld {} + tricks {}", h.meld, h.tricks)
    } else {
        format!("tricks {}; meld {} lost without a trick", h.tricks, h.meld)
    }
}

#[cfg(test)]
#[path = "hand_tests.rs"]
mod tests;
