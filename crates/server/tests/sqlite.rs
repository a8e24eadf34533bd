//! The API against a real server process on an SQLite file.

mod common;

use common::{suite, Sqlite};

#[test]
fn create_and_state() {
    suite::create_and_state(&Sqlite::new());
}

#[test]
fn act_and_push() {
    suite::act_and_push(&Sqlite::new());
}

#[test]
fn bad_requests() {
    suite::bad_requests(&Sqlite::new());
}

#[test]
fn secrecy() {
    suite::secrecy(&Sqlite::new());
}

#[test]
fn ai_seats() {
    suite::ai_seats(&Sqlite::new());
}

#[test]
fn restart() {
    suite::restart(&Sqlite::new());
}

#[test]
fn web_files() {
    suite::web_files(&Sqlite::new());
}

#[test]
fn manual_dice() {
    suite::manual_dice(&Sqlite::new());
}

#[test]
fn actions_on_demand() {
    suite::actions_on_demand(&Sqlite::new());
}

#[test]
fn ai_failure() {
    suite::ai_failure(&Sqlite::new());
}
