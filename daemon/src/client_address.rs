//! Who a request comes from: the connection's peer, or, when the peer is a
//! proxy the operator trusts (`modctld serve --trusted-proxy`), the client
//! it names in `X-Forwarded-For`.
//!
//! Why it matters: the limits per address (failed authentications in
//! [`crate::request_limits`], connections in [`crate::http::admission`])
//! would otherwise see one address, the proxy's, for every client behind
//! it: one client's failures would lock the others out. Only a trusted
//! peer's header is read; anyone else could write any address into it.
//!
//! `X-Forwarded-For` lists the addresses a request passed through, each
//! proxy appending the one it received from. The client is the rightmost
//! entry that is not itself a trusted proxy: entries to its left were
//! written by the client and prove nothing.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

/// An address range in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`), or a
/// single address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressRange {
    base: IpAddr,
    prefix: u8,
}

impl AddressRange {
    /// Whether `address` is in the range (IPv4-mapped IPv6 addresses count
    /// as their IPv4 address).
    pub fn contains(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        match (self.base, address) {
            (IpAddr::V4(base), IpAddr::V4(address)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(base) & mask == u32::from(address) & mask
            }
            (IpAddr::V6(base), IpAddr::V6(address)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(base) & mask == u128::from(address) & mask
            }
            _ => false,
        }
    }
}

impl FromStr for AddressRange {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let invalid = || {
            format!(
                "`{text}` is not an address or a range: write e.g. `10.0.0.1`, `10.0.0.0/8` or `fd00::/8`"
            )
        };
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let base = IpAddr::from_str(address)
            .map_err(|_| invalid())?
            .to_canonical();
        let width = if base.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= width)
                .ok_or_else(invalid)?,
            None => width,
        };
        Ok(AddressRange { base, prefix })
    }
}

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies {
    ranges: Vec<AddressRange>,
}

impl TrustedProxies {
    /// Proxies in `ranges`; none: every peer is the client.
    pub fn new(ranges: Vec<AddressRange>) -> TrustedProxies {
        TrustedProxies { ranges }
    }

    /// Whether `address` is a trusted proxy.
    pub fn contains(&self, address: IpAddr) -> bool {
        self.ranges.iter().any(|range| range.contains(address))
    }

    /// The client of a request from `peer` with `headers`: the peer, unless
    /// it is a trusted proxy that names one (see the module header).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.contains(peer) {
            return peer;
        }
        // Several headers are one list, in order.
        let mut hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect();
        while let Some(hop) = hops.pop() {
            match IpAddr::from_str(hop) {
                Ok(address) if self.contains(address) => continue,
                Ok(address) => return address.to_canonical(),
                // Not an address (`unknown`, an obfuscated name): the proxy
                // that wrote it is the last hop we know.
                Err(_) => break,
            }
        }
        peer
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn proxies(ranges: &[&str]) -> TrustedProxies {
        TrustedProxies::new(ranges.iter().map(|r| r.parse().unwrap()).collect())
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn ranges_parse_and_match() {
        let range: AddressRange = "10.0.0.0/8".parse().unwrap();
        assert!(range.contains(ip("10.200.1.2")));
        assert!(range.contains(ip("::ffff:10.0.0.1")));
        assert!(!range.contains(ip("11.0.0.1")));
        let single: AddressRange = "fd00::1".parse().unwrap();
        assert!(single.contains(ip("fd00::1")));
        assert!(!single.contains(ip("fd00::2")));
        let all: AddressRange = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")));
        assert!(!all.contains(ip("2001:db8::1")));
        for bad in ["10.0.0.0/33", "proxy.local", "10.0.0.0/", "::/129"] {
            let error = bad.parse::<AddressRange>().unwrap_err();
            assert!(error.contains("10.0.0.0/8"), "{error}");
        }
    }

    #[test]
    fn only_a_trusted_peer_names_the_client_and_the_rightmost_untrusted_hop_wins() {
        let trusted = proxies(&["10.0.0.0/8"]);
        let client = ip("203.0.113.7");
        // An untrusted peer's header is ignored.
        assert_eq!(
            trusted.client(ip("198.51.100.1"), &forwarded(&["203.0.113.7"])),
            ip("198.51.100.1")
        );
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &forwarded(&["203.0.113.7"])),
            client
        );
        // A client that writes its own header cannot pick its address: the
        // proxy appended the real one, after the made-up one.
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &forwarded(&["1.2.3.4, 203.0.113.7"])),
            client
        );
        // Through two proxies, in two headers.
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &forwarded(&["203.0.113.7", "10.0.0.2"])),
            client
        );
        // No header, or a hop that is not an address: the proxy itself.
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &HeaderMap::new()),
            ip("10.0.0.1")
        );
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &forwarded(&["203.0.113.7, unknown"])),
            ip("10.0.0.1")
        );
        // Nobody trusted: the peer, always.
        assert_eq!(
            TrustedProxies::default().client(ip("10.0.0.1"), &forwarded(&["203.0.113.7"])),
            ip("10.0.0.1")
        );
    }
}
