// The migrations are embedded at compile time by refinery; make cargo rebuild
// the daemon when a migration file is added or edited.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
