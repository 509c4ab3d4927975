//! Restoring a structure snapshot (issue #10).
//!
//! - [`plan`]: the pure comparison of a snapshot with the server as it is
//!   now, shared by `?dry_run=true` and the restore job, so what a dry run
//!   shows is what a restore does.
//! - [`job`]: accepting a restore: the dry run, or the plan recorded as a
//!   durable job.
//! - [`run`]: the worker carrying jobs out, resuming after a restart
//!   without creating anything twice.
//! - [`mentions`]: `<#id>` and `<@&id>` in topics, remapped to new ids.

pub mod job;
pub mod mentions;
pub mod plan;
pub mod run;

#[cfg(test)]
mod plan_tests;
