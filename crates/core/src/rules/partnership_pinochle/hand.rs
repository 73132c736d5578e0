//! One Partnership Pinochle deal or claim to have gone out, checked (rules §1.0, §1.5),
//! and what a deal scores.
//!
//! ```json
//! { "type": "hand", "dealer": "N", "trump": "hearts", "turn_up_dix": true,
//!   "dix_holders": ["S"],
//!   "NS": { "meld": 120, "tricks": 160, "won_trick": true },
//!   "EW": { "meld": 80, "tricks": 90, "won_trick": true } }
//! { "type": "declare_out", "claimant": "N", "meld": 100, "tricks_so_far": 60, "won_trick": true }
//! ```
//!
//! A deal's `meld` excludes the dix 10s (default 0); `tricks` is required and sums to 250;
//! `won_trick` defaults to "took any trick points"; a player listed twice in `dix_holders`
//! held both. A claim's `meld` includes its dix 10s; `meld` and `tricks_so_far` default to 0.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::agreements::Agreements;
use crate::rules::partnership::{
    self, ALL_TRICK_POINTS, MAX_MELD, PerSide, Seating, Side, SideHand, WrittenSide,
};
use crate::rules::{Field, RuleError, Suit, fields};

/// Points per dix (9 of trump), to each holder and to a dealer turning one up (rules §1.5).
pub const DIX: i64 = 10;

/// Dixes in the deck: the 48-card pack holds two of each card (rules §1.0).
pub const DIXES_IN_DECK: usize = 2;

/// Counters are 5 or 10 and the last trick 10 (rules §1.5): trick points come in fives.
pub const TRICK_POINT_UNIT: i64 = 5;

/// A deal, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    /// Who dealt (and turned up the trump card).
    pub dealer: String,
    /// The dealer's partnership, which scores a turned-up dix.
    pub dealing: Side,
    /// Trump, the suit of the turned-up card.
    pub trump: Suit,
    /// The dealer turned up a dix (rules §1.5: he scores 10).
    pub turn_up_dix: bool,
    /// The original holders of a dix of trump, a player listed twice when he held both.
    pub dix_holders: Vec<String>,
    /// Each side's meld (without the dix 10s), trick points and won-a-trick.
    pub sides: PerSide<SideHand>,
}

/// A `hand` event as written (the first shape above). Points throughout.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenDeal {
    /// Who dealt.
    pub dealer: String,
    /// Trump, the suit of the turned-up card.
    pub trump: Suit,
    /// The dealer turned up a dix (false when left out).
    #[serde(default)]
    pub turn_up_dix: bool,
    /// The original holders of a dix, a player listed twice when he held both.
    #[serde(default)]
    pub dix_holders: Vec<String>,
    /// North–South's result.
    #[serde(rename = "NS")]
    pub ns: WrittenSide,
    /// East–West's result.
    #[serde(rename = "EW")]
    pub ew: WrittenSide,
}

/// Reads a `hand` as written, refusing `all_passed` by name (no bidding, rules §1.5).
pub fn written(event: &Map<String, Value>) -> Result<WrittenDeal, RuleError> {
    fields::read_unbid(
        event,
        "nobody bids in Partnership Pinochle: the dealer turns up trump and every deal is played",
        "rules §1.5",
    )
}

/// Checks a `hand` as written (session-format). Errors name the field: `all_passed` (no bidding,
/// rules §1.5); `dealer` or a `dix_holders` entry not seated; more than two dixes; the
/// [`partnership::check_hands`] checks; `NS.tricks` not a multiple of 5 (rules §1.5).
pub fn check(w: WrittenDeal, seating: &Seating) -> Result<Deal, RuleError> {
    let dealing = seating.side_of(&w.dealer).ok_or_else(|| {
        RuleError::new(
            "dealer",
            format!("{} is not seated at this table", w.dealer),
        )
    })?;
    for holder in &w.dix_holders {
        if seating.seat_of(holder).is_none() {
            return Err(RuleError::new(
                "dix_holders",
                format!("{holder} is not seated at this table"),
            ));
        }
    }
    let dixes = w.dix_holders.len() + usize::from(w.turn_up_dix);
    if dixes > DIXES_IN_DECK {
        let turned = if w.turn_up_dix {
            format!(" and {} turned one up", w.dealer)
        } else {
            String::new()
        };
        return Err(RuleError::new(
            "dix_holders",
            format!(
                "the deck holds only two dixes (9 of trump), and {} held {}{turned}",
                w.dix_holders.join(", "),
                w.dix_holders.len()
            ),
        )
        .rule("rules §1.0"));
    }
    let sides = PerSide::new(w.ns.hand(), w.ew.hand());
    partnership::check_hands(&sides)?;
    for side in Side::BOTH {
        check_count(sides[side].tricks, Field::of_side(side.name(), "tricks"))?;
    }
    Ok(Deal {
        dealer: w.dealer,
        dealing,
        trump: w.trump,
        turn_up_dix: w.turn_up_dix,
        dix_holders: w.dix_holders,
        sides,
    })
}

