//! Scorekeeper's pure core: everything that decides a score or a sum, with no I/O, clock,
//! randomness, database or web framework (this crate depends on none).
//!
//! [`rules`] plays events into postings; [`money`] and [`ledger`] keep and settle them;
//! [`session`] folds a session into its sheet; [`format`] is the documents and replay;
//! [`history`] reads a club's finished sessions.

#![warn(missing_docs)]

pub mod format;
pub mod history;
pub mod ledger;
pub mod money;
pub mod rules;
pub mod session;
