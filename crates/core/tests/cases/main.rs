//! The core's worked cases: every golden case through `replay`, and `replay` fuzzed with
//! documents grown from them. One test binary, so the core's gate links once.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

/// From this crate's folder to the repository's root.
const FROM_MANIFEST: &str = "../..";

mod fixtures;
mod fuzz_replay;
mod golden;
mod typed_hands;
