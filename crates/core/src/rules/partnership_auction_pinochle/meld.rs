//! Partnership Auction Pinochle's meld table ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// Rules §1.5's partnership table (rules §1.0, §1.6 [R]); a side's meld is both partners'.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 300,
    extras: true,
    hand: 12,
    roundhouse: false,
    royal_in_run: false,
    dix: true,
    fields: MeldFields::Sides,
    rule: "rules §1.0, §1.6 (the partnership extras of §1.5 [R])",
};
