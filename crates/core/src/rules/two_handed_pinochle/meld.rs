//! Two-handed Pinochle's meld table, which the meld calculator, the hand form's "Count
//! meld" and a hand's `meld_detail` count by ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// S004's table (rules §1.0, §1.9): double pinochle 300, from the 12 cards dealt and the 12
/// drawn; a royal marriage melded first may grow into the run; each player's meld is his
/// own.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 300,
    extras: false,
    hand: 24,
    royal_in_run: true,
    dix: true,
    fields: MeldFields::Players,
    rule: "rules §1.0, §1.9 (S004)",
};
