//! The process's own figures, read from `/proc/self` at each scrape (the
//! names of the Prometheus client libraries' process collectors, so
//! dashboards made for them work): memory, CPU time and file descriptors.
//! Elsewhere than Linux there is no `/proc`, and none are shown.

/// What `/proc/self` says now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProcessStats {
    /// Resident memory (`process_resident_memory_bytes`).
    pub resident_bytes: u64,
    /// Virtual memory (`process_virtual_memory_bytes`).
    pub virtual_bytes: u64,
    /// User and system CPU time (`process_cpu_seconds_total`).
    pub cpu_seconds: f64,
    /// Open file descriptors (`process_open_fds`): connections, the
    /// database's files, the listeners.
    pub open_fds: u64,
    /// The open-file limit (`process_max_fds`), which bounds connections.
    pub max_fds: Option<u64>,
}

/// Reads the figures; `None` where `/proc/self` cannot be read.
pub fn read() -> Option<ProcessStats> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let page = rustix::param::page_size() as u64;
    let (virtual_pages, resident_pages) = parse_statm(&statm)?;
    let ticks = parse_stat_ticks(&stat)?;
    let open_fds = std::fs::read_dir("/proc/self/fd").ok()?.count() as u64;
    let max_fds = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    Some(ProcessStats {
        resident_bytes: resident_pages * page,
        virtual_bytes: virtual_pages * page,
        cpu_seconds: ticks as f64 / rustix::param::clock_ticks_per_second() as f64,
        open_fds,
        max_fds,
    })
}

/// `/proc/self/statm`'s first two fields: size and resident, in pages.
fn parse_statm(statm: &str) -> Option<(u64, u64)> {
    let mut fields = statm.split_ascii_whitespace();
    Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
}

/// `/proc/self/stat`'s utime + stime (fields 14 and 15, in clock ticks).
/// The second field, the command name, is in parentheses and may hold
/// spaces and parentheses itself: fields are counted after its last `)`.
fn parse_stat_ticks(stat: &str) -> Option<u64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    // After the name: field 3 (state) is the first.
    let mut fields = after_name.split_ascii_whitespace().skip(14 - 3);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_command_name() {
        // A name with a space and a parenthesis, as a thread may be named.
        let stat = "4242 (modctld (x) y) S 1 4242 4242 0 -1 4194560 700 0 0 0 123 45 0 0 20 0 9 0 100 1000 200";
        assert_eq!(parse_stat_ticks(stat), Some(168));
        assert_eq!(parse_statm("2500 700 300 10 0 900 0\n"), Some((2500, 700)));
        assert_eq!(parse_stat_ticks("garbage"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_memory_and_open_files() {
        let stats = read().expect("/proc/self is readable on Linux");
        assert!(stats.resident_bytes > 0 && stats.virtual_bytes >= stats.resident_bytes);
        assert!(stats.open_fds > 0);
    }
}
