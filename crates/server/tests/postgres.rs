//! The API against a real server process on a PostgreSQL database.
//!
//! With `CRUSADES_TEST_POSTGRES_URL` set (`postgres://user@host:port/db`) every scenario runs
//! on that database. Otherwise the test starts its own throwaway cluster with the machine's
//! PostgreSQL (`initdb` and `pg_ctl` from /usr/lib/postgresql/*/bin, run as the `postgres`
//! user when the test runs as root) in a temporary folder on a free port, gives each scenario
//! a fresh database, and stops the cluster at the end. Without PostgreSQL it fails, saying
//! what to install: it is never skipped.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{suite, Db};

/// A PostgreSQL cluster of this test's own.
struct Cluster {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    as_postgres: bool,
    count: std::cell::Cell<u32>,
}

/// A command of the PostgreSQL binaries, as the `postgres` user when we are root.
fn pg(bin: &Path, name: &str, as_postgres: bool) -> Command {
    let program = bin.join(name);
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn run(mut c: Command, what: &str) {
    let out = c
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {c:?}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Cluster {
    fn start() -> Cluster {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|d| {
                let mut found: Vec<PathBuf> = d
                    .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
                    .filter(|b| b.join("initdb").exists() && b.join("pg_ctl").exists())
                    .collect();
                found.sort();
                found.pop()
            })
            .unwrap_or_else(|| {
                panic!(
                    "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb and pg_ctl): \
                     install them with `apt-get install -y postgresql`, or set \
                     CRUSADES_TEST_POSTGRES_URL to a database to test against"
                )
            });
        let as_postgres = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
        let dir = tempfile::tempdir().expect("temp dir");
        if as_postgres {
            let mut c = Command::new("chown");
            c.args(["-R", "postgres:"]).arg(dir.path());
            run(c, "chown the cluster's folder to postgres");
        }
        let data = dir.path().join("data");
        let mut c = pg(&bin, "initdb", as_postgres);
        c.arg("-D")
            .arg(&data)
            .args(["-U", "postgres", "--auth=trust", "-E", "UTF8"]);
        run(c, "initdb");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut c = pg(&bin, "pg_ctl", as_postgres);
        c.arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(dir.path().join("log"))
            .arg("-o")
            .arg(format!(
                "-p {port} -c listen_addresses=127.0.0.1 -k {}",
                dir.path().display()
            ))
            .args(["-w", "start"]);
        run(c, "pg_ctl start");
        Cluster {
            bin,
            dir,
            port,
            as_postgres,
            count: std::cell::Cell::new(0),
        }
    }
}

impl Db for Cluster {
    fn fresh(&self) -> String {
        self.count.set(self.count.get() + 1);
        let name = format!("crusades_test_{}", self.count.get());
        let mut c = pg(&self.bin, "createdb", self.as_postgres);
        c.args([
            "-h",
            "127.0.0.1",
            "-p",
            &self.port.to_string(),
            "-U",
            "postgres",
            &name,
        ]);
        run(c, "createdb");
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = pg(&self.bin, "pg_ctl", self.as_postgres)
            .arg("-D")
            .arg(self.dir.path().join("data"))
            .args(["-m", "immediate", "stop"])
            .output();
    }
}

/// A database given from outside: every scenario shares it (game ids never collide).
struct Given(String);

impl Db for Given {
    fn fresh(&self) -> String {
        self.0.clone()
    }
}

#[test]
fn every_scenario_on_postgres() {
    let db: Box<dyn Db> = match std::env::var("CRUSADES_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Box::new(Given(url)),
        _ => Box::new(Cluster::start()),
    };
    for (name, scenario) in suite::ALL {
        eprintln!("postgres: {name}");
        scenario(db.as_ref());
    }
}
