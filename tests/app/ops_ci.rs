//! CI strictness: under CI a missing golden folder or a missing Chromium fails the test
//! that needs it (a green run means they ran); outside CI it is skipped with a note.
//! `.ci/run` checks the same end to end by pointing `SCOREKEEPER_SHARED` and
//! `SCOREKEEPER_CHROMIUM` at missing paths and expecting `cargo test` to fail.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::path::Path;

use common::browser::tools_present_or_skip;
use common::golden_dir_or_skip;

const MISSING: &str = "/nonexistent/scorekeeper-ci-check";

#[test]
fn a_missing_golden_folder_fails_under_ci_and_is_skipped_outside() {
    let missing = Path::new(MISSING).join("golden");
    let under_ci = std::panic::catch_unwind(|| golden_dir_or_skip(&missing, true));
    let message = *under_ci
        .expect_err("CI must fail")
        .downcast::<String>()
        .unwrap();
    assert!(message.contains("golden cases are missing"), "{message}");
    assert_eq!(golden_dir_or_skip(&missing, false), None);
    // A folder that is there is used, CI or not.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(golden_dir_or_skip(here, true).as_deref(), Some(here));
}

#[test]
fn a_missing_chromium_fails_under_ci_and_is_skipped_outside() {
    let missing = Path::new(MISSING);
    let present = Path::new(env!("CARGO_BIN_EXE_scorekeeper"));
    for (chromium, driver) in [(missing, present), (present, missing)] {
        let under_ci = std::panic::catch_unwind(|| tools_present_or_skip(chromium, driver, true));
        let message = *under_ci
            .expect_err("CI must fail")
            .downcast::<String>()
            .unwrap();
        assert!(message.contains("CI must install chromium"), "{message}");
        assert!(!tools_present_or_skip(chromium, driver, false));
    }
    assert!(tools_present_or_skip(present, present, true));
}
