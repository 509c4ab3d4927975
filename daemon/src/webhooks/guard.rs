//! No requests to internal addresses (SSRF guard).
//!
//! A webhook URL comes from a tenant; without this guard it could point the
//! daemon at the cloud metadata service or a service on the daemon's own
//! network. The URL is parsed with the `url` crate (a hand-written split is
//! fooled by `http://169.254.169.254\@localhost/`, which every browser and
//! HTTP client sends to 169.254.169.254), and every address the host resolves
//! to is checked *at send time*, by the resolver of the delivery client
//! itself, so a DNS answer that changes after a check cannot slip through.
//! The operator turns the guard off with `modctld serve
//! --webhooks-allow-internal` (tests and the demo deliver to 127.0.0.1).
//!
//! Through a proxy (`modctld serve --webhooks-proxy URL`, never one from the
//! environment: see [`super::Deliverer`]) the client connects to the proxy,
//! which resolves the target itself; the target's name is then resolved and
//! checked here before the request is sent ([`check_resolved`]).
//!
//! An IPv6 address can reach an IPv4 host through a translator or a tunnel:
//! IPv4-mapped and -translated addresses, NAT64 (RFC 6052), 6to4, Teredo and
//! ISATAP carry the IPv4 address they reach, and that one is judged
//! ([`embedded_ipv4`]).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

/// Parses a delivery URL: `http` or `https`, a host, no credentials.
pub fn parse(raw: &str) -> Result<Url, String> {
    let url = Url::parse(raw).map_err(|e| format!("`{raw}` is not a valid URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("`{raw}` must use https://"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!(
            "`{raw}` must not carry credentials before the host"
        ));
    }
    if url.host().is_none() {
        return Err(format!("`{raw}` has no host"));
    }
    Ok(url)
}

/// Checks `url`'s host when it is an address literal (a name is checked by
/// [`GuardedResolver`] when it is resolved).
pub fn check_literal(url: &Url) -> Result<(), String> {
    let ip = match url.host() {
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip),
        _ => return Ok(()),
    };
    refuse_internal(url.host_str().unwrap_or_default(), ip).map_err(|e| e.to_string())
}

/// Resolves `url`'s host (a name; a literal was checked by [`check_literal`])
/// and checks every address it has, for a client that does not resolve the
/// target itself (a proxy does). `Err(Ok(_))`: refused; `Err(Err(_))`: the
/// name did not resolve, which a later attempt may fix.
pub async fn check_resolved(url: &Url) -> Result<(), Result<InternalAddress, std::io::Error>> {
    let Some(Host::Domain(host)) = url.host() else {
        return Ok(());
    };
    let port = url.port_or_known_default().unwrap_or(0);
    resolve_checked(host, port).await.map(drop)
}

/// Every address of `host`, or the first internal one among them.
async fn resolve_checked(
    host: &str,
    port: u16,
) -> Result<Vec<SocketAddr>, Result<InternalAddress, std::io::Error>> {
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(Err)?
        .collect();
    for addr in &addrs {
        refuse_internal(host, addr.ip()).map_err(Ok)?;
    }
    Ok(addrs)
}

/// A host that is, or resolves to, an internal address. A type of its own
/// so that the worker can tell it, through reqwest's error, from a
/// connection that failed: it is refused, not retried.
#[derive(Debug, thiserror::Error)]
#[error(
    "refused: `{host}` is the internal address {ip} (loopback, private, link-local or metadata); webhooks go to public addresses only unless modctld runs with --webhooks-allow-internal"
)]
pub struct InternalAddress {
    host: String,
    ip: IpAddr,
}

fn refuse_internal(host: &str, ip: IpAddr) -> Result<(), InternalAddress> {
    if is_internal(ip) {
        Err(InternalAddress {
            host: host.to_owned(),
            ip,
        })
    } else {
        Ok(())
    }
}

/// Whether `ip` is an address a webhook must not reach.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_internal_v4(v4),
        IpAddr::V6(v6) => {
            // An address that reaches an IPv4 host is judged by that host.
            if embedded_ipv4(v6).into_iter().any(is_internal_v4) {
                return true;
            }
            let [first, second, third, ..] = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (first & 0xffc0) == 0xfe80 // link-local fe80::/10
                || (first & 0xffc0) == 0xfec0 // site-local fec0::/10
                || (first, second, third) == (0x64, 0xff9b, 1) // local-use NAT64 64:ff9b:1::/48
                || v6 == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) // AWS metadata
                || v6.segments()[..6] == [0, 0, 0, 0, 0, 0] // IPv4-compatible
        }
    }
}

