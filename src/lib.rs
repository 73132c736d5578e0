//! Scorekeeper keeps score and settles stakes for card games played with real cards.
//!
//! Functional core, imperative shell: [`rules`], [`ledger`] and [`format`] are pure (no
//! I/O, clock or randomness); [`store`], [`service`] and [`web`] are the shell around them.

#![warn(missing_docs)]

pub mod config;
pub mod copy;
pub mod error;
pub mod export;
pub mod format;
pub mod history;
pub mod ids;
pub mod ledger;
pub mod money;
pub mod registry;
pub mod rules;
pub mod service;
pub mod session;
pub mod store;
pub mod telemetry;
pub mod web;
