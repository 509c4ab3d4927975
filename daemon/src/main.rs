//! `modctld`: see the library crate for the map of modules.

fn main() -> std::process::ExitCode {
    modctld::operator::main()
}