/// The IPv4 addresses an IPv6 address reaches or stands for, where it has
/// them: IPv4-mapped `::ffff:a.b.c.d` and -compatible `::a.b.c.d`,
/// IPv4-translated `::ffff:0:a.b.c.d` (SIIT), NAT64 `64:ff9b::a.b.c.d` (the
/// well-known prefix; the local-use `64:ff9b:1::/48` is internal whole, as
/// its IPv4 address may sit at several places), 6to4 `2002:AABB:CCDD::/48`,
/// Teredo `2001:0::/32` (the server, and the client's address, inverted, in
/// the last 32 bits) and ISATAP (interface id `0:5efe:a.b.c.d` or
/// `200:5efe:a.b.c.d` under any prefix).
pub fn embedded_ipv4(v6: Ipv6Addr) -> Vec<Ipv4Addr> {
    let s = v6.segments();
    let o = v6.octets();
    let at = |i: usize| Ipv4Addr::new(o[i], o[i + 1], o[i + 2], o[i + 3]);
    let last = at(12);
    let mut found = Vec::new();
    if matches!(
        s,
        [0, 0, 0, 0, 0, 0 | 0xffff, ..] | [0, 0, 0, 0, 0xffff, 0, ..]
    ) || matches!(s, [0x64, 0xff9b, 0, 0, 0, 0, ..])
    {
        found.push(last);
    }
    if s[0] == 0x2002 {
        found.push(at(2));
    }
    if s[..2] == [0x2001, 0] {
        found.extend([at(4), Ipv4Addr::from(!u32::from(last))]);
    }
    if s[4] & 0xfdff == 0 && s[5] == 0x5efe {
        found.push(last);
    }
    found
}

fn is_internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local() // 169.254/16, the metadata services
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // carrier-grade NAT
        || (a == 192 && b == 0 && ip.octets()[2] == 0) // IETF protocol assignments
        || a >= 240
}

/// The delivery client's resolver: resolves with the system resolver and
/// refuses a name with any internal address.
#[derive(Debug, Clone, Copy)]
pub struct GuardedResolver;

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let addrs = resolve_checked(name.as_str(), 0).await.map_err(
                |e| -> Box<dyn std::error::Error + Send + Sync> {
                    match e {
                        Ok(internal) => Box::new(internal),
                        Err(lookup) => Box::new(lookup),
                    }
                },
            )?;
            let addrs: Addrs = Box::new(addrs.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backslash_at_trick_is_seen_as_the_metadata_address() {
        let url = parse("http://169.254.169.254\\@localhost/").unwrap();
        assert_eq!(url.host_str(), Some("169.254.169.254"));
        assert!(check_literal(&url).unwrap_err().contains("169.254.169.254"));
    }

    #[test]
    fn internal_addresses_are_refused_and_public_ones_pass() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "fd00:ec2::254",
        ] {
            assert!(is_internal(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "93.184.216.34",
            "1.1.1.1",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
        ] {
            assert!(!is_internal(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn translated_and_tunnelled_forms_of_internal_ipv4_are_internal() {
        for ip in [
            // NAT64, the well-known prefix: 127.0.0.1, the metadata, 10/8.
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::10.0.0.1",
            // The local-use NAT64 prefix is internal whole.
            "64:ff9b:1::1",
            "64:ff9b:1:abcd::808:808",
            // 6to4: 127.0.0.1, the metadata, 192.168.1.1.
            "2002:7f00:1::1",
            "2002:a9fe:a9fe::",
            "2002:c0a8:101:1::1",
            // IPv4-translated (SIIT) and -compatible.
            "::ffff:0:127.0.0.1",
            "::ffff:0:a9fe:a9fe",
            "::10.0.0.1",
            // Teredo whose client (inverted in the last 32 bits) is 127.0.0.1.
            "2001:0:4136:e378:8000:63bf:80ff:fffe",
            // ISATAP interface ids carrying the metadata address and 192.168.1.1.
            "2606:4700::5efe:a9fe:a9fe",
            "2606:4700::200:5efe:c0a8:101",
        ] {
            assert!(is_internal(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "64:ff9b::808:808",
            "2002:808:808::1",
            "::ffff:0:808:808",
            "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
            "2606:4700::5efe:808:808",
        ] {
            assert!(!is_internal(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn credentials_and_other_schemes_are_refused() {
        assert!(parse("https://user:pw@example.com/").is_err());
        assert!(parse("ftp://example.com/").is_err());
        assert!(parse("example.com/hook").is_err());
        assert!(parse("https://example.com/hook").is_ok());
    }
}
