//! Two-handed Pinochle's meld table ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// S004's table (rules §1.0, §1.9): double pinochle 300, a marriage may grow into the run.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 300,
    extras: false,
    hand: 24,
    roundhouse: false,
    royal_in_run: true,
    dix: true,
    fields: MeldFields::Players,
    rule: "rules §1.0, §1.9 (S004)",
};
