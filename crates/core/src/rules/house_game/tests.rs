//! House game sessions through `replay` (rules §1.12).
