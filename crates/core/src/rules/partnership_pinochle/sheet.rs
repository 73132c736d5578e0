//! What the sheet shows of a Partnership Pinochle deal or claim (rules §1.5): each side's
//! itemised points, what it lost for want of a trick, and running points.

use super::hand::{Claim, Deal, SideScore};
use crate::rules::partnership::{PerSide, Side};
use crate::rules::{Award, Cell, Detail, Mark, SheetLine, Step, Tally, Tone};

/// Points as the table writes them: thousands grouped with commas ("1,250").
pub use crate::rules::sheet::points as num;

/// Who held the side's dixes in words: "S", "S twice".
fn holders_words(holders: &[String]) -> String {
    let mut names: Vec<String> = Vec::new();
    for h in holders {
        let n = holders.iter().filter(|x| *x == h).count();
        let word = if n > 1 {
            format!("{h} both")
        } else {
            h.clone()
        };
        if !names.contains(&word) {
            names.push(word);
        }
    }
    names.join(", ")
}

/// A side's itemised points as awards on its column: meld, each dix 10, tricks.
fn side_awards(side: Side, deal: &Deal, s: &SideScore) -> Vec<Award> {
    let award = |amount: i64, what: String| Award {
        to: side.name().into(),
        tally: Tally::Points,
        amount,
        what,
        short: String::new(),
    };
    let mut awards = Vec::new();
    if s.meld > 0 {
        awards.push(award(s.meld, "meld".into()));
    }
    if s.holder_dix > 0 {
        awards.push(award(
            s.holder_dix,
            format!("dix ({})", holders_words(&s.holders)),
        ));
    }
    if s.turn_up > 0 {
        awards.push(award(s.turn_up, format!("dix turned up ({})", deal.dealer)));
    }
    if s.tricks > 0 {
        awards.push(award(s.tricks, "tricks".into()));
    }
    awards
}

/// What a side lost for want of a trick, as a note on its column.
fn lost_words(s: &SideScore) -> Option<String> {
    let mut parts = Vec::new();
    if s.meld_lost > 0 {
        parts.push(format!("meld {}", num(s.meld_lost)));
    }
    if s.holder_dix_lost > 0 {
        parts.push(format!("dix {}", s.holder_dix_lost));
    }
    if s.turn_up_lost > 0 {
        parts.push(format!("turned-up dix {}", s.turn_up_lost));
    }
    (!parts.is_empty()).then(|| format!("{} lost: no trick", parts.join(" + ")))
}

/// The sheet's line for a deal: dealer, trump, each side's items and losses, and points.
pub fn deal_line(deal: &Deal, scored: &PerSide<SideScore>, scores: &PerSide<i64>) -> SheetLine {
    let mut marks = Vec::new();
    let mut awards = Vec::new();
    let mut details = Vec::new();
    for side in Side::BOTH {
        let s = &scored[side];
        awards.extend(side_awards(side, deal, s));
        if let Some(lost) = lost_words(s) {
            marks.push(Mark::new(
                format!("{} took no trick", side.name()),
                Tone::Bad,
            ));
            details.push(Detail {
                account: side.name().into(),
                text: lost,
                tone: Tone::Bad,
            });
        }
    }
    SheetLine {
        dealer: Some(deal.dealer.clone()),
        contract: None,
        title: Some(format!("{} {}", deal.trump.symbol(), deal.trump.name())),
        marks,
        awards,
        details,
        cells: Side::BOTH
            .iter()
            .map(|&side| Cell::added(side.name(), Tally::Points, scored[side].total, scores[side]))
            .collect(),
    }
}

/// The deal's reckoning as steps: each side's sum and what it comes to.
pub fn deal_steps(scored: &PerSide<SideScore>) -> Vec<Step> {
    Side::BOTH
        .iter()
        .map(|&side| Step::Score {
            who: side.name().into(),
            sum: scored[side].words(),
            total: scored[side].total,
            tally: Tally::Points,
        })
        .collect()
}

/// The deal in words: "N dealt, hearts trump, N turned up a dix: NS +300 (meld 120 + …)".
pub fn describe_deal(deal: &Deal, scored: &PerSide<SideScore>) -> String {
    let mut head = format!("{} dealt, {} trump", deal.dealer, deal.trump.name());
    if deal.turn_up_dix {
        head.push_str(&format!(", {} turned up a dix", deal.dealer));
    }
    if !deal.dix_holders.is_empty() {
        head.push_str(&format!(
            ", dix held by {}",
            holders_words(&deal.dix_holders)
        ));
    }
    let side = |side: Side| {
        let s = &scored[side];
        let lost = lost_words(s).map(|l| format!(", {l}")).unwrap_or_default();
        format!("{} +{} ({}{lost})", side.name(), num(s.total), s.words())
    };
    format!("{head}: {}; {}", side(Side::NS), side(Side::EW))
}

/// A claim's sum: "850 + meld 100 + tricks 60 = 1,010" (meld left out before a trick).
pub fn claim_sum(claim: &Claim, before: i64, total: i64) -> String {
    let meld = if claim.won_trick {
        format!("meld {}", num(claim.meld))
    } else {
        format!("meld {} not counted: no trick yet", num(claim.meld))
    };
    format!(
        "{} + {meld} + tricks so far {} = {}",
        num(before),
        claim.tricks_so_far,
        num(total)
    )
}

/// The sheet's line for a claim: who declared out, right or wrong, and where the sides stand.
pub fn claim_line(claim: &Claim, correct: bool, added: i64, scores: &PerSide<i64>) -> SheetLine {
    let side = claim.side;
    let mark = if correct {
        Mark::new("right: out", Tone::Good)
    } else {
        Mark::new("wrong: loses the game", Tone::Bad)
    };
    let award = |amount: i64, what: &str| Award {
        to: side.name().into(),
        tally: Tally::Points,
        amount,
        what: what.into(),
        short: String::new(),
    };
    let mut awards = Vec::new();
    if claim.counted_meld() > 0 {
        awards.push(award(claim.meld, "meld"));
    }
    if claim.tricks_so_far > 0 {
        awards.push(award(claim.tricks_so_far, "tricks so far"));
    }
    let mut details = Vec::new();
    if !claim.won_trick && claim.meld > 0 {
        details.push(Detail {
            account: side.name().into(),
            text: format!("meld {} not counted: no trick yet", num(claim.meld)),
            tone: Tone::Bad,
        });
    }
    SheetLine {
        dealer: None,
        contract: None,
        title: Some(format!(
            "{} declares out for {}",
            claim.claimant,
            side.name()
        )),
        marks: vec![mark],
        awards,
        details,
        cells: Side::BOTH
            .iter()
            .map(|&s| {
                if s == side {
                    Cell::added(s.name(), Tally::Points, added, scores[s])
                } else {
                    Cell::running(s.name(), Tally::Points, scores[s])
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_as_the_table_writes_them() {
        assert_eq!(num(0), "0");
        assert_eq!(num(999), "999");
        assert_eq!(num(1000), "1,000");
        assert_eq!(num(1250), "1,250");
        assert_eq!(num(1_000_000), "1,000,000");
        assert_eq!(num(-1500), "−1,500");
    }

    #[test]
    fn holders_are_named_once_each() {
        let h = |v: &[&str]| holders_words(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(h(&["S"]), "S");
        assert_eq!(h(&["S", "S"]), "S both");
        assert_eq!(h(&["N", "S"]), "N, S");
    }
}
