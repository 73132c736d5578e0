//! The app tests in one binary (each file of tests/ was a binary of its own, and every
//! edit relinked all of them): the real router over fresh databases, the CLI, the golden
//! cases (`cargo test --test app golden::`), the replay fuzz (`fuzz_replay::`), the
//! snapshots. The browser tests are the other binary, `tests/browser/`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

#[path = "../common/mod.rs"]
mod common;

mod amended_whole;
mod auction_game_pages;
mod cached_fold;
mod chained;
mod check_pages;
mod cli;
mod clubs;
mod contract_pinochle_pages;
mod copy_postgres;
mod corrections;
mod corrections_pages;
mod engines_pages;
mod exports;
mod golden;
mod hardening_api;
mod hardening_replay;
mod history_pages;
mod house_game_pages;
mod http;
mod instance_writes;
mod instances;
mod names_pages;
mod night_pages;
mod nights;
mod openapi;
mod ops_access;
mod ops_ci;
mod ops_lifecycle;
mod ops_limits;
mod ops_links;
mod ops_postgres;
mod partnership_auction_pinochle_pages;
mod partnership_pinochle_pages;
mod pg_faults;
mod pg_round_trips;
mod pgbouncer;
mod pitch_pages;
mod player_words;
mod poker_pages;
mod properties;
mod quiet;
mod rejoin;
mod reopen_pages;
mod seating_pages;
mod sheet_snapshots;
mod slim;
mod store_engines;
mod store_under_load;
mod strike_pages;
mod two_handed_pinochle_pages;
mod watcher_pages;