/// Trick points of the simplified count come in fives (rules §1.5).
fn check_count(tricks: i64, field: impl Into<Field>) -> Result<(), RuleError> {
    if tricks % TRICK_POINT_UNIT != 0 {
        return Err(RuleError::new(
            field,
            format!(
                "{tricks} trick points cannot be taken: aces and tens count 10, kings and queens 5, the last trick 10"
            ),
        )
        .rule("rules §1.5"));
    }
    Ok(())
}

/// What one side scores on a deal, in points, item by item (rules §1.5).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SideScore {
    /// The side's meld that counts (all of it with a trick, else none).
    pub meld: i64,
    /// The side's meld that does not count: it won no trick.
    pub meld_lost: i64,
    /// The side's players who held a dix when dealt, once per dix.
    pub holders: Vec<String>,
    /// The holders' dix 10s that count.
    pub holder_dix: i64,
    /// The holders' dix 10s lost for want of a trick (agreement `holder_dix_needs_trick`).
    pub holder_dix_lost: i64,
    /// The dealer's 10 for a turned-up dix, when it counts (the dealer's side only).
    pub turn_up: i64,
    /// The turned-up dix's 10 lost for want of a trick (`turn_up_dix_needs_trick`).
    pub turn_up_lost: i64,
    /// Trick points taken.
    pub tricks: i64,
    /// Everything that counts: meld + dix 10s + tricks.
    pub total: i64,
}

impl SideScore {
    /// The points in words, item by item: `"meld 120 + dix 20 + tricks 160"`.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if self.meld > 0 {
            parts.push(format!("meld {}", self.meld));
        }
        let dix = self.holder_dix + self.turn_up;
        if dix > 0 {
            parts.push(format!("dix {dix}"));
        }
        parts.push(format!("tricks {}", self.tricks));
        parts.join(" + ")
    }

    /// Everything the side melded but lost for want of a trick, in points.
    pub fn lost(&self) -> i64 {
        self.meld_lost + self.holder_dix_lost + self.turn_up_lost
    }
}

/// Scores a deal (rules §1.5, §3 item 26): tricks, meld with a trick, 10 per dix held and
/// 10 to the dealer's side for a turned-up dix, each subject to its agreement.
pub fn score(deal: &Deal, seating: &Seating, agreements: &Agreements) -> PerSide<SideScore> {
    PerSide::from_fn(|side| {
        let hand = deal.sides[side];
        let won = hand.won_trick;
        let holders: Vec<String> = deal
            .dix_holders
            .iter()
            .filter(|h| seating.side_of(h) == Some(side))
            .cloned()
            .collect();
        let held = DIX * holders.len() as i64;
        let turned = if deal.turn_up_dix && side == deal.dealing {
            DIX
        } else {
            0
        };
        let holder_counts = won || !agreements.holder_dix_needs_trick;
        let turn_up_counts = won || !agreements.turn_up_dix_needs_trick;
        let mut s = SideScore {
            meld: if won { hand.meld } else { 0 },
            meld_lost: if won { 0 } else { hand.meld },
            holders,
            holder_dix: if holder_counts { held } else { 0 },
            holder_dix_lost: if holder_counts { 0 } else { held },
            turn_up: if turn_up_counts { turned } else { 0 },
            turn_up_lost: if turn_up_counts { 0 } else { turned },
            tricks: hand.tricks,
            total: 0,
        };
        // Bounded: meld ≤ MAX_MELD, dix ≤ 30, tricks ≤ 250 (checked on reading).
        s.total = s.meld + s.holder_dix + s.turn_up + s.tricks;
        s
    })
}

/// A claim to have gone out, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The player who claimed.
    pub claimant: String,
    /// His partnership.
    pub side: Side,
    /// The side's meld this deal, dix 10s included, in points.
    pub meld: i64,
    /// The side's trick points taken so far this deal.
    pub tricks_so_far: i64,
    /// Whether the side has won a trick this deal (its meld counts only then).
    pub won_trick: bool,
}

impl Claim {
    /// The meld that counts toward the claim: all once the side won a trick (rules §1.5 [R]).
    pub fn counted_meld(&self) -> i64 {
        if self.won_trick { self.meld } else { 0 }
    }
}

/// A `declare_out` as written (the second shape above).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenClaim {
    /// The player who claims.
    pub claimant: String,
    /// His side's meld this deal, dix 10s included (0 when left out).
    #[serde(default)]
    pub meld: i64,
    /// His side's trick points so far (0 when left out).
    #[serde(default)]
    pub tricks_so_far: i64,
    /// Whether his side has won a trick; read from the trick points when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won_trick: Option<bool>,
}

