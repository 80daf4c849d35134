//! Build script: rebuilds when a migration is added or changed, because
//! `sqlx::migrate!` embeds the `migrations/sqlite/` and `migrations/postgres/` folders at compile time.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
