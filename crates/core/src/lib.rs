//! Scorekeeper's pure core: everything that decides a score or a sum, with no I/O, clock,
//! randomness, database or web framework (the compiler holds that line: this crate depends
//! on none of them).
//!
//! [`rules`] plays each game's events into postings; [`money`] and [`ledger`] keep those
//! postings exact and settle them up; [`session`] folds a session's events into its sheet;
//! [`format`] reads and writes the session and ledger documents (`docs/session-format.md`)
//! and replays one into the other; [`history`] reads a club's finished sessions.

#![warn(missing_docs)]

pub mod format;
pub mod history;
pub mod ledger;
pub mod money;
pub mod rules;
pub mod session;
