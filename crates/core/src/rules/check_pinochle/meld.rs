//! Check Pinochle's meld table ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// Scarne's table (rules §1.0, §1.7; §3 item 30): double pinochle 80; per side.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 80,
    extras: false,
    hand: 12,
    roundhouse: true,
    royal_in_run: false,
    dix: true,
    fields: MeldFields::Sides,
    rule: "rules §1.0, §1.7 (S003, Scarne; §3 item 30)",
};
