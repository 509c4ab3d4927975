//! Which connections the server loop serves in full: at most
//! [`ConnectionCaps::total`] open at once, and at most
//! [`ConnectionCaps::per_address`] from one client address.
//!
//! Why both: every open connection holds a file descriptor and a task, and
//! a client may open connections and never read its answers. Without a
//! total cap, a thousand of them spend the process's file descriptors and
//! the listener can accept nothing, health checks included; without a cap
//! per address, one client may take the whole total and starve the others.
//! The write timeout ([`super::stall`]) bounds how long each is held.
//!
//! A connection over a cap is not refused at `accept`: it is *shed*
//! ([`super::shed`]): served one request with short timeouts, a health or
//! readiness probe as usual and anything else a JSON `429`/`503`, then
//! closed. So the accept loop never stops, a monitor's probe gets its answer
//! while a client floods the daemon, and a client over its cap learns why.
//! Shed connections are capped too ([`SHED_SLOTS`]); past it a connection is
//! closed at once.
//!
//! A trusted proxy ([`crate::client_address`]) carries many clients on its
//! connections, so it is only bound by the total cap.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::client_address::TrustedProxies;

/// Shed connections served at once; more are closed as soon as accepted.
pub const SHED_SLOTS: usize = 64;

/// The caps on open connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionCaps {
    /// Connections served at once, from every address.
    pub total: usize,
    /// Connections served at once from one client address.
    pub per_address: usize,
}

impl ConnectionCaps {
    /// `modctld serve`'s caps unless told otherwise. 1,024 in all: more
    /// clients than a daemon of one machine serves at once, and what the
    /// file descriptors of a usual limit allow ([`ConnectionCaps::fit`]).
    /// 64 from one address: a client that needs more is a proxy, which an
    /// operator names (`--trusted-proxy`).
    pub const DEFAULT: ConnectionCaps = ConnectionCaps {
        total: 1024,
        per_address: 64,
    };
}

/// File descriptors kept for what is not a client's connection: the
/// database and its WAL, the reader pool, platform and webhook clients, the
/// log, and the shed connections.
const DESCRIPTORS_KEPT: u64 = 128 + SHED_SLOTS as u64;

impl ConnectionCaps {
    /// Raises the process's soft limit on open files to its hard limit (a
    /// service manager's default soft limit is often 1,024, far below what
    /// it allows), then lowers [`ConnectionCaps::total`] to what the limit
    /// leaves after [`DESCRIPTORS_KEPT`]: a cap the process cannot reach
    /// would let connections spend the descriptors the listener needs to
    /// accept a health check. Returns the caps, and the limit.
    pub fn fit(self) -> (ConnectionCaps, u64) {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let limit = getrlimit(Resource::Nofile);
        let mut soft = limit.current.unwrap_or(u64::MAX);
        if limit.current < limit.maximum || limit.maximum.is_none() {
            let raised = Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            };
            if setrlimit(Resource::Nofile, raised).is_ok() {
                soft = limit.maximum.unwrap_or(u64::MAX);
            }
        }
        let room = usize::try_from(soft.saturating_sub(DESCRIPTORS_KEPT)).unwrap_or(usize::MAX);
        let total = self.total.min(room.max(1));
        (
            ConnectionCaps {
                total,
                per_address: self.per_address.min(total),
            },
            soft,
        )
    }
}

impl Default for ConnectionCaps {
    fn default() -> Self {
        ConnectionCaps::DEFAULT
    }
}

/// Why a connection is shed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverCap {
    /// Its address has [`ConnectionCaps::per_address`] open.
    Address,
    /// The daemon has [`ConnectionCaps::total`] open.
    Total,
}

/// Counts open connections; cheap to clone (clones share the counts).
#[derive(Debug, Clone)]
pub struct Admission {
    caps: ConnectionCaps,
    /// Bound by the total cap only.
    proxies: TrustedProxies,
    counts: Arc<Mutex<Counts>>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
    shed: usize,
}

