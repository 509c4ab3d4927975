//! Stateful fake platforms: Discord, Telegram and Slack as small HTTP servers
//! that keep a community's state (roles, channels, members, bans, mutes,
//! messages) and answer like the real service, status codes and error bodies
//! included.
//!
//! Tests connect a server to a fake (`TestDaemon::connect_live(server, TOKEN,
//! &fake.uri())`) and then assert two things: the exact requests the daemon
//! sent ([`Recorded`], via `requests()` / `requests_to()`), and the effect on
//! the community (`is_banned`, `roles_of`, ...). Failures a test cannot get
//! from the state (a 429, a 5xx, a refusal the daemon did not foresee) are
//! injected with `fail`; failures after the platform acted (the request
//! carried out, then answered 502 or never answered) with `fail_after` and
//! `lose_answers`; a slow platform is a `hold` whose [`Gate`] the test opens
//! when it is ready.
//!
//! Each fake runs on its own thread with its own tokio runtime, like
//! `TestDaemon`, so it serves sync tests (running the CLI) and async tests
//! alike, and keeps answering while a test thread blocks. Dropping the fake
//! stops it; requests still held are dropped with it.
//!
//! Every request is handled the same way, whatever the platform: recorded on
//! arrival, held while a matching gate is closed, answered by an injected
//! failure if one matches (one that comes after the platform acted hands
//! it over first and drops its answer), and otherwise handed to the
//! platform's own logic,
//! which runs under the state's lock so concurrent writes behave like the
//! real service (each request is atomic; the last write wins). The answer is
//! computed in a task of its own, so a client that hangs up mid-request does
//! not undo what the platform already decided to do, just as on the real
//! service.
//!
//! The fakes read no clock: expiry times (`communication_disabled_until`,
//! `until_date`) are kept as sent, because the daemon's clock may be set by
//! the test and the fakes must not second-guess it. Discord's rate limits
//! are one exception: their windows are real time (the daemon's limiter
//! waits in real time too), read from the monotonic clock. Discord's
//! 28-day limit on timeouts is the other: it counts from Discord's clock,
//! which the fake takes to be the machine's, so a test that advances the
//! daemon's clock is a daemon whose clock runs ahead of Discord's. Slack's
//! posting limit and Telegram's group limit are real time too, and
//! Telegram's 48 hours for `deleteMessage` count from the machine's clock
//! unless a test sets Telegram's (`FakeTelegram::set_clock`).

pub mod discord;
pub(crate) mod server;
pub mod slack;
pub mod telegram;

pub use discord::FakeDiscord;
pub use server::{Gate, Recorded, Reply};
pub use slack::FakeSlack;
pub use telegram::FakeTelegram;

/// Gives a fake the request-log, failure-injection and hold methods of the
/// [`server::FakeServer`] it wraps in its `server` field, as inherent methods
/// so tests need no trait in scope.
macro_rules! server_methods {
    ($fake:ty) => {
        impl $fake {
            /// The base URL, e.g. `http://127.0.0.1:40123`: the `api_base` to
            /// connect a server to.
            pub fn uri(&self) -> String {
                self.server.uri()
            }

            /// Every request received so far, in arrival order (held ones
            /// included).
            pub fn requests(&self) -> Vec<$crate::fakes::Recorded> {
                self.server.requests()
            }

            /// The requests with exactly this method and path (no query).
            pub fn requests_to(&self, method: &str, path: &str) -> Vec<$crate::fakes::Recorded> {
                self.server.requests_to(method, path)
            }

            /// The next `times` requests to `method` `path` are answered with
            /// `status` and the JSON `body` (`Null`: an empty body) instead of
            /// reaching the platform; the state does not change.
            pub fn fail(
                &self,
                method: &str,
                path: &str,
                status: u16,
                body: serde_json::Value,
                times: usize,
            ) {
                self.server.inject(
                    method,
                    path,
                    $crate::fakes::server::Fault::Instead($crate::fakes::Reply::json(status, body)),
                    times,
                );
            }

            /// Like [`Self::fail`], with a full reply, e.g. a 429 with a
            /// `Retry-After` header.
            pub fn fail_with(
                &self,
                method: &str,
                path: &str,
                reply: $crate::fakes::Reply,
                times: usize,
            ) {
                self.server.inject(
                    method,
                    path,
                    $crate::fakes::server::Fault::Instead(reply),
                    times,
                );
            }

            /// The next `times` requests to `method` `path` are carried out
            /// by the platform, and then answered with `status` and the JSON
            /// `body` instead of its answer: a failure that comes after the
            /// platform acted, as a gateway's 502 does.
            pub fn fail_after(
                &self,
                method: &str,
                path: &str,
                status: u16,
                body: serde_json::Value,
                times: usize,
            ) {
                self.server.inject(
                    method,
                    path,
                    $crate::fakes::server::Fault::After($crate::fakes::Reply::json(status, body)),
                    times,
                );
            }

            /// The next `times` requests to `method` `path` are carried out
            /// by the platform and never answered: the client sees only its
            /// own timeout.
            pub fn lose_answers(&self, method: &str, path: &str, times: usize) {
                self.server
                    .inject(method, path, $crate::fakes::server::Fault::Lost, times);
            }

            /// Requests to `method` `path` wait until the returned gate is
            /// released (or dropped), then go on as usual.
            pub fn hold(&self, method: &str, path: &str) -> $crate::fakes::Gate {
                self.server.hold(method, path)
            }
        }
    };
}

use server_methods;

#[cfg(test)]
mod messaging_tests;
#[cfg(test)]
mod restore_tests;
#[cfg(test)]
mod tests;
