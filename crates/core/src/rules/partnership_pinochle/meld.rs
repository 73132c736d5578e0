//! Partnership Pinochle's meld table, which the meld calculator, the hand form's "Count
//! meld" and a hand's `meld_detail` count by ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// S002's table (rules §1.0, §1.5): double pinochle 300 and the partnership extras (double
/// run 1,500, eight aces 1,000, kings 800, queens 600, jacks 400) from the 12 cards dealt;
/// each dix held is entered under `dix_holders`, so a side's meld is without the dix.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 300,
    extras: true,
    hand: 12,
    royal_in_run: false,
    dix: false,
    fields: MeldFields::Sides,
    rule: "rules §1.0, §1.5 (S002)",
};