/// A connection being served; gives its place back when dropped.
#[derive(Debug)]
pub struct Slot {
    counts: Arc<Mutex<Counts>>,
    held: Held,
}

#[derive(Debug)]
enum Held {
    Served(IpAddr),
    Shed,
}

impl Admission {
    /// Admission under `caps`; `proxies` are bound by the total cap only.
    pub fn new(caps: ConnectionCaps, proxies: TrustedProxies) -> Admission {
        Admission {
            caps,
            proxies,
            counts: Arc::default(),
        }
    }

    /// A place for a connection from `address`, or why it is over a cap.
    pub fn admit(&self, address: IpAddr) -> Result<Slot, OverCap> {
        let mut counts = self.lock();
        if counts.total >= self.caps.total {
            return Err(OverCap::Total);
        }
        let bounded = !self.proxies.contains(address);
        let from_address = counts.by_address.get(&address).copied().unwrap_or(0);
        if bounded && from_address >= self.caps.per_address {
            return Err(OverCap::Address);
        }
        counts.total += 1;
        *counts.by_address.entry(address).or_default() += 1;
        Ok(Slot {
            counts: Arc::clone(&self.counts),
            held: Held::Served(address),
        })
    }

    /// A place for a shed connection, if one of [`SHED_SLOTS`] is free.
    pub fn shed_slot(&self) -> Option<Slot> {
        let mut counts = self.lock();
        if counts.shed >= SHED_SLOTS {
            return None;
        }
        counts.shed += 1;
        Some(Slot {
            counts: Arc::clone(&self.counts),
            held: Held::Shed,
        })
    }

    /// Connections served now (not counting shed ones).
    pub fn open(&self) -> usize {
        self.lock().total
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        lock(&self.counts)
    }
}

fn lock(counts: &Mutex<Counts>) -> std::sync::MutexGuard<'_, Counts> {
    // Each update is a few integer steps: a panic cannot leave them half done.
    counts.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = lock(&self.counts);
        match self.held {
            Held::Served(address) => {
                counts.total -= 1;
                if let Some(n) = counts.by_address.get_mut(&address) {
                    *n -= 1;
                    if *n == 0 {
                        counts.by_address.remove(&address);
                    }
                }
            }
            Held::Shed => counts.shed -= 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));
    const B: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 2));
    const PROXY: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1));

    #[test]
    fn each_address_has_its_cap_and_all_share_the_total() {
        let admission = Admission::new(
            ConnectionCaps {
                total: 5,
                per_address: 2,
            },
            TrustedProxies::new(vec!["10.0.0.1".parse().unwrap()]),
        );
        let a1 = admission.admit(A).unwrap();
        let _a2 = admission.admit(A).unwrap();
        assert_eq!(admission.admit(A).unwrap_err(), OverCap::Address);
        let _b = admission.admit(B).unwrap();
        // A proxy carries many clients: only the total binds it.
        let _p1 = admission.admit(PROXY).unwrap();
        let _p2 = admission.admit(PROXY).unwrap();
        assert_eq!(admission.admit(PROXY).unwrap_err(), OverCap::Total);
        assert_eq!(admission.admit(B).unwrap_err(), OverCap::Total);
        assert_eq!(admission.open(), 5);
        // A closed connection gives its place back.
        drop(a1);
        assert_eq!(admission.open(), 4);
        let _a3 = admission.admit(A).unwrap();
    }

    #[test]
    fn shed_connections_are_capped_apart() {
        let admission = Admission::new(ConnectionCaps::default(), TrustedProxies::default());
        let slots: Vec<Slot> = (0..SHED_SLOTS)
            .map(|_| admission.shed_slot().unwrap())
            .collect();
        assert!(admission.shed_slot().is_none());
        assert_eq!(admission.open(), 0, "shed connections are not served ones");
        drop(slots);
        assert!(admission.shed_slot().is_some());
    }
}
