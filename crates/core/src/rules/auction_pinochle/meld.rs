//! Auction Pinochle's meld table, which the meld calculator, the hand form's "Count meld"
//! and a hand's `meld_detail` count by ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// Scarne's table (rules §1.0, §1.1): a double pinochle is 80 and a meld held twice scores
/// twice; the bidder melds from the 15 cards held after taking the widow, and the hand
/// records the bidder's meld alone.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 80,
    extras: false,
    hand: 15,
    royal_in_run: false,
    dix: true,
    fields: MeldFields::Bidder,
    rule: "rules §1.0, §1.1 (S000, Scarne's 721-point example)",
};
