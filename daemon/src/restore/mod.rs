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

use std::sync::Arc;

use tokio::sync::Notify;

use crate::clock::Clock;
use crate::coordination::Exclusive;
use crate::platform::PlatformClients;
use crate::store::Store;

/// What restores use of the daemon: the store, the clock, the platforms,
/// the one restore runner and the worker's wake-up. Cheap to clone
/// (`AppState::restore` builds it).
#[derive(Debug, Clone)]
pub struct Context {
    /// The database.
    pub store: Store,
    /// Where "now" comes from.
    pub clock: Clock,
    /// The daemon's platform clients (a restore waits longer for rate
    /// limits: [`job::restore_clients`]).
    pub platforms: PlatformClients,
    /// One runner carries out the jobs
    /// ([`crate::coordination::Coordination::restore_runner`]).
    pub runner: Arc<dyn Exclusive>,
    /// Wakes the restore worker when a job is accepted.
    pub wake: Arc<Notify>,
    /// The members' names the plans show beside their ids (issue #27).
    pub names: crate::names::NameCache,
}

#[cfg(test)]
mod plan_tests;
