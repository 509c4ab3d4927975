//! Locking a `std::sync::Mutex` whose last holder may have panicked.

use std::sync::{Mutex, MutexGuard};

/// Locks `mutex` even when a holder panicked. For the daemon's in-memory
/// maps and sets, each change is one insert or remove, so what a panicking
/// holder left is still consistent; refusing every later caller would turn
/// one panic into an outage. Callers say why theirs qualifies.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
