//! Auction Pinochle's meld table ([`crate::rules::meld`]).

use crate::rules::meld::{MeldFields, MeldRules};

/// Scarne's table (rules §1.0, §1.1): double pinochle 80; the bidder's 15 cards with the widow.
pub static MELD: MeldRules = MeldRules {
    game: super::GAME.id,
    double_pinochle: 80,
    extras: false,
    hand: 15,
    roundhouse: false,
    royal_in_run: false,
    dix: true,
    fields: MeldFields::Bidder,
    rule: "rules §1.0, §1.1 (S000, Scarne's 721-point example)",
};
