//! Contract Pinochle's meld table ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// Scarne's table (rules §1.0, §1.8): double pinochle 80; no meld recorded, so no `meld_detail`.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 80,
    extras: false,
    hand: 24,
    roundhouse: false,
    royal_in_run: false,
    dix: true,
    fields: MeldFields::Unrecorded,
    rule: "rules §1.0, §1.8 (S003, Scarne; the side melds together)",
};
