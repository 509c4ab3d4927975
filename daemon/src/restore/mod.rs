//! Restoring a structure snapshot (issue #10).
//!
//! - [`plan`]: the pure comparison of a snapshot with the server as it is
//!   now, shared by `?dry_run=true` and the restore job, so what a dry run
//!   shows is what a restore does.

pub mod plan;

#[cfg(test)]
mod plan_tests;
