//! `modctld`: see the library crate for the map of modules.

/// The daemon's allocator: jemalloc instead of glibc's malloc, for every
/// allocation of the process (Rust's and SQLite's alike).
///
/// Why (issue #22): glibc keeps what is freed. After a burst of large
/// activity batches the freed memory sat between allocations still in use
/// (and glibc's threshold for giving a large buffer a mapping of its own
/// rises with the first such buffer freed, so later ones land in its heaps
/// too): the daemon stayed at its peak, over 400 MiB, for good. Only
/// `malloc_trim` would have given it back, and `unsafe` is forbidden here.
/// jemalloc gives pages back by itself: its background thread purges what
/// has been free for a second (`dirty_decay_ms`, set in
/// `.cargo/config.toml`), wherever it is. With it the daemon is back under
/// 60 MiB about 6 s after the burst, and the other scenarios of the bench
/// cost the same CPU per request (README, "Benchmarks"). Building it takes
/// about a minute of CPU once per profile (its C sources, `configure` and
/// `make`).
///
/// mimalloc, the other candidate, preloaded over the same daemon (before
/// the writer learnt to free its page cache): idle at 45 to 53 MiB instead
/// of 25, still 114 to 140 MiB 30 s after the burst where jemalloc was at
/// 68; and its options can only be set through `unsafe` calls or the
/// environment.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    modctld::operator::main()
}
