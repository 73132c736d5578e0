//! Partnership Auction Pinochle's meld table, which the meld calculator, the hand form's
//! "Count meld" and a hand's `meld_detail` count by ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// The partnership table of rules §1.5 (rules §1.0, §1.6 [R]): double pinochle 300 and the
/// partnership extras, from the 12 cards dealt; each side's meld is both partners'.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 300,
    extras: true,
    hand: 12,
    royal_in_run: false,
    dix: true,
    fields: MeldFields::Sides,
    rule: "rules §1.0, §1.6 (the partnership extras of §1.5 [R])",
};