/// Checks a `declare_out` as written (session-format). Errors name the field: `claimant` not
/// seated; `meld` negative, not in tens or over [`MAX_MELD`]; `tricks_so_far` outside 0–250 or not
/// in fives (rules §1.0, §1.5); `won_trick` false with trick points taken.
pub fn check_claim(w: WrittenClaim, seating: &Seating) -> Result<Claim, RuleError> {
    let side = seating.side_of(&w.claimant).ok_or_else(|| {
        RuleError::new(
            "claimant",
            format!("{} is not seated at this table", w.claimant),
        )
    })?;
    if w.meld < 0 || w.meld % 10 != 0 || w.meld > MAX_MELD {
        return Err(RuleError::new(
            "meld",
            format!(
                "{} is not a meld: melds and dixes are multiples of 10 from 0 to {MAX_MELD}",
                w.meld
            ),
        )
        .rule("rules §1.0"));
    }
    if !(0..=ALL_TRICK_POINTS).contains(&w.tricks_so_far) {
        return Err(RuleError::new(
            "tricks_so_far",
            format!(
                "{} is outside 0–250, the trick points in one deal",
                w.tricks_so_far
            ),
        )
        .rule("rules §1.0"));
    }
    check_count(w.tricks_so_far, "tricks_so_far")?;
    let won_trick = w.won_trick.unwrap_or(w.tricks_so_far > 0);
    if !won_trick && w.tricks_so_far > 0 {
        return Err(RuleError::new(
            "won_trick",
            format!(
                "{} has taken {} trick points, so it has won a trick",
                side.name(),
                w.tricks_so_far
            ),
        ));
    }
    Ok(Claim {
        claimant: w.claimant,
        side,
        meld: w.meld,
        tricks_so_far: w.tricks_so_far,
        won_trick,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand `event` as a document writes it, read and checked.
    fn read(
        event: &serde_json::Map<String, serde_json::Value>,
        seating: &Seating,
    ) -> Result<Deal, RuleError> {
        check(written(event)?, seating)
    }
    use crate::rules::typed::TableAgreements;
    use serde_json::json;

    fn seating() -> Seating {
        Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
    }

    fn deal(v: Value) -> Result<Deal, RuleError> {
        read(v.as_object().unwrap(), &seating())
    }

    fn claim(v: Value) -> Result<Claim, RuleError> {
        crate::rules::fields::read_event(v.as_object().unwrap())
            .and_then(|w| check_claim(w, &seating()))
    }

    fn agreements(v: Value) -> Agreements {
        Agreements::read(v.as_object().unwrap()).unwrap()
    }

    fn hand(turn_up: bool, holders: &[&str], ns: Value, ew: Value) -> Value {
        json!({"type": "hand", "dealer": "N", "trump": "hearts", "turn_up_dix": turn_up,
               "dix_holders": holders, "NS": ns, "EW": ew})
    }

    #[test]
    fn golden_pp02_dealer_turn_up_and_holder_both_count() {
        // Rules §1.5: N turns up the dix (+10), S held the other (+10, NS won a trick):
        // NS 120 + 20 + 160 = 300; EW 80 + 90 = 170.
        let d = deal(hand(
            true,
            &["S"],
            json!({"meld": 120, "tricks": 160, "won_trick": true}),
            json!({"meld": 80, "tricks": 90, "won_trick": true}),
        ))
        .unwrap();
        let s = score(&d, &seating(), &agreements(json!({})));
        assert_eq!((s.ns.total, s.ew.total), (300, 170));
        assert_eq!(s.ns.words(), "meld 120 + dix 20 + tricks 160");
        assert_eq!(s.ns.holders, vec!["S".to_string()]);
    }

    #[test]
    fn a_side_without_a_trick_loses_meld_and_holder_dix_but_not_the_turn_up() {
        // EW deal (E turns up a dix), W held the other dix, EW win no trick. Defaults (§3
        // item 26): W's dix and EW's meld 100 are lost, E's turn-up 10 stands: EW 10.
        let mut v = hand(
            true,
            &["W"],
            json!({"meld": 50, "tricks": 250}),
            json!({"meld": 100, "tricks": 0}),
        );
        v["dealer"] = json!("E");
        let d = deal(v).unwrap();
        let s = score(&d, &seating(), &agreements(json!({})));
        assert_eq!(s.ew.total, 10);
        assert_eq!((s.ew.meld_lost, s.ew.holder_dix_lost), (100, 10));
        assert_eq!(s.ew.lost(), 110);
        assert_eq!(s.ns.total, 300);
        // With the agreements turned round: W's dix stands, E's turn-up is lost.
        let a =
            agreements(json!({"holder_dix_needs_trick": false, "turn_up_dix_needs_trick": true}));
        let s = score(&d, &seating(), &a);
        assert_eq!(s.ew.total, 10);
        assert_eq!((s.ew.holder_dix, s.ew.turn_up_lost), (10, 10));
        // Both off: 20; both on: 0.
        let a = agreements(json!({"holder_dix_needs_trick": false}));
        assert_eq!(score(&d, &seating(), &a).ew.total, 20);
        let a = agreements(json!({"turn_up_dix_needs_trick": true}));
        assert_eq!(score(&d, &seating(), &a).ew.total, 0);
    }

    #[test]
    fn one_player_may_hold_both_dixes() {
        // S held both: NS 20 for dixes + meld 0 + tricks 100 = 120.
        let d = deal(hand(
            false,
            &["S", "S"],
            json!({"tricks": 100}),
            json!({"tricks": 150}),
        ))
        .unwrap();
        assert_eq!(score(&d, &seating(), &agreements(json!({}))).ns.total, 120);
    }

    #[test]
    fn impossible_deals_are_refused_by_field() {
        let ok_sides = (json!({"tricks": 100}), json!({"tricks": 150}));
        let e = deal(hand(
            true,
            &["S", "W"],
            ok_sides.0.clone(),
            ok_sides.1.clone(),
        ))
        .unwrap_err();
        assert_eq!(e.field, "dix_holders");
        assert!(e.message.contains("two dixes"), "{}", e.message);
        let e = deal(hand(
            false,
            &["S", "S", "E"],
            ok_sides.0.clone(),
            ok_sides.1.clone(),
        ))
        .unwrap_err();
        assert_eq!(e.field, "dix_holders");
        let e = deal(hand(
            false,
            &["Zed"],
            ok_sides.0.clone(),
            ok_sides.1.clone(),
        ))
        .unwrap_err();
        assert_eq!(e.field, "dix_holders");
        let e = deal(hand(
            false,
            &[],
            json!({"tricks": 103}),
            json!({"tricks": 147}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "NS.tricks");
        let e = deal(hand(
            false,
            &[],
            json!({"tricks": 100}),
            json!({"tricks": 140}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "EW.tricks");
        let e = deal(hand(
            false,
            &[],
            json!({"meld": 15, "tricks": 100}),
            ok_sides.1.clone(),
        ))
        .unwrap_err();
        assert_eq!(e.field, "NS.meld");
        let e = deal(hand(
            false,
            &[],
            json!({"tricks": 100, "won_trick": false}),
            ok_sides.1.clone(),
        ))
        .unwrap_err();
        assert_eq!(e.field, "NS.won_trick");
        let mut v = hand(false, &[], ok_sides.0.clone(), ok_sides.1.clone());
        v["dealer"] = json!("Zed");
        assert_eq!(deal(v).unwrap_err().field, "dealer");
        let mut v = hand(false, &[], ok_sides.0.clone(), ok_sides.1.clone());
        v["bid"] = json!(300);
        assert_eq!(deal(v).unwrap_err().field, "bid");
        let e = deal(json!({"type": "hand", "dealer": "N", "all_passed": true})).unwrap_err();
        assert_eq!(e.field, "all_passed");
        let mut v = hand(false, &[], ok_sides.0, ok_sides.1);
        v.as_object_mut().unwrap().remove("trump");
        assert_eq!(deal(v).unwrap_err().field, "trump");
    }

    #[test]
    fn claims_are_read_and_checked() {
        let c = claim(json!({"type": "declare_out", "claimant": "S", "meld": 100,
                             "tricks_so_far": 60, "won_trick": true}))
        .unwrap();
        assert_eq!((c.side, c.counted_meld()), (Side::NS, 100));
        // Before any trick: the meld does not count yet (rules §1.5 [R]).
        let c = claim(json!({"type": "declare_out", "claimant": "E", "meld": 100})).unwrap();
        assert_eq!(
            (c.side, c.won_trick, c.counted_meld()),
            (Side::EW, false, 0)
        );
        let field = |v: Value| claim(v).unwrap_err().field;
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "Zed"})),
            "claimant"
        );
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "N", "meld": 25})),
            "meld"
        );
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "N", "meld": -10})),
            "meld"
        );
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "N", "tricks_so_far": 260})),
            "tricks_so_far"
        );
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "N", "tricks_so_far": 42})),
            "tricks_so_far"
        );
        assert_eq!(
            field(
                json!({"type": "declare_out", "claimant": "N", "tricks_so_far": 40, "won_trick": false})
            ),
            "won_trick"
        );
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "N", "side": "NS"})),
            "side"
        );
    }
}
