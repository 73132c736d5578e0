//! The browser tests in one binary: headless Chromium through chromedriver against the
//! service on a loopback port (`tests/common/browser.rs`). Without Debian's `chromium`
//! and `chromium-driver` each test is skipped with a note, except under CI, where it
//! fails (`.ci/run` proves that). Each test's service runs over a fresh SQLite file, or with
//! `SCOREKEEPER_TEST_ENGINE=postgres` a new database on the server
//! `SCOREKEEPER_TEST_DATABASE_URL` names (`.ci/run` runs the binary both ways). The app
//! tests are the other binary, `tests/app/`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

#[path = "../common/mod.rs"]
mod common;

mod auction_game;
mod card_picker;
mod contract_pinochle;
mod done_when;
mod entry;
mod exports;
mod fit;
mod history;
mod house_game;
mod leaving;
mod meld;
mod names;
mod nights;
mod ops;
mod partnership_auction_pinochle;
mod partnership_pinochle;
mod poker;
mod poker_form;
mod targets;
mod two_handed_pinochle;
mod two_phones;
