//! Partnership Pinochle's meld table ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// S002's table (rules §1.0, §1.5): double pinochle 300, the extras; dixes are separate.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 300,
    extras: true,
    hand: 12,
    roundhouse: false,
    royal_in_run: false,
    dix: false,
    fields: MeldFields::Sides,
    rule: "rules §1.0, §1.5 (S002)",
};
