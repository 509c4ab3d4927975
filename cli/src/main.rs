//! `modctl`: see the library crate for the map of modules.

fn main() -> std::process::ExitCode {
    modctl::main()
}
