//! Scorekeeper keeps score and settles stakes for card games played with real cards.
//!
//! Functional core, imperative shell: the core crate (`scorekeeper-core`, re-exported here
//! as [`rules`], [`money`], [`ledger`], [`session`], [`format`] and [`history`]) is pure;
//! [`store`], [`service`] and [`web`] are the shell around it.

#![warn(missing_docs)]

pub use scorekeeper_core::{format, history, ledger, money, rules, session};

pub mod config;
pub mod copy;
pub mod error;
pub mod export;
pub mod ids;
pub mod registry;
pub mod service;
pub mod store;
pub mod telemetry;
pub mod web;
