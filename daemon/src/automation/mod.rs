//! The automation layer: what the config makes the daemon do on its own, one
//! module per config section (issue #25).
//!
//! Its modules are pure rules over one event at a time: they take the
//! section (compiled once per config revision), the event's facts as the
//! consumers of the platform-neutral event model hand them over, and the
//! time as a parameter from the caller's `Clock`, and answer what should
//! happen. Carrying it out (deleting a message, recording a case, posting to
//! a log channel) belongs to those consumers, so the rules can be tested
//! with tables and answered by `POST /servers/{id}/automod/test` without
//! changing anything.

pub mod antinuke;
pub mod automod;
pub mod invites;
pub mod live;
pub mod lockdown;
pub mod logs;
pub mod native;
pub mod verify;
pub mod welcome;
