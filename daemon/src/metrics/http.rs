//! The HTTP API's requests: counted by route, method and status, timed by
//! route, and the requests being served now.

use std::collections::HashSet;
use std::sync::{OnceLock, RwLock};
use std::time::Duration;

use axum::http::Method;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};

/// A request's labels.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// The matched path template, or `unmatched`.
    pub route: &'static str,
    /// The method, or `other` for one the API does not use.
    pub method: &'static str,
    /// The HTTP status answered.
    pub status: u16,
}

/// A route's labels (for the duration histogram: no status, so a route
/// has one histogram per method, not one per status as well).
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// The matched path template, or `unmatched`.
    pub route: &'static str,
    /// The method, or `other`.
    pub method: &'static str,
}

/// The HTTP server's instruments; cheap to clone (each is shared).
#[derive(Debug, Clone)]
pub struct Http {
    /// Requests answered.
    pub requests: Family<RequestLabels, Counter>,
    /// Seconds from a request's arrival to its answer's head.
    pub request_seconds: Family<RouteLabels, Histogram>,
    /// Requests being served now.
    pub in_flight: Gauge,
}

impl Default for Http {
    fn default() -> Self {
        Http {
            requests: Family::default(),
            // 0.5 ms to about 8 s.
            request_seconds: Family::new_with_constructor(|| {
                Histogram::new(exponential_buckets(0.0005, 2.0, 15))
            }),
            in_flight: Gauge::default(),
        }
    }
}

/// Counts a request answered with `status` after `elapsed`. `route` is the
/// matched path template (`None`: no route matched, and the path, which
/// may carry anything, is not used).
pub fn count_request(
    http: &Http,
    route: Option<&str>,
    method: &Method,
    status: u16,
    elapsed: Duration,
) {
    let route = route.map_or("unmatched", intern);
    let method = method_label(method);
    http.request_seconds
        .get_or_create(&RouteLabels { route, method })
        .observe(elapsed.as_secs_f64());
    http.requests
        .get_or_create(&RequestLabels {
            route,
            method,
            status,
        })
        .inc();
}

/// `route` as a `&'static str`, so that counting a request allocates
/// nothing once its route was seen: the label sets are keys the families
/// clone. Each distinct template is leaked once; they are the router's own
/// path templates (an unmatched path never gets here), a fixed set of a
/// few dozen short strings for the process's life.
fn intern(route: &str) -> &'static str {
    static ROUTES: OnceLock<RwLock<HashSet<&'static str>>> = OnceLock::new();
    let routes = ROUTES.get_or_init(Default::default);
    let known = routes
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(route)
        .copied();
    if let Some(known) = known {
        return known;
    }
    let mut routes = routes
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(known) = routes.get(route) {
        return known;
    }
    let leaked: &'static str = Box::leak(route.into());
    routes.insert(leaked);
    leaked
}

/// The methods the API answers, by name; any other is `other` (a client
/// may send any token as a method).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_methods_and_unmatched_paths_share_one_label_each() {
        let http = Http::default();
        let custom = Method::from_bytes(b"BREW").unwrap();
        count_request(&http, None, &custom, 404, Duration::ZERO);
        count_request(&http, None, &Method::GET, 404, Duration::ZERO);
        let labels = |method| RequestLabels {
            route: "unmatched",
            method,
            status: 404,
        };
        assert_eq!(http.requests.get_or_create(&labels("other")).get(), 1);
        assert_eq!(http.requests.get_or_create(&labels("GET")).get(), 1);
    }

    #[test]
    fn a_route_is_interned_once_and_counted_under_its_template() {
        let http = Http::default();
        let template = String::from("/api/v1/servers/{id}/cases");
        assert!(std::ptr::eq(intern(&template), intern(&template.clone())));
        count_request(&http, Some(&template), &Method::GET, 200, Duration::ZERO);
        count_request(&http, Some(&template), &Method::GET, 200, Duration::ZERO);
        let labels = RequestLabels {
            route: "/api/v1/servers/{id}/cases",
            method: "GET",
            status: 200,
        };
        assert_eq!(http.requests.get_or_create(&labels).get(), 2);
    }
}
