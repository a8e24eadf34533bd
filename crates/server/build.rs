//! Rebuilds the server when the web client's files (embedded with include_dir) change.

fn main() {
    println!("cargo:rerun-if-changed=../../web/app");
    println!("cargo:rerun-if-changed=migrations");
}
