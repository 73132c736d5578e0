//! Contract Pinochle's meld table, which the meld calculator, the hand form's "Count meld"
//! and a hand's `meld_detail` count by ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// Scarne's table (rules §1.0, §1.8): a double pinochle is 80 and the side melds together
/// from its 24 cards (combination melds, S003); the hand records no meld, so it takes no
/// `meld_detail`.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 80,
    extras: false,
    hand: 24,
    royal_in_run: false,
    dix: true,
    fields: MeldFields::Unrecorded,
    rule: "rules §1.0, §1.8 (S003, Scarne; the side melds together)",
};
