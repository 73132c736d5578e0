//! Engine tests: outcomes worked out by hand from rules §1.10 and §3 item 31.
